"""The lessons' words. Lessons are data made at import time, so their sentences are marked with
`N_` (extracted by `make locale`, kept as English msgids) and translated when they are shown,
in the reader's language. This package is pure (no bot, no catalogs): whoever shows a lesson
installs its translators here once (bot/core/lessons.py does, at import), and until then the
words stay English — the msgids themselves.

The msgids live in bot/i18n's messages.po with the game's own words, not in a domain of their
own: the lessons name the game's buttons and reuse its entries ("✔ Done", "Cancel", "Hand:
{cards}"), one catalog keeps one word for one thing, and the completeness test of
tests/test_i18n.py covers them with no second machinery.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.actions import IllegalAction
from engine.game import hint_line

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


def _(msgid: str) -> str:
    """`msgid` in the current language ("" stays "": an empty field is no message)."""
    return _translators["gettext"](msgid) if msgid else msgid


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translators["ngettext"](singular, plural, n)


def t(msgid: str, **params: Any) -> str:
    """Translate, then fill the placeholders."""
    return _translators["fill"](_(msgid), **params)


def tn(singular: str, plural: str, n: int, **params: Any) -> str:
    return _translators["fill"](ngettext(singular, plural, n), n=n, **params)
