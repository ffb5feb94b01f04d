"""Texts cut to a platform's limit, measured as the platform counts and cut cleanly.

Telegram counts UTF-16 code units (a caption: 1024, a message: 4096, a callback answer: 200);
an emoji outside the BMP is two. `cut` never splits a character, a grapheme (a letter and its
marks, an emoji with its modifiers and joiners, a flag's two regional indicators) or a bidi
isolate (an opened one is closed after the ellipsis), and says it cut with "…".

    >>> cut("Ada 👩‍👩‍👧 and Bo", 8)
    'Ada…'
    >>> utf16_units("🤖 1")
    4
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

CAPTION_UNITS = 1024  # a photo's caption (Telegram)
MESSAGE_UNITS = 4096  # a text message (Telegram)
ALERT_UNITS = 200  # a callback query's answer (Telegram)
ELLIPSIS = "…"
# Bidi openers and what closes each: isolates (LRI RLI FSI → PDI), embeddings and overrides
# (LRE RLE LRO RLO → PDF).
_CLOSER = {"\u2066": "\u2069", "\u2067": "\u2069", "\u2068": "\u2069",
           "\u202a": "\u202c", "\u202b": "\u202c", "\u202d": "\u202c", "\u202e": "\u202c"}
_CLOSERS = frozenset(_CLOSER.values())
_ZWJ = "\u200d"
_TRAILING_DIGITS = re.compile(r"(\d+)\s*$")


def utf16_units(text: str) -> int:
    """The length Telegram counts: code points, those outside the BMP twice."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def _extends(ch: str) -> bool:
    """Does `ch` belong to the grapheme before it (a mark, a joiner, a variation selector, an
    emoji modifier, a tag)?"""
    code = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Mc", "Me")
        or ch == _ZWJ
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def graphemes(text: str) -> Iterator[str]:
    """The text in user-perceived characters (enough of Unicode's rules for a clean cut)."""
    cluster = ""
    for ch in text:
        joined = cluster.endswith(_ZWJ)
        pair = (_regional(ch) and len(cluster) == 1 and _regional(cluster))
        if cluster and (joined or pair or _extends(ch)):
            cluster += ch
            continue
        if cluster:
            yield cluster
        cluster = ch
    if cluster:
        yield cluster


def cut(text: str, limit: int, *, end: str = ELLIPSIS) -> str:
    """`text` if it fits in `limit` UTF-16 units; else its longest clean head, `end`, and the
    closers of the bidi runs the head left open."""
    if utf16_units(text) <= limit:
        return text
    room = limit - utf16_units(end)
    if room < 0:
        return ""
    kept: list[str] = []
    opened: list[str] = []
    used = 0
    for cluster in graphemes(text):
        size = utf16_units(cluster)
        after = list(opened)
        for ch in cluster:
            if ch in _CLOSER:
                after.append(_CLOSER[ch])
            elif ch in _CLOSERS and after and after[-1] == ch:
                after.pop()
        if used + size + len(after) > room:
            break
        kept.append(cluster)
        used += size
        opened = after
    head = "".join(kept).rstrip()
    return head + end + "".join(reversed(opened))


def short_name(name: str, limit: int) -> str:
    """A seat's name in at most `limit` units that stays told apart from the others: a
    computer's ("🤖 Computer 3") keeps its number ("🤖 3"), a person's keeps both ends
    ("Alexandra…Smith" → "Alex…mith")."""
    if utf16_units(name) <= limit:
        return name
    number = _TRAILING_DIGITS.search(name)
    if name.startswith("\U0001f916") and number:
        return cut(f"\U0001f916 {number[1]}", limit)
    clusters = list(graphemes(name))
    tail: list[str] = []
    room = limit - utf16_units(ELLIPSIS)
    used = 0
    for cluster in reversed(clusters):  # the last third or so: where names differ
        size = utf16_units(cluster)
        if used + size > room // 3:
            break
        tail.insert(0, cluster)
        used += size
    head = cut(name, room - used, end="")
    return head + ELLIPSIS + "".join(tail)
