"""What the core hands to an adapter: screens (one chat message each) and the outcome of a
command. Buttons are abstract; each adapter maps them to its own widgets."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Button:
    label: str
    action: str  # encoded into the platform's callback data with the game id and version


def in_rows(buttons: list[Button], width: int) -> list[list[Button]]:
    """`buttons` as keyboard rows of at most `width` (what fits a phone: tests/button_widths.py)."""
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


@dataclass
class Screen:
    """One message: a picture (rendered lazily, once), a text, and rows of buttons."""

    text: str
    buttons: list[list[Button]] = field(default_factory=list)
    image_key: str | None = None  # equal keys: the picture did not change (edit text/buttons only)
    painter: Callable[[], bytes] | None = None
    game_id: int | None = None
    version: int = 0  # engine state version the buttons were made for
    # For clients that show more than a chat message (a terminal, a screen reader): the whole
    # picture as text — the table one group a line as this seat sees it (its working copy
    # marked), and on a private screen the whole hand. "" where the text says it all.
    detail: str = ""
    # Every card button of `buttons`, unpaged (`buttons` shows a page of them): a client that
    # can show all the cards needs no engine. Empty when the screen offers no card buttons.
    cards: list[Button] = field(default_factory=list)
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

    @cached_property
    def image(self) -> bytes | None:
        return self.painter() if self.painter else None


@dataclass
class Outcome:
    """What a command changed. `group` replaces the game's live message in the group chat
    (posted fresh when `group_new`, else edited in place — at a new turn, `group_turn`, the
    delivery decides); `private` maps a user id to the
    screen of their private message; `notes` are extra group messages (scoreboard, results)."""

    reply: str | None = None  # a short answer to the person who acted (toast or reply)
    alert: bool = False  # show the reply prominently (an error)
    game_id: int | None = None
    platform: str = ""
    chat_id: str = ""
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
    names: dict[str, str] = field(default_factory=dict)  # user id -> seat name
    # The game row's version the screens were built from: commit order. An adapter never shows
    # a screen older than the one it last showed in that message (None: no order, always show).
    revision: int | None = None
    refs: dict | None = None  # the game's delivery refs read with that commit (saves a read)
    log: list[str] = field(default_factory=list)  # the game log lines this change added
    # Who moves next once this is saved: "person", "computer" (the scheduler will move and
    # deliver), or "" (lobby, round over, game over): a caller can wait for the computers.
    next_up: str = ""
    # A finished lesson's [Play a real game]: the variant the platform starts against a
    # computer in this chat once this change is saved (bot/core/service.py).
    play_next: str | None = None

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
        self.log += other.log
        if other.revision is not None:
            self.revision = max(self.revision or 0, other.revision)
            self.refs = other.refs
            self.next_up = other.next_up
        return self
