"""The engine's root: what every game's engine shares — the card type (engine/cards.py) and the
one illegal-action error (engine/errors.py). Each game's rules are in its own package
(engine/rummy/, engine/buildten/). Pure: no I/O, no clock; randomness only from a seed.
"""
