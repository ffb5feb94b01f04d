"""The renderer's root: what every game's pictures share — fonts, palette, shapes, card and tile
sprites, drawing widgets, the lobby picture. Each game's pictures are in its own package
(render/rummy/, render/buildten/). Pillow only, no system fonts; a view in, PNG bytes out.
"""
