"""What the core hands to an adapter: screens (one chat message each) and the outcome of a
command. Buttons are abstract; each adapter maps them to its own widgets."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property


@dataclass(frozen=True)
class Button:
    label: str
    action: str  # encoded into the platform's callback data with the game id and version
    # What the button is to the screen, for a client that shows emphasis (Discord's colours):
    # "" a plain action, PRIMARY the step most people take next (Join, Start, Next round),
    # CONFIRM the one that ends the turn (Done, Knock), DANGER one that costs (Give up).
    role: str = ""


PRIMARY, CONFIRM, DANGER = "primary", "confirm", "danger"


def in_rows(buttons: list[Button], width: int) -> list[list[Button]]:
    """`buttons` as keyboard rows of at most `width` (what fits a phone: tests/button_widths.py)."""
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


# -- what a screen offers, by meaning ------------------------------------------------------
# A game's screen says what it offers — the pieces a seat picks from (`HandPicker`), one
# question and its answers (`ChoiceGroup`), plain actions (`ActionRow`) — and each adapter lays
# that out its own way: Telegram as keyboard rows (`phone_rows`: each part's `per_row` is the
# most that fit a phone's row uncut, tests/button_widths.py), Discord as a multi-select, select
# menus and buttons inside its 5×5 (bot/adapters/discord_layout.py), the terminal and the web
# table theirs. No adapter reads an action string to guess what a button is.


@dataclass(frozen=True)
class Choice:
    """One answer of a `ChoiceGroup`, or one piece of a `HandPicker`."""

    label: str  # as shown, without the selection mark
    action: str  # the press it makes
    selected: bool = False  # the current answer, a selected piece (a ✓ before it on a phone)
    key: str = ""  # a piece's name in a multi-select (the game's token); "" for an answer
    # The piece named as text where no picture shows it (a terminal): a tile with its colour's
    # mark (7🟥), as the log names it; "" : the label says it all.
    text: str = ""


@dataclass
class HandPicker:
    """The pieces a seat may pick, several at once (a hand of cards, a rack of tiles), each
    `action` toggling it. A phone shows a page of `per_row` × `rows` and a pager (`page_verb`:
    the game's verb that shows page n, `<page_verb>:<n>`); a client with a multi-select shows
    the page as one menu, a terminal every piece."""

    pieces: list[Choice]
    page: int = 0
    per_row: int = 8
    rows: int = 2
    page_verb: str = "pg"
    tick: str = "✓"  # the selection mark on a phone, before the label
    label: str = ""  # the hand's name before its pieces listed one by one (a terminal's "Hand:")
    # the game's words for a menu of the pieces: the whole hand, a page of it ("": a client's
    # own, "Select cards…")
    menu: tuple[str, str] = ("", "")

    @property
    def per_page(self) -> int:
        return self.per_row * self.rows

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.pieces) // self.per_page))

    @property
    def shown_page(self) -> int:
        return min(self.page, self.pages - 1)

    def on_page(self) -> list[Choice]:
        first = self.shown_page * self.per_page
        return self.pieces[first : first + self.per_page]

    def button(self, piece: Choice) -> Button:
        return Button((self.tick if piece.selected else "") + piece.label, piece.action)

    def pager(self) -> list[Button]:
        """◀ n/m ▶ for a hand of several pages, else nothing."""
        pages, page = self.pages, self.shown_page
        if pages == 1:
            return []
        return [Button("◀", f"{self.page_verb}:{(page - 1) % pages}"),
                Button(f"{page + 1}/{pages}", "noop"),
                Button("▶", f"{self.page_verb}:{(page + 1) % pages}")]

    def phone_rows(self) -> list[list[Button]]:
        pager = self.pager()
        return in_rows([self.button(p) for p in self.on_page()], self.per_row) + (
            [pager] if pager else [])


@dataclass
class ChoiceGroup:
    """One question and its answers (Add to ▸ which group, take which card, the rulebook, a
    computer's level, the timer, what a joker stands for…): `prompt` asks it (a menu's
    placeholder), `heading` is a line a phone shows above the answers ("" none)."""

    prompt: str
    choices: list[Choice]
    per_row: int = 8
    tick: str = "✓ "
    heading: str = ""

    def button(self, choice: Choice) -> Button:
        return Button((self.tick if choice.selected else "") + choice.label, choice.action)

    def phone_rows(self) -> list[list[Button]]:
        head = [[Button(self.heading, "noop")]] if self.heading else []
        return head + in_rows([self.button(c) for c in self.choices], self.per_row)


@dataclass
class ActionRow:
    """Plain actions (Draw, Done, Reset, Hint, Join…), `per_row` a phone's row (0: one row)."""

    actions: list[Button]
    per_row: int = 0

    def phone_rows(self) -> list[list[Button]]:
        return in_rows(self.actions, self.per_row or len(self.actions)) if self.actions else []


@dataclass
class Rows:
    """Keyboard rows as they are, for a screen made without parts (none of the games' now):
    a phone shows them as they are, Discord as plain actions."""

    rows: list[list[Button]]

    def phone_rows(self) -> list[list[Button]]:
        return [list(row) for row in self.rows if row]


Part = HandPicker | ChoiceGroup | ActionRow | Rows


def phone_rows(parts: list[Part]) -> list[list[Button]]:
    """A screen's parts as a phone's keyboard rows (Telegram's layout)."""
    return [row for part in parts for row in part.phone_rows()]


def _parts(given: list) -> list[Part]:
    """Parts as given; bare keyboard rows (a lesson's) kept as `Rows`."""
    parts: list[Part] = []
    for item in given:
        if isinstance(item, list):  # a row of buttons
            if parts and isinstance(parts[-1], Rows):
                parts[-1].rows.append(item)
            else:
                parts.append(Rows([item]))
        else:
            parts.append(item)
    return parts


@dataclass
class Screen:
    """One message: a picture (rendered lazily, once), a text, and what it offers (`parts`,
    by meaning; `buttons`: as a phone's keyboard rows)."""

    text: str
    parts: list[Part] = field(default_factory=list)
    image_key: str | None = None  # equal keys: the picture did not change (edit text/buttons only)
    painter: Callable[[], bytes] | None = None
    game_id: int | None = None
    version: int = 0  # engine state version the buttons were made for
    # For clients that show more than a chat message (a terminal, a screen reader): the whole
    # picture as text — the table one group a line as this seat sees it (its working copy
    # marked), and on a private screen the whole hand. "" where the text says it all.
    detail: str = ""
    # The game phase a game's table, private or score screen shows: "play", "round_over",
    # "game_over" (a client can tell the game is over); "" for other screens (the lobby,
    # lessons, a closed game's notice).
    phase: str = ""
    # The screen's one-off line(s), also in `text`: the answer to the last move (an error, a
    # hint, a lesson's feedback); a client that prints screens one after another shows it once.
    notice: str = ""
    # The language the screen was made in (its reader's): an adapter's own words around it
    # (Discord's select placeholders) follow it. "" : not known (the current language).
    lang: str = ""
    # For a client that lists the hand picker's pieces itself (the terminal): the lines of
    # `text` and `detail` that list the seat's hand (it leaves them out of the detail always,
    # and out of the text when it lists the pieces), and the lines of `text` it has no need
    # for beside the detail and the pieces (a working copy the detail marks; an empty hand)
    hand_lines: tuple[str, ...] = ()
    repeats: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.parts = _parts(self.parts)

    @property
    def buttons(self) -> list[list[Button]]:
        """The parts as a phone's keyboard rows (what Telegram shows)."""
        return phone_rows(self.parts)

    @buttons.setter
    def buttons(self, rows: list[list[Button]]) -> None:
        self.parts = _parts(list(rows))

    @property
    def hand(self) -> HandPicker | None:
        return next((p for p in self.parts if isinstance(p, HandPicker)), None)

    @property
    def cards(self) -> list[Button]:
        """Every piece button of the hand picker, unpaged (`buttons` shows a page of them): a
        client that can show all the cards needs no engine. Empty without a hand picker."""
        hand = self.hand
        return [hand.button(p) for p in hand.pieces] if hand is not None else []

    @cached_property
    def image(self) -> bytes | None:
        return self.painter() if self.painter else None


@dataclass(frozen=True)
class Where:
    """Where an outcome goes and which saved change it shows: the platform's part of an
    outcome, made in one piece where the change is saved (bot/core/unit.py), never filled in
    field by field. `revision`: the game row's version the screens were built from — commit
    order: an adapter never shows a screen older than the one it last showed in that message
    (None: no order, always show); `refs`: the game's delivery refs read with that commit
    (saves a read); `names`: user id -> seat name; `next_up`: who moves next once this is
    saved — "person", "computer" (the scheduler will move and deliver), or "" (lobby, round
    over, game over): a caller can wait for the computers."""

    game_id: int | None = None
    platform: str = ""
    chat_id: str = ""
    revision: int | None = None
    refs: dict | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    next_up: str = ""


@dataclass
class Outcome:
    """What a command changed. `group` replaces the game's live message in the group chat
    (posted fresh when `group_new`, else edited in place — at a new turn, `group_turn`, the
    delivery decides); `private` maps a user id to the
    screen of their private message; `notes` are extra group messages (scoreboard, results).
    A game makes the screens and the reply; the platform says where they go (`where`)."""

    reply: str | None = None  # a short answer to the person who acted (toast or reply)
    alert: bool = False  # show the reply prominently (an error)
    group: Screen | None = None
    group_new: bool = False
    group_turn: bool = False  # a new turn began: worth posting anew if the table scrolled away
    notes: list[Screen] = field(default_factory=list)
    private: dict[str, Screen] = field(default_factory=dict)
    private_new: set[str] = field(default_factory=set)  # send anew rather than edit
    private_notes: dict[str, str] = field(default_factory=dict)  # one-off private texts
    # One-off private messages (a picture with its caption, a long text — /review), sent in
    # order after that person's private screen; never a live message that later edits.
    private_extras: dict[str, list[Screen]] = field(default_factory=dict)
    # persons whose `private_extras` are a /notify call (no seat: a closed DM of theirs is
    # not the group's business — bot/core/notify.py)
    called: set[str] = field(default_factory=set)
    log: list[str] = field(default_factory=list)  # the game log lines this change added
    # The first of `log` says again, with more, the log line before it ("drew 13 cards" after
    # "drew 12 cards"): a client that prints the log shows it in that line's place.
    log_refolds: bool = False
    # A finished lesson's [Play a real game]: the variant the platform starts against a
    # computer in this chat once this change is saved (bot/core/service.py).
    play_next: str | None = None
    # A picture answering a command (/stats, /leaderboard): posted in the chat the command
    # came from, its text (`reply`, also its caption) for screen readers and text clients.
    picture: Screen | None = None
    where: Where = field(default_factory=Where)  # the platform's: see `Where`

    # `where`'s parts, read where an adapter reads an outcome
    @property
    def game_id(self) -> int | None:
        return self.where.game_id

    @property
    def platform(self) -> str:
        return self.where.platform

    @property
    def chat_id(self) -> str:
        return self.where.chat_id

    @property
    def revision(self) -> int | None:
        return self.where.revision

    @property
    def refs(self) -> dict | None:
        return self.where.refs

    @property
    def names(self) -> Mapping[str, str]:
        return self.where.names

    @property
    def next_up(self) -> str:
        return self.where.next_up

    def merge(self, other: Outcome) -> Outcome:
        """Later screens replace earlier ones; notes and replies add up."""
        if other.group is not None:
            self.group = other.group
            self.group_new = self.group_new or other.group_new
            self.group_turn = self.group_turn or other.group_turn
        self.notes += other.notes
        self.private.update(other.private)
        self.private_new |= other.private_new
        for user, text in other.private_notes.items():
            self.private_notes[user] = (self.private_notes.get(user, "") + "\n" + text).strip()
        for user, extras in other.private_extras.items():
            self.private_extras.setdefault(user, []).extend(extras)
        if other.reply:
            self.reply = other.reply
            self.alert = other.alert
        if other.log_refolds and self.log:
            self.log = [*self.log[:-1], *other.log]
        else:
            self.log_refolds = self.log_refolds or (other.log_refolds and not self.log)
            self.log += other.log
        if other.revision is not None:
            self.where = replace(self.where, revision=max(self.revision or 0, other.revision),
                                 refs=other.refs, next_up=other.next_up)
        return self
