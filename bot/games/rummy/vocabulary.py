"""The rummy family's button verbs and argument kinds (its HostedGame.vocabulary, parsed by
bot/core/buttons.py), its lessons' among them (a lesson is a variant of the game).

Each pattern is anchored by the parser (fullmatch) and has no nested repetition: linear time.
"""

from __future__ import annotations

import re

from bot.core.buttons import IDX, WORD, Kind, register

_CARD_FACE = r"(?:10|[2-9AJQK])[SHDC]"
_TILE_FACE = r"(?:1[0-3]|[1-9])[KRBO]"  # a Rummikub tile, `7R` (engine/rummy/tiles.py)
_FACE = rf"(?:{_CARD_FACE}|{_TILE_FACE})"
# a card token, `7H#1`, `*#0`, `*#1=7H` (or a tile's, `7R#1`, `*T#0`, `*T#1=7R`)
TOKEN = re.compile(rf"(?:{_CARD_FACE}|\*)#[0-9](?:={_CARD_FACE})?"
                   rf"|(?:{_TILE_FACE}|\*T)#[0-9](?:={_TILE_FACE})?")
FACES = re.compile(rf"{_FACE}(?:,{_FACE}){{0,7}}")  # joker faces, `5H` or `5H,6H`

# the rummy family's buttons (round end, private screen)
RUMMY_VERBS: dict[str, tuple[Kind, ...]] = {
    "next": (), "finish": (),
    "sort": (), "pg": (IDX,), "s1": (TOKEN,), "s0": (TOKEN,), "cancel": (), "addm": (),
    "takem": (), "take": (IDX,), "new": (), "add": (IDX,), "tc": (IDX, TOKEN), "auto": (),
    "jk": (IDX, FACES), "done": (), "reset": (), "giveup": (), "draw": (), "pass": (),
    "knock": (), "hint": (), "show": (),
}
# the lessons' own buttons (the rest are the game's): another lesson, [Play a real game], a
# menu, skip, restart, quit, split after a card
LESSON_ONLY: dict[str, tuple[Kind, ...]] = {
    "go": (WORD,), "play": (), "splm": (), "more": (), "spl": (IDX,), "skip": (),
    "restart": (), "quit": (), "spa": (IDX, IDX),
}
RUMMY_VERBS.update(LESSON_ONLY)
# The lesson variant's name (a lesson row's `rulebook`: never a rulebook's) and the typed
# commands it answers in its private chat (besides /lesson itself).
LESSON = "lesson"
LESSON_VERBS = frozenset({
    "lay", "add", "take", "move", "split", "done", "reset", "draw", "pass", "knock", "giveup",
    "give", "hint", "show", "skip", "quit", "next", "finish", "choose", "joker", "restart",
})

# Known to the one parser as soon as the wing is loaded (the service registers every hosted
# game's vocabulary again when it starts: the same verbs with the same kinds are no clash).
register(RUMMY_VERBS)
