"""The lessons' words. Lessons are data made at import time, so their sentences are marked with
`N_` (extracted by `make locale`, kept as English msgids) and translated when they are shown,
in the reader's language. This package is pure (no bot, no catalogs): whoever shows a lesson
installs its translators here once (../lesson_host.py does, at import), and until then the
words stay English — the msgids themselves.

The msgids live in bot/i18n's messages.po with the game's own words, not in a domain of their
own: the lessons name the game's buttons and reuse its entries ("✔ Done", "Cancel", "Hand:
{cards}"), one catalog keeps one word for one thing, and the completeness test of
tests/test_i18n.py covers them with no second machinery.

Cards are values, never text in a translation: a card run in a lesson's sentence is a
placeholder that names its cards in the typed notation — `Lay {5H 6H 7H} as a new group`,
`{9S 9H *}`, a tile game's `{6R 6B 6K}` — so a translator moves it and never types a card. `_`
fills it with the faces a player sees (`5♥ 6♥ 7♥`, a tile `6🟥`), one left-to-right isolate
per run in a right-to-left language, the cards in the order the placeholder names them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from engine.rummy.actions import IllegalAction
from engine.rummy.game import hint_line
from engine.rummy.tiles import parse_cards_or_tiles

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]
Refusal = Callable[[IllegalAction], str]
Hint = Callable[[Any], str]
Fill = Callable[..., str]


def _english(msgid: str) -> str:
    return msgid


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _reason(error: IllegalAction) -> str:
    return error.reason


def _format(template: str, **params: Any) -> str:
    return template.format(**params)


_translators: dict[str, Any] = {
    "gettext": _english,
    "ngettext": _english_plural,
    "refusal": _reason,  # the engine's refusals and hints are sentences of the game's own
    "hint": hint_line,
    "fill": _format,  # a right-to-left language isolates the values it puts in a sentence
}


def install(gettext: Gettext, ngettext: Ngettext, refusal: Refusal, hint: Hint, fill: Fill) -> None:
    """Translate the lessons' words, the engine's refusals and its hints with these (they
    follow the caller's current language); `fill` puts values into a translated template."""
    _translators.update(gettext=gettext, ngettext=ngettext, refusal=refusal, hint=hint, fill=fill)


def refusal(error: IllegalAction) -> str:
    """What the learner reads for a refused action."""
    return _translators["refusal"](error)


def hint(data: Any) -> str:
    """What the engine's hint (or its absence) says."""
    return _translators["hint"](data)


def N_(msgid: str) -> str:
    """Marks a msgid for extraction; it is translated where it is shown (`_`)."""
    return msgid


# `{5H 6H 7H}`, `{10C}`, `{9S 9H *}`, `{6R 6B 6K}`: a card run's placeholder (no other
# placeholder starts with a rank or a joker; `{n}`, `{cards}` are filled by `t`).
_CARD = r"(?:(?:10|1[1-3]|[1-9AKQJ])[SHDCKRBO]|\*)"
CARD_RUN = re.compile(r"\{(" + _CARD + r"(?: " + _CARD + r")*)\}")


def card_run(notation: str) -> str:
    """A run named in the typed notation as a sentence shows it: `5♥ 6♥ 7♥`, `6🟥 6🟦 6⬛`."""
    return " ".join(card.marked() for card in parse_cards_or_tiles(notation))


def fill_cards(text: str, fill: Fill | None = None) -> str:
    """`text` with each card-run placeholder shown as its cards, each run one isolate (`fill`:
    the language's own, when the caller has it at hand)."""
    fill = fill or _translators["fill"]
    return CARD_RUN.sub(lambda m: fill("{run}", run=card_run(m.group(1))), text)


def _(msgid: str) -> str:
    """`msgid` in the current language, its card runs shown ("" stays "": an empty field is no
    message). The bot shows a lesson's sentences through this too."""
    return fill_cards(_translators["gettext"](msgid)) if msgid else msgid


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translators["ngettext"](singular, plural, n)


def t(msgid: str, **params: Any) -> str:
    """Translate, then fill the placeholders."""
    return _translators["fill"](_(msgid), **params)


def tn(singular: str, plural: str, n: int, **params: Any) -> str:
    return _translators["fill"](ngettext(singular, plural, n), n=n, **params)
