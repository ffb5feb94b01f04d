"""How a core `Screen` becomes Discord components — pure data, no discord.py here.

Discord allows 5 action rows, 5 buttons a row, one select menu per row (25 options) and a
custom_id of 100 characters. A screen says what it offers by meaning (bot/core/views.py), and
this lays it out: a hand picker becomes one multi-select menu (the whole hand up to 25 pieces,
else a phone's page of it with the pager), a choice
group a row of buttons or — when the 5 rows run out — a single-choice select menu with the
group's prompt as its placeholder, plain actions rows of buttons 5 wide (short rows of a
phone's keyboard share a Discord row), each action's role its colour.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.core.cut import cut
from bot.core.service import pack
from bot.core.views import (
    CONFIRM,
    DANGER,
    ActionRow,
    Button,
    Choice,
    ChoiceGroup,
    HandPicker,
    Part,
    Rows,
    Screen,
)
from bot.core.views import PRIMARY as PRIMARY_ROLE
from bot.i18n import N_, _, current, using

PREFIX = "rt:"
MAX_ROWS = 5
ROW_WIDTH = 5
MAX_OPTIONS = 25
CARDS = "@cards"  # the multi-select of hand cards, one page of the hand
CARDS_PAGED = "@cardsp"  # the same on a hand with several pages (selection is kept off-page)
PICK = "@pick"  # a single-choice menu standing in for a block of buttons
MAX_CUSTOM_ID = 100  # Discord's limit
MAX_ACTION = 64  # the core's callback data is at most 64 bytes, game and version included
# custom_ids come back from the client, so the templates only admit the shapes this module
# writes: ASCII digits (`\d` would take "٣"), a game id of at most 10 digits and a version of
# at most 9, an action of the core's button vocabulary's characters (bot/core/buttons.py has
# the strict grammar), no nested repetition (linear time). discord.py fullmatches them.
# The two are disjoint (an action starts with a letter, a menu's kind with "@"), so exactly one
# DynamicItem class claims each custom_id; "~n" only makes repeated ids unique in one message.
# `L:` after `rt:`: a lesson's component sent before the lessons became hosted games
# (migration 0008) — the same row's press, for an older version (bot/core/buttons.py).
_HEAD = rf"{PREFIX}(?:L:)?(?P<game>[0-9]{{1,10}}):(?P<version>[0-9]{{1,9}}):"
BUTTON_TEMPLATE = (rf"{_HEAD}(?P<action>[a-z][A-Za-z0-9_:#=*,]{{0,{MAX_ACTION - 1}}})"
                   r"(?:~[0-9]{1,2})?")
SELECT_TEMPLATE = rf"{_HEAD}(?P<kind>@(?:cardsp?|pick[0-9]{{1,2}}))"

# Button styles (discord.ButtonStyle values, kept as ints to stay import-free).
PRIMARY, SECONDARY, SUCCESS, DANGER_STYLE = 1, 2, 3, 4
_STYLES = {PRIMARY_ROLE: PRIMARY, CONFIRM: SUCCESS, DANGER: DANGER_STYLE}
CHOOSE = N_("Choose…")


@dataclass(frozen=True)
class ButtonSpec:
    label: str
    custom_id: str
    style: int = SECONDARY
    disabled: bool = False


@dataclass(frozen=True)
class OptionSpec:
    label: str
    value: str
    default: bool = False


@dataclass(frozen=True)
class SelectSpec:
    custom_id: str
    placeholder: str
    options: tuple[OptionSpec, ...]
    min_values: int = 1
    max_values: int = 1


Spec = ButtonSpec | SelectSpec


@dataclass
class _Block:
    """A choice group's answers, or plain actions (a phone's rows of them that share Discord
    rows); shown as rows of buttons or, when space runs out, as one select menu."""

    buttons: list[Button] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)  # as a menu's options
    prompt: str = ""  # "": a plain actions' block (a `noop` label, else "Choose…")
    as_select: bool = False
    loose: bool = False  # plain actions or a single answer: may share a Discord row

    def rows(self) -> int:
        if self.as_select:
            return max(1, -(-len(self.choices) // MAX_OPTIONS))
        return -(-len(self.buttons) // ROW_WIDTH)

    def placeholder(self) -> str:
        if self.prompt:
            return self.prompt
        notes = [b.label for b in self.buttons if b.action == "noop"]
        return notes[0] if notes else _(CHOOSE)


def custom_id(game_id: int, version: int, action: str) -> str:
    """`rt:<game>:<version>:<action>` (after `rt:`, exactly the button's callback data)."""
    return PREFIX + pack(game_id, version, action)


def _fewer(block: list[Button], row: list[Button]) -> bool:
    """Do `block` and `row` together take fewer Discord rows than apart?"""
    rows = lambda n: -(-n // ROW_WIDTH)  # noqa: E731
    return rows(len(block) + len(row)) < rows(len(block)) + rows(len(row))


def _blocks(parts: list[Part]) -> list[_Block]:
    """A choice group is a block of its own; plain actions come as a phone's rows, and a row
    joins the plain block before it when that takes fewer of Discord's 5-wide rows (a phone's
    keyboard splits rows that Discord's wider rows don't need to)."""
    blocks: list[_Block] = []

    def loose(row: list[Button]) -> None:
        last = blocks[-1] if blocks else None
        if last is not None and last.loose and _fewer(last.buttons, row):
            last.buttons += row
            last.choices += [Choice(b.label, b.action) for b in row if b.action != "noop"]
        else:
            blocks.append(_Block(list(row), [Choice(b.label, b.action) for b in row
                                             if b.action != "noop"], loose=True))

    for part in parts:
        if isinstance(part, HandPicker):
            pager = part.pager() if len(part.pieces) > MAX_OPTIONS else []  # (_picker)
            if pager:
                loose(pager)
        elif isinstance(part, ChoiceGroup):
            if part.heading:
                loose([Button(part.heading, "noop")])
            if not part.choices:
                continue
            block = _Block([part.button(c) for c in part.choices], list(part.choices),
                           part.prompt, loose=len(part.choices) == 1)
            last = blocks[-1] if blocks else None
            if block.loose and last is not None and last.loose and _fewer(last.buttons,
                                                                          block.buttons):
                last.buttons += block.buttons
                last.choices += block.choices
            else:
                blocks.append(block)
        elif isinstance(part, ActionRow):
            for row in part.phone_rows():
                loose(row)
    return blocks


def _picker(hand: HandPicker, cid) -> SelectSpec:
    """The hand as one multi-select menu, its selected pieces preselected: the whole hand
    while it fits a menu (25; a phone pages it by 16), else the phone's page and its pager."""
    paged = len(hand.pieces) > MAX_OPTIONS
    pieces = hand.on_page()[:MAX_OPTIONS] if paged else hand.pieces
    options = tuple(OptionSpec(cut(p.label, 100), p.key, p.selected) for p in pieces)
    whole, page = hand.menu
    if paged:
        hint = page or _("Select cards (this page)…")
    else:
        hint = whole or _("Select cards…")
    return SelectSpec(cid(CARDS_PAGED if paged else CARDS), hint, options, 0, len(options))


def layout(screen: Screen) -> list[list[Spec]]:
    """The screen's parts as at most 5 Discord rows (empty: no components), the menus'
    placeholders in the screen's language."""
    if screen.game_id is None or not screen.parts:
        return []
    with using(screen.lang or current()):
        return _layout(screen)


def _layout(screen: Screen) -> list[list[Spec]]:
    game, version = screen.game_id, screen.version
    assert game is not None
    # bare rows (a screen made without parts): plain actions as they are
    parts = [q for p in screen.parts
             for q in ([ActionRow(r) for r in p.rows if r] if isinstance(p, Rows) else [p])]

    def cid(action: str) -> str:
        return custom_id(game, version, action)

    out: list[list[Spec]] = []
    hand = next((p for p in parts if isinstance(p, HandPicker) and p.pieces), None)
    if hand is not None:
        out.append([_picker(hand, cid)])
    blocks = _blocks(parts)
    budget = MAX_ROWS - len(out)
    while sum(b.rows() for b in blocks) > budget:
        candidates = [b for b in blocks if not b.as_select and len(b.choices) > 1]
        if not candidates:
            break
        max(candidates, key=lambda b: len(b.buttons)).as_select = True
    seen: dict[str, int] = {}
    picks = 0
    for block in blocks:
        if block.as_select:
            for start in range(0, len(block.choices), MAX_OPTIONS):
                chunk = block.choices[start:start + MAX_OPTIONS]
                options = tuple(OptionSpec(cut(c.label, 100), c.action, c.selected)
                                for c in chunk)
                out.append([SelectSpec(cid(f"{PICK}{picks}"),
                                       cut(block.placeholder(), 150), options)])
                picks += 1
            continue
        for start in range(0, len(block.buttons), ROW_WIDTH):
            row: list[Spec] = []
            for b in block.buttons[start:start + ROW_WIDTH]:
                ident = cid(b.action)
                n = seen.get(ident, 0)
                seen[ident] = n + 1
                if n:  # Discord rejects repeated custom_ids within a message
                    ident += f"~{n}"
                row.append(ButtonSpec(cut(b.label, 80) or "·", ident,
                                      _STYLES.get(b.role, SECONDARY),
                                      disabled=b.action == "noop"))
            out.append(row)
    if len(out) > MAX_ROWS:  # never expected; keep the cards and the Done row usable
        out = out[:MAX_ROWS - 1] + out[-1:]
    return out


# -- wording ------------------------------------------------------------------------------

_COMMANDS = [
    (re.compile(r"\ba group\b(?= with /join)"), "a server channel"),
    (re.compile(r"(?<![\w/])/newgame\b"), "/rummy new"),
    (re.compile(r"(?<![\w/])/endgame\b"), "/rummy end"),
    (re.compile(r"(?<![\w/])/(join|leave|hand|hint|rules|language|lesson|help)\b"), r"/rummy \1"),
    (re.compile(r"add me to a group and send (/rummy new) there"), r"\1 in a server channel"),
    (re.compile(r"\bour private chat\b"), "your DMs"),
]


def discordify(text: str) -> str:
    """The core speaks Telegram (`/newgame`, "our private chat"); say it the Discord way."""
    for pattern, replacement in _COMMANDS:
        text = pattern.sub(replacement, text)
    return text


# -- escaping -----------------------------------------------------------------------------

MAX_CONTENT = 2000  # characters of a message's content
# Everything the core writes is plain text (Telegram gets it without a parse mode), and people's
# names, typed moves and the like are inside it. Discord would render it as markdown: escape
# every character that can start markup, so the message shows exactly the core's text. One
# pass, single characters or a bounded line start: linear time (discord.utils.escape_markdown
# is super-linear on many "[…](…)" and leaves links clickable on purpose).
#   - `\ * _ ~ | `` — emphasis, underline, strike, spoilers, code (and the escape itself);
#   - `[` — masked links `[text](url)`; `<` — mentions `<@id>` `<@&id>` `<#id>`, timestamps,
#     custom emoji, command mentions, `<url>`;
#   - `:` before `//` — a bare URL would be a link and unfurl into an embed;
#   - `>` `#` `-` at a line's start — quotes, headers, subtext `-#`, lists.
_MARKUP = re.compile(r"(?m)^([ \t]*)([>#-])|([\\*_~|`<\[]|:(?=//))")
# @everyone, @here and raw ids as discord.utils.escape_mentions breaks them (a zero-width space
# after the @); allowed_mentions=none() already stops the pings, this stops the look.
_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]{17,20})")
# Bidi embeddings, overrides and isolates (names in old records may still hold them).
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def _escape_markup(match: re.Match[str]) -> str:
    if match[2] is not None:
        return match[1] + "\\" + match[2]
    return "\\" + match[3]


def escape(text: str) -> str:
    """Plain text as Discord shows it literally: no markdown, links, mentions or bidi tricks."""
    text = _MARKUP.sub(_escape_markup, text.translate(_BIDI))
    return _MENTION.sub("@\u200b\\1", text)


def render(text: str) -> str:
    """A core text as message content: the Discord wording, escaped, within the limit."""
    return cut(escape(discordify(text)), MAX_CONTENT)
