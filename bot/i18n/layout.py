"""Right-to-left prose laid out for a phone's bidi algorithm (UAX #9, issue 44).

A translator writes plain Hebrew: `כתבו /discard {card} 1.`, `ערימות 1–4`, `לוותר (+3)`. In a
right-to-left line a bare `/help` shows as `help/` (an RLM before the slash does not help),
`1–4` as `4–1`, `(+3)` as `(3+)`, `11 + 30 + 9 = 50` backwards. So when a right-to-left catalog
is loaded, every stretch of a line that holds no Hebrew letter and carries a command, a number
or a card goes into a left-to-right isolate (LRI … PDI), and translators never type a control
character (as they never type a card):

- a `/command` with what follows it up to the next Hebrew word, ` · `, dash, parenthesis,
  sentence end or column gap (its arguments, placeholders too): `⁦/discard {card} 1⁩.`;
- else a run of numbers, signs and Latin letters, trimmed of the sentence's own punctuation
  (`A-2-3`, `7H 10S QD`, `+3`); a placeholder is a value `fill` isolates itself, so it ends
  such a run — unless it is glued to a number or another placeholder (`1–{last}`,
  `{minutes}:{seconds:02d}`), which is one left-to-right unit.

Isolates already in the text are kept as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

FSI, PDI, RLI, LRI = "\u2068", "\u2069", "\u2067", "\u2066"
OPENERS = frozenset((FSI, RLI, LRI))
# What ends a stretch: a Hebrew letter (and Hebrew punctuation: maqaf, geresh), a line, a list's
# ` · `, a dash between clauses, a parenthesis (both of a pair stay in the sentence), a bidi
# control (an LRM/RLM a translator typed stays outside).
_BREAK = re.compile(r"[\u0590-\u05ff\ufb1d-\ufb4f\n·—()\u200e\u200f\u202a-\u202e]")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
COMMAND = re.compile(r"`?(?<![\w/])/[a-z]+")
# A card or tile as shown (`10♥`, `🃏`, `7🟥`) or typed into prose (`7R`).
CARD = (
    r"(?:(?:10|[2-9AKQJ])[♠♥♦♣]|🃏(?:(?:10|[2-9AKQJ])[♠♥♦♣])?|(?:1[0-3]|[1-9])[⬛🟥🟦🟧]"
    r"|(?<!\w)(?:1[0-3]|[1-9])[KRBO](?!\w))"
)
CARD_RUN = re.compile(CARD + r"(?: " + CARD + r")*")
_LEFT_TO_RIGHT = re.compile(r"[0-9♠♥♦♣🃏⬛🟥🟦🟧]")
_RIGHT_TO_LEFT = re.compile(r"[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
# The sentence's own punctuation and spaces around a stretch stay outside its isolate.
# (Markdown's bold `**` too.)
_EDGE = " \t()[]„“”\"'«»,.:;!?…*"


def right_to_left_in(text: str) -> bool:
    """Has `text` a right-to-left letter (a Hebrew or Arabic name)?"""
    return bool(_RIGHT_TO_LEFT.search(text))


def left_to_right(text: str) -> bool:
    """A card run or a number: a digit or a card's mark, and no right-to-left letter."""
    return bool(_LEFT_TO_RIGHT.search(text)) and not _RIGHT_TO_LEFT.search(text)


def ltr(text: str) -> str:
    """`text` in a left-to-right isolate."""
    return LRI + text + PDI


