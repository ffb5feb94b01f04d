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
    "rummikub": N_("Rummikub"),
}

# (option, value) -> what the lobby's chip and button say
OPTIONS: dict[tuple[str, Any], str] = {
    ("must_lay", "remind"): N_("must lay: remind"),
    ("must_lay", "trust"): N_("must lay: trust"),
    ("play_to", 200): N_("play to: 200"),
    ("play_to", 300): N_("play to: 300"),
    ("unfinished_move", "reset"): N_("unfinished move: reset"),
    ("unfinished_move", "give_back_draw_3"): N_("unfinished move: give back draw 3"),
    # Rummikub (RULES.md §5)
    ("initial_meld", 30): N_("initial meld: 30"),
    ("initial_meld", 20): N_("initial meld: 20"),
    ("initial_turn", "own_only"): N_("initial meld turn: own tiles only"),
    ("initial_turn", "may_add"): N_("initial meld turn: may add to the table"),
    ("failed_move", "draw_3"): N_("failed move: draw 3"),
    ("failed_move", "draw_1"): N_("failed move: draw 1"),
    ("failed_move", "reset"): N_("failed move: no penalty"),
    ("turn_timer", "off"): N_("one-minute turns: off"),
    ("turn_timer", 60): N_("one-minute turns: on"),
    ("wrap", "off"): N_("runs 12-13-1: no"),
    ("wrap", "on"): N_("runs 12-13-1: yes"),
    ("rounds", 1): N_("rounds: 1"),
    ("rounds", 3): N_("rounds: 3"),
    ("rounds", 5): N_("rounds: 5"),
}

# (option, value) -> the value alone, on a button in that option's row of the options menu
# (the menu's text names the options): a phone shows it uncut, and two values never read alike
CHOICES: dict[tuple[str, Any], str] = {
    ("must_lay", "remind"): N_("Remind with a hint"),
    ("must_lay", "trust"): N_("Trust the player"),
    ("play_to", 200): N_("To 200 points"),
    ("play_to", 300): N_("To 300 points"),
    ("unfinished_move", "reset"): N_("Reset, no penalty"),
    ("unfinished_move", "give_back_draw_3"): N_("Give back, draw 3"),
}


def title(name: str) -> str:
    """A rulebook's title ("Manipulation"); an unknown name as it is."""
    return _(TITLES[name]) if name in TITLES else name


def option(key: str, value: Any) -> str:
    text = OPTIONS.get((key, value))
    if text is None:
        return f"{key.replace('_', ' ')}: {str(value).replace('_', ' ')}"
    return _(text)


def choice(key: str, value: Any) -> str:
    """The value alone (`CHOICES`), or the option and its value."""
    text = CHOICES.get((key, value))
    return _(text) if text is not None else option(key, value)


def describe(name: str, options: dict[str, Any]) -> str:
    """"Manipulation · must lay: remind · play to: 200" (Rulebook.describe, translated)."""
    return " · ".join([title(name), *(option(k, v) for k, v in options.items())])
