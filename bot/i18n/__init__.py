"""Every word a person reads, in English, Hebrew or Russian: gettext catalogs made with Babel.

The catalogs are `bot/i18n/locale/<lang>/LC_MESSAGES/messages.po` (English is the msgids
themselves). They are compiled in memory the first time a language is used (Babel's own
.po reader and .mo writer), so there is no binary in the repository and no stale .mo after an
edit; `make locale` extracts and updates them.

The language is a context variable: the service sets the acting person's language for a
command (asyncio copies it into the worker thread), and the screens of other people are made
inside `using(their language)`. Code that makes a sentence calls `_`, `ngettext` or `t`.
"""

from __future__ import annotations

import gettext as _gettext
import io
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from .layout import FSI, LRI, PDI, RLI, lay_out, lay_out_page, left_to_right, right_to_left_in

LANGUAGES: tuple[str, ...] = ("en", "he", "ru")
DEFAULT = "en"
RTL = frozenset({"he"})
NAMES: Mapping[str, str] = {"en": "English", "he": "עברית", "ru": "Русский"}
LOCALE_DIR = Path(__file__).with_name("locale")
DOMAIN = "messages"

# Unicode bidi isolates (from .layout): FSI (direction from the first strong character) ...
# PDI; RLI: a right-to-left one (a list item inside a right-to-left sentence); LRI: a
# left-to-right one (a card run, a number, a /command).
BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

_current: ContextVar[str] = ContextVar("rummy_locale", default=DEFAULT)


def normalize(code: str | None) -> str:
    """A supported language for a client's code ("he-IL", "iw", "ru_RU.UTF-8", "en-GB" …);
    anything else is English."""
    if not code:
        return DEFAULT
    base = str(code).strip().lower().replace("_", "-").split(".")[0].split("-")[0]
    base = {"iw": "he"}.get(base, base)
    return base if base in LANGUAGES else DEFAULT


def supported(code: str | None) -> str | None:
    """The language a person asked for by name or code, or None when we don't speak it."""
    if not code:
        return None
    word = str(code).strip().lower()
    for lang, name in NAMES.items():
        if word in (lang, name.lower()):
            return lang
    lang = normalize(word)
    return lang if lang != DEFAULT or word.startswith("en") else None


def current() -> str:
    return _current.get()


def set_locale(lang: str | None) -> None:
    """The language of what follows in this context (a command's worker thread, say)."""
    _current.set(normalize(lang))


@contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Make sentences in `lang` inside the block (someone else's screen, the group's table)."""
    token = _current.set(normalize(lang))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of a language (English, or a missing catalog: the msgids). A
    right-to-left language's translations are laid out for its phones as they load: each
    /command, number and card run in a left-to-right isolate (see .layout)."""
    path = po_path(lang)
    if lang == DEFAULT or not path.exists():
        return _gettext.NullTranslations()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    if lang in RTL:
        for message in catalog:
            if message.id and message.string:
                forms = message.string
                message.string = (tuple(map(lay_out, forms)) if isinstance(forms, tuple)
                                  else lay_out(forms))
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def _(msgid: str) -> str:
    """`msgid` in the current language."""
    return translations(_current.get()).gettext(msgid)


def N_(msgid: str) -> str:
    """Marks a msgid for extraction where it is translated later (module constants)."""
    return msgid


def ngettext(singular: str, plural: str, n: int) -> str:
    """The plural form for `n` by the catalog's Plural-Forms (Russian has three)."""
    return translations(_current.get()).ngettext(singular, plural, n)


def is_rtl(lang: str | None = None) -> bool:
    return (lang or _current.get()) in RTL


def isolate(text: str) -> str:
    """In a right-to-left language, a value inside a sentence keeps its own direction: a name
    in an FSI … PDI (its first strong letter decides), a card run or a number — no right-to-
    left letter, a digit or a card's mark — in an LRI … PDI (an FSI around a card run nested in
    another isolate reads mirrored on some phones). In English and Russian only a value with
    a right-to-left letter (a Hebrew name) is isolated, in an FSI … PDI: else `שרה: 10` shows
    as `10 :שרה`, and a line that starts with it turns right to left."""
    if not text:
        return text
    if not is_rtl():
        return FSI + text + PDI if right_to_left_in(text) else text
    if left_to_right(text):
        return LRI + text + PDI
    return FSI + text + PDI


class Laid(str):
    """Text already laid out for bidi (a list of isolated items): `fill` puts it in as it is,
    since one isolate around a whole list would take its direction from the first name."""


def signed(number: int) -> str:
    """A number whose minus stays in front of it in a right-to-left sentence (`-190`)."""
    return isolate(str(number))


def listing(items: Iterable[str], sep: str = ", ") -> Laid:
    """A list inside a sentence, each item its own isolate in the sentence's direction, so
    a Latin first name neither flips the list nor reverses the seat order."""
    if not is_rtl():
        return Laid(sep.join(isolate(item) for item in items))
    return Laid(sep.join(RLI + item + PDI for item in items))


def and_list(items: Sequence[str]) -> str:
    """"A", "A and B", "A, B and C" in the current language, each item its own isolate in
    list order (seat order) whatever script each is in."""
    if len(items) < 2:
        return "".join(items)
    return t("{first} and {last}", first=listing(items[:-1]), last=items[-1])


def scored(name: str, number: int) -> str:
    """A list item `name score`: the name and the signed number each keep their direction."""
    return isolate(name) + " " + signed(number)


def isolate_page(text: str) -> str:
    """In a right-to-left language, a page (the rules) with each card run and each `/command`
    its own left-to-right isolate, or a phone shows `5♥ 6♥ 7♥` as `♥7 ♥6 ♥5` and `/lesson` as
    `lesson/`. Unchanged in English and Russian."""
    return lay_out_page(text) if is_rtl() else text


def strip_bidi(text: str) -> str:
    """Text without bidi controls (pictures lay the line out themselves)."""
    return "".join(ch for ch in text if ch not in BIDI_CONTROLS)


class _Isolating(string.Formatter):
    """Puts each value into a right-to-left sentence in its own isolate: text and numbers
    (formatted first: `{seconds:02d}`); a `Laid` value as it is."""

    def format_field(self, value: Any, format_spec: str) -> str:
        text = format(value, format_spec)
        if isinstance(value, (Laid, bool)):
            return text
        return isolate(text) if isinstance(value, str | int | float) else text


_ISOLATING = _Isolating()


def fill(template: str, **params: Any) -> str:
    """`template.format(**params)` with every text or number value isolated in a right-to-left
    language, and each value with a right-to-left letter in a left-to-right one (`isolate`)."""
    if not is_rtl() and not any(
            isinstance(v, str) and not isinstance(v, Laid) and right_to_left_in(v)
            for v in params.values()):
        return template.format(**params)  # (the usual case: nothing to isolate)
    return _ISOLATING.format(template, **params)


def t(msgid: str, **params: Any) -> str:
    """Translate, then fill the placeholders (text values bidi-isolated in Hebrew)."""
    return fill(_(msgid), **params)


def tn(singular: str, plural: str, n: int, **params: Any) -> str:
    """The plural form for `n`, filled; `{n}` is there for the template to use."""
    return fill(ngettext(singular, plural, n), n=n, **params)


def every(msgid: str) -> frozenset[str]:
    """`msgid` in every language (to recognise an answer, whichever language it came in)."""
    return frozenset(translations(lang).gettext(msgid) for lang in LANGUAGES)


def language_name(lang: str) -> str:
    return NAMES.get(lang, NAMES[DEFAULT])