def _segments(text: str) -> list[tuple[str, str]]:
    """`text` as (kind, piece): "isolate" (an opener to its PDI, kept whole), "break",
    "value" (a placeholder) or "plain"."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch in OPENERS:
            depth, j = 0, i
            while j < len(text):
                depth += text[j] in OPENERS
                depth -= text[j] == PDI
                j += 1
                if depth == 0:
                    break
            out.append(("isolate", text[i:j]))
            i = j
        elif (m := _PLACEHOLDER.match(text, i)) is not None:
            out.append(("value", m.group()))
            i = m.end()
        else:  # a gap of two spaces or more is a column's edge, `. ` and `; ` a clause's
            after = text[i + 1:i + 2]
            edge = (ch == " " and " " in (text[i - 1:i], after)) or (ch in ".;" and after == " ")
            out.append(("break" if edge or _BREAK.match(ch) else "plain", ch))
            i += 1
    return out


def _trimmed(piece: str, wrap: Callable[[str], str]) -> str:
    """`piece` with its core (no leading or trailing punctuation of the sentence) wrapped."""
    core = piece.lstrip(_EDGE)
    start = len(piece) - len(core)
    core = core.rstrip(_EDGE)
    if not core:
        return piece
    return piece[:start] + wrap(core) + piece[start + len(core):]


def _numbers(piece: str) -> str:
    """A stretch with no command: its numbers and cards one left-to-right unit."""
    return _trimmed(piece, lambda core: ltr(core) if _LEFT_TO_RIGHT.search(core)
                    and core != "🃏" else core)  # (a heading's joker emoji alone: no card)


def _words_with_values(stretch: list[tuple[str, str]]) -> str:
    """A stretch with no command, placeholders in it: a placeholder alone is fill's to isolate;
    one glued to a number or another placeholder (`1–{last}`) makes one unit with it."""
    text = "".join(piece for _, piece in stretch)
    out, plain = [], []
    for word in re.findall(r"(?:\{[^{}]*\}|[^\s{}])+|\s+|[{}]", text):
        values = _PLACEHOLDER.findall(word)
        if not values:
            plain.append(word)
            continue
        out.append(_numbers("".join(plain)))
        plain = []
        rest = _PLACEHOLDER.sub("", word)
        glued = len(values) > 1 or bool(re.search(r"\d", rest))
        out.append(_trimmed(word, ltr) if glued else word)
    out.append(_numbers("".join(plain)))
    return "".join(out)


def _stretch(stretch: list[tuple[str, str]]) -> str:
    text = "".join(piece for _, piece in stretch)
    command = COMMAND.search(text)
    if command is None:
        if any(kind == "value" for kind, _ in stretch):
            return _words_with_values(stretch)
        return _numbers(text)
    # what comes before the command is a stretch of its own; the command runs to the end
    head, length = [], 0
    for kind, piece in stretch:
        if length >= command.start():
            break
        head.append((kind, piece))
        length += len(piece)
    return (_stretch(head) if head else "") + _trimmed(text[length:], ltr)


def lay_out(text: str) -> str:
    """A right-to-left translation with its commands, numbers and card runs each in a
    left-to-right isolate (see the module's docstring)."""
    out: list[str] = []
    stretch: list[tuple[str, str]] = []
    for kind, piece in [*_segments(text), ("break", "")]:
        if kind in ("plain", "value"):
            stretch.append((kind, piece))
            continue
        if stretch:
            out.append(_stretch(stretch))
            stretch = []
        out.append(piece)
    return "".join(out)


_CODE_COMMAND = re.compile(r"`/[^`\n]*`")
_LAID = re.compile(LRI + "[^" + PDI + "]*" + PDI)


def _page_prose(prose: str) -> str:
    """Text outside every isolate: each `/command` code span, then each card run between them,
    in a left-to-right isolate."""
    prose = _CODE_COMMAND.sub(lambda span: ltr(span.group()), prose)
    return "".join(part if _LAID.fullmatch(part) else
                   CARD_RUN.sub(lambda run: ltr(run.group()), part)
                   for part in re.split("(" + _LAID.pattern + ")", prose))


def lay_out_page(text: str) -> str:
    """A page (the rules, Markdown) with each card run and each `/command` code span outside
    an isolate its own left-to-right one."""
    out: list[str] = []
    loose: list[str] = []
    for kind, piece in [*_segments(text), ("isolate", "")]:
        if kind != "isolate":
            loose.append(piece)
            continue
        out += [_page_prose("".join(loose)), piece]
        loose = []
    return "".join(out)
