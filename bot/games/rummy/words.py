"""The rummy family's names of things, in the reader's language: rulebook titles, options and
their values (the words of ../shared/GLOSSARY.md: one word for one thing everywhere)."""

from __future__ import annotations

from typing import Any

from bot.i18n import N_, _

TITLES: dict[str, str] = {
    "manipulation": N_("Manipulation"),
    "machiavelli": N_("Machiavelli"),
    "shanghai": N_("Shanghai"),
    "guadeloupe": N_("Guadeloupe"),
    "carousel": N_("Carousel"),
    "vatican": N_("Vatican"),
    "tahiti": N_("Tahiti"),
}

# (option, value) -> what the lobby's chip and button say
OPTIONS: dict[tuple[str, Any], str] = {
    ("must_lay", "remind"): N_("must lay: remind"),
    ("must_lay", "trust"): N_("must lay: trust"),
    ("play_to", 200): N_("play to: 200"),
    ("play_to", 300): N_("play to: 300"),
    ("unfinished_move", "reset"): N_("unfinished move: reset"),
    ("unfinished_move", "give_back_draw_3"): N_("unfinished move: give back draw 3"),
}


def title(name: str) -> str:
    """A rulebook's title ("Manipulation"); an unknown name as it is."""
    return _(TITLES[name]) if name in TITLES else name


def option(key: str, value: Any) -> str:
    text = OPTIONS.get((key, value))
    if text is None:
        return f"{key.replace('_', ' ')}: {str(value).replace('_', ' ')}"
    return _(text)


def describe(name: str, options: dict[str, Any]) -> str:
    """"Manipulation · must lay: remind · play to: 200" (Rulebook.describe, translated)."""
    return " · ".join([title(name), *(option(k, v) for k, v in options.items())])
