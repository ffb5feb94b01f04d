"""How a core `Screen` becomes Discord components — pure data, no discord.py here.

Discord allows 5 action rows, 5 buttons a row, one select menu per row (25 options) and a
custom_id of 100 characters. The core lays out Telegram keyboards (8 a row, several card rows),
so: card buttons (`s0:`/`s1:`) become one multi-select menu, the other rows are re-chunked to
5 wide, and when that still needs more than 5 rows the biggest blocks of alike buttons
("Add to ▸" group letters, a run's cards, rulebooks…) turn into single-choice select menus.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from bot.core.cut import cut
from bot.core.service import pack
from bot.core.views import Button, Screen
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
_HEAD = rf"{PREFIX}(?P<game>[0-9]{{1,10}}):(?P<version>[0-9]{{1,9}}):"
BUTTON_TEMPLATE = (rf"{_HEAD}(?P<action>[a-z][A-Za-z0-9_:#=*,]{{0,{MAX_ACTION - 1}}})"
                   r"(?:~[0-9]{1,2})?")
SELECT_TEMPLATE = rf"{_HEAD}(?P<kind>@(?:cardsp?|pick[0-9]{{1,2}}))"
_CARD = re.compile(r"^s[01]:")
_TILE = re.compile(r"^s[01]:(?:\*T|(?:1[0-3]|[1-9])[KRBO])#")  # a Rummikub tile's token
_TICK = "✓"

# Button styles (discord.ButtonStyle values, kept as ints to stay import-free).
PRIMARY, SECONDARY, SUCCESS, DANGER = 1, 2, 3, 4
_STYLES = {"join": PRIMARY, "start": PRIMARY, "auto": PRIMARY, "new": PRIMARY, "cards": PRIMARY,
           "next": PRIMARY, "done": SUCCESS, "knock": SUCCESS, "giveup": DANGER}
_PLACEHOLDERS = {"add": N_("Add the selected cards to group…"), "take": N_("Take from group…"),
                 "tc": N_("Take which card…"), "rb": N_("Rulebook…"), "timer": N_("Turn timer…"),
                 "cpu": N_("Computer level…"), "jk": N_("The joker stands for…")}
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
    """Buttons of one core row, or of consecutive rows of one kind; shown as rows of buttons
    or, when space runs out, as one select menu (a `noop` label becomes its placeholder)."""

    key: str
    buttons: list[Button] = field(default_factory=list)
    as_select: bool = False
    loose: bool = False  # mixed actions or a single button: may share a Discord row

    def rows(self) -> int:
        if self.as_select:
            return max(1, -(-len(self.choices()) // MAX_OPTIONS))
        return -(-len(self.buttons) // ROW_WIDTH)

    def choices(self) -> list[Button]:
        return [b for b in self.buttons if b.action != "noop"]


def custom_id(game_id: int, version: int, action: str) -> str:
    """`rt:<game>:<version>:<action>` (after `rt:`, exactly the button's callback data)."""
    return PREFIX + pack(game_id, version, action)


def _key(action: str) -> str:
    """Buttons of one kind share everything but the last part: `add:3` → `add`,
    `opt:must_lay:remind` → `opt:must_lay`; plain actions (`done`) have no kind."""
    head, sep, _ = action.rpartition(":")
    return head if sep else ""


def _blocks(rows: list[list[Button]]) -> list[_Block]:
    """Rows of one kind (the core wraps "Add to ▸" letters over several rows) merge into one
    block. Loose rows (mixed actions, or one button) merge with the loose block before them
    when that takes fewer of Discord's 5-wide rows: the core splits its rows for a phone's
    Telegram keyboard, which Discord's wider rows don't need."""
    blocks: list[_Block] = []
    for row in rows:
        keys = {_key(b.action) for b in row}
        key = keys.pop() if len(keys) == 1 else ""
        loose = not key or len(row) == 1
        last = blocks[-1] if blocks else None
        if last is not None and (
            (key and last.key == key) or (loose and last.loose and _fewer(last.buttons, row))
        ):
            last.buttons += row
            last.loose = last.loose and loose
        else:
            blocks.append(_Block(key, list(row), loose=loose))
    return blocks


def _fewer(block: list[Button], row: list[Button]) -> bool:
    """Do `block` and `row` together take fewer Discord rows than apart?"""
    rows = lambda n: -(-n // ROW_WIDTH)  # noqa: E731
    return rows(len(block) + len(row)) < rows(len(block)) + rows(len(row))


def _placeholder(block: _Block) -> str:
    notes = [b.label for b in block.buttons if b.action == "noop"]
    if notes:
        return notes[0]
    head = block.key.split(":")[0]
    if head == "opt" and block.buttons:  # "must lay: remind": the option's name, translated
        name = _strip_tick(block.buttons[0].label)[0].partition(":")[0].strip()
        return (name[:1].upper() + name[1:] or block.key.split(":", 1)[1]) + "…"
    return _(_PLACEHOLDERS.get(head, CHOOSE))


def _strip_tick(label: str) -> tuple[str, bool]:
    if label.startswith(_TICK):
        return label[len(_TICK):].strip() or label, True
    return label, False


def layout(screen: Screen) -> list[list[Spec]]:
    """The screen's buttons as at most 5 Discord rows (empty: no components), the menus'
    placeholders in the screen's language."""
    if screen.game_id is None or not screen.buttons:
        return []
    with using(screen.lang or current()):
        return _layout(screen)


def _layout(screen: Screen) -> list[list[Spec]]:
    game, version = screen.game_id, screen.version
    buttons = screen.buttons

    def cid(action: str) -> str:
        return custom_id(game, version, action)

    cards = [b for row in buttons for b in row if _CARD.match(b.action)]
    others = [[b for b in row if not _CARD.match(b.action)] for row in buttons]
    others = [row for row in others if row]
    paged = any(b.action.startswith("pg:") for row in others for b in row)
    out: list[list[Spec]] = []
    if cards:
        options = []
        for b in cards[:MAX_OPTIONS]:
            label, ticked = _strip_tick(b.label)
            options.append(OptionSpec(cut(label, 100), b.action[3:], ticked))
        kind = CARDS_PAGED if paged else CARDS
        if any(_TILE.match(b.action) for b in cards):
            hint = _("Select tiles (this page)…") if paged else _("Select tiles…")
        else:
            hint = _("Select cards (this page)…") if paged else _("Select cards…")
        out.append([SelectSpec(cid(kind), hint, tuple(options),
                               0, len(options))])
    blocks = _blocks(others)
    budget = MAX_ROWS - len(out)
    while sum(b.rows() for b in blocks) > budget:
        candidates = [b for b in blocks if not b.as_select and len(b.choices()) > 1]
        if not candidates:
            break
        max(candidates, key=lambda b: len(b.buttons)).as_select = True
    seen: dict[str, int] = {}
    picks = 0
    for block in blocks:
        if block.as_select:
            choices = block.choices()
            for start in range(0, len(choices), MAX_OPTIONS):
                chunk = choices[start:start + MAX_OPTIONS]
                options = []
                for b in chunk:
                    label, ticked = _strip_tick(b.label)
                    options.append(OptionSpec(cut(label, 100), b.action, ticked))
                out.append([SelectSpec(cid(f"{PICK}{picks}"),
                                       cut(_placeholder(block), 150), tuple(options))])
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
                                      _STYLES.get(b.action, SECONDARY),
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
