"""Display names people choose, made fit to stand next to the bot's own words.

A name comes from the platform (Telegram's first name, Discord's display name): anything the
person typed, shown in the lobby, on the table and in the scores. `clean_name` is the one
place it is tidied — platform-neutral, no markup escaping (each adapter escapes what it sends):

- NFC-normalised; control and format characters dropped (C0/C1 controls, bidi embeddings,
  overrides and isolates, zero-width space/joiners, word joiner, BOM, tag characters, lone
  surrogates, private use), as are invisible fillers (Hangul fillers, Braille blank, combining
  grapheme joiner);
- every kind of whitespace becomes one space, none at the ends;
- at most `MAX_MARKS` combining marks on one character (no "Zalgo" towers), none without a
  character to sit on;
- no `/command`, `@mention` or link for Telegram or Discord to act on: `/`, `@` and a domain's
  dots become look-alikes (`∕`, `＠`, `․`), so "/leave" shows as "∕leave" and does nothing;
- at most `MAX_NAME` (32) characters; nothing left: `FALLBACK` ("Player");
- a person can't pass for a computer seat. The bot names those "Computer N" and shows them as
  "🤖 Computer N" (bot/games/rummy/screens.py), so a name with 🤖 in it, or with the word "computer"
  in it (also spelt in fullwidth or mathematical letters, with look-alike Cyrillic/Greek
  letters, accents, `0` for `o`, `rn` for `m`, or dots and spaces between the letters) gets
  `PERSON_MARK` at its end: "🤖 Computer 2" becomes "🤖 Computer 2 (person)". A name that
  already ends with the mark keeps it and gets no second one.

`clean_name` is idempotent (`clean_name(clean_name(x)) == clean_name(x)`), so the core and an
adapter may both call it. It takes linear time in its input, and reads at most `MAX_INPUT`
characters of it.

    >>> clean_name("  **Boss**\\u202e\\u200b  ")
    '**Boss**'
    >>> clean_name("🤖 Computer 2")
    '🤖 Computer 2 (person)'
    >>> clean_name("\\u200b")
    'Player'
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 32  # characters (code points); Discord's display names are at most 32 too
MAX_INPUT = 4096  # characters of the raw name looked at: the rest is never read
MAX_MARKS = 4  # combining marks kept on one character (Indic and Thai need 2-3)
FALLBACK = "Player"
PERSON_MARK = " (person)"
ROBOT = "\U0001f916"  # 🤖, what the bot puts before a computer seat's name

# Categories dropped: controls (Cc), format characters (Cf: bidi controls U+202A–202E and
# U+2066–2069, LRM/RLM/ALM, zero-width space/non-joiner/joiner U+200B–200D, word joiner,
# invisible operators, BOM, soft hyphen, tag characters…), surrogates (Cs: a lone one can't
# even be encoded), private use (Co). Unassigned code points (Cn) stay: newer emoji are
# unassigned in an older Python's Unicode tables.
_DROP_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co"})
# Assigned as letters or marks, but show as nothing.
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0")
_BLANK = frozenset("\u2800")  # Braille pattern blank: looks like a space, so it is one

# Look-alikes of the letters of "computer", for the check only (never shown); the digits
# that pass for letters (`C0mput3r`) are in the pattern, as "2" must stay a digit after it.
_CONFUSABLES = str.maketrans({
    "с": "c", "ϲ": "c", "ⅽ": "c",  # Cyrillic es, Greek lunate sigma, Roman numeral
    "о": "o", "ο": "o", "օ": "o",  # Cyrillic, Greek, Armenian
    "м": "m", "ϻ": "m",
    "р": "p", "ρ": "p",
    "υ": "u", "ս": "u", "ц": "u",
    "т": "t", "τ": "t",
    "е": "e", "ε": "e",
    "г": "r", "ɾ": "r",
})
# What Telegram makes an action of in a bot's plain text — a /command, an @mention, a link
# (with a scheme, or a bare domain like example.com) — and Discord a mention: the sign that
# starts it becomes a look-alike (∕ ＠ ․), so the name reads the same and does nothing.
_DEFUSE = str.maketrans({"/": "\u2215", "@": "\uff20"})
_DOMAIN_DOT = re.compile(r"(?<=[^\W_])\.(?=[^\W_])")
_COMPUTER = re.compile(
    r"c[\W_]*[o0][\W_]*(?:m|rn)[\W_]*p[\W_]*u[\W_]*t[\W_]*[e3][\W_]*r(?![a-z])"
)


def _kind(ch: str) -> str:
    """' ' (whitespace), '' (dropped), 'M' (combining mark) or 'L' (anything shown)."""
    if ch.isspace() or ch in _BLANK:
        return " "
    category = unicodedata.category(ch)
    if category in _DROP_CATEGORIES or ch in _INVISIBLE:
        return ""
    if category[0] == "Z":  # Zs, Zl, Zp not caught by isspace
        return " "
    if category[0] == "M":
        return "M"
    return "L"


def _tidy(text: str) -> str:
    """Drop what shows as nothing, one space for any whitespace run, marks bounded."""
    out: list[str] = []
    marks = 0
    base = False  # is there a shown character for a mark to sit on?
    for ch in text:
        kind = _kind(ch)
        if kind == "L":
            out.append(ch)
            base, marks = True, 0
        elif kind == "M":
            if base and marks < MAX_MARKS:
                out.append(ch)
                marks += 1
        elif kind == " ":
            if out and out[-1] != " ":
                out.append(" ")
            base, marks = False, 0
    return "".join(out).strip(" ")


def _skeleton(name: str) -> str:
    """The name as the check reads it: compatibility forms folded (fullwidth, mathematical
    letters, superscripts), case folded, accents dropped, look-alike letters mapped."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    bare = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return bare.translate(_CONFUSABLES)


def looks_like_computer(name: str) -> bool:
    """Could this name be read as one of the bot's computer seats ("🤖 Computer 2")?"""
    if ROBOT in name:
        return True
    return _COMPUTER.search(_skeleton(name)) is not None


def clean_name(raw: str) -> str:
    """A person's display name, safe to show (see the module's docstring)."""
    if not isinstance(raw, str):
        raw = ""
    text = unicodedata.normalize("NFC", raw[:MAX_INPUT])
    # NFC again after tidying: a dropped character may have kept two others from composing.
    name = unicodedata.normalize("NFC", _tidy(text))
    name = _tidy(name)  # NFC may (rarely) turn a character into a space or a mark
    name = _DOMAIN_DOT.sub("\u2024", name.translate(_DEFUSE))
    name = name[:MAX_NAME].rstrip(" ")
    if not name:
        return FALLBACK
    if not name.endswith(PERSON_MARK) and looks_like_computer(name):
        name = name[: MAX_NAME - len(PERSON_MARK)].rstrip(" ") + PERSON_MARK
    return name
