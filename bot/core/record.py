"""The game record the core keeps in the store: settings, seats, engine state, per-seat UI state.

Plain JSON-safe data (the store saves it as one JSON document with a version for optimistic
concurrency), so any worker can serve any update and a restart loses nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

DEFAULT_TURN_SECONDS = 180
TIMEOUTS_BEFORE_COMPUTER = 3


@dataclass
class SeatInfo:
    name: str
    user: str | None = None  # platform user id; None for a computer seat
    player_id: int | None = None
    computer: str | None = None  # level for a computer seat
    timeouts: int = 0  # turn timer expiries in a row
    was_human: bool = False  # a person's seat taken over by the computer
    lang: str = ""  # the language of this person's private screens ("" : the group's)

    @property
    def is_computer(self) -> bool:
        return self.computer is not None


@dataclass
class SeatUI:
    """What one seat's private message shows besides the game: selection, mode, sort, page;
    and the game's own per-seat value (`game`), which the platform stores and never reads."""

    selected: list[str] = field(default_factory=list)  # the game's piece tokens
    mode: str = "main"  # the game's word for what the screen asks; a new turn: "main"
    sort: str = ""  # the game's word for the hand's order ("": the game's first)
    page: int = 0
    notice: str = ""  # one line for the next private screen (an error, a hint…)
    game: dict[str, Any] = field(default_factory=dict)  # JSON-safe, the game's wing's own


# SeatUI's own keys: any other key of a saved seat's UI is the game's (records saved before
# `game` kept the game's per-seat fields beside these), and loads into `game`
_SEAT_UI_KEYS = frozenset({"selected", "mode", "sort", "page", "notice", "game"})


@dataclass
class Record:
    rulebook: str = ""  # the game's variant (its wing's name for it; "": the game's default)
    options: dict[str, Any] = field(default_factory=dict)
    host: str = ""  # user id of the creator
    seats: list[SeatInfo] = field(default_factory=list)
    state: dict[str, Any] | None = None  # engine GameState.to_dict(); None in the lobby
    ui: dict[str, SeatUI] = field(default_factory=dict)  # by seat number (as str, for JSON)
    turn_seconds: int = DEFAULT_TURN_SECONDS
    deadline: float | None = None  # wall clock (epoch s) when the current human turn times out
    warned: bool = False  # the half-time reminder was sent
    log: list[str] = field(default_factory=list)  # recent log lines (the caption shows the last)
    # the game was ended (closed, abandoned): its status stays "ended". Where its messages are
    # is no part of the record: the store's delivery refs (bot/store/delivery_refs.py)
    ended: bool = False
    seed: int = 0
    lesson: dict[str, Any] | None = None
    lobby_version: int = 0  # in the lobby's buttons: a stale lobby button can't act twice
    # which hosted game (bot/games); "": the registry's first (records saved before a second
    # game have none: they are all the first game's)
    game_name: str = ""
    lang: str = ""  # the group's language (the host's at /newgame, or the chat's /language)
    rematch: int | None = None  # the game this one's Rematch started (its pages follow it)
    # ↻ Rematch called, the new game not started yet: {"in": [user ids confirmed], "until":
    # epoch s the call lapses, "lapsed": bool} (bot/core/rematch.py); None: never called
    rematch_call: dict[str, Any] | None = None
    # the log's lines in each other language a seat reads, line for line (the web table shows a
    # reader the log in their own; the chats show the group's): saved only when there is one
    log_in: dict[str, list[str]] = field(default_factory=dict)
    # not saved: the log lines added since this record was loaded (the outcome carries them)
    added: list[str] = field(default_factory=list, compare=False, repr=False)
    # not saved: the first added line says again, with more, the line the log had last
    # (`fold_log`)
    refolded: bool = field(default=False, compare=False, repr=False)

    # -- conversions ----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (what dataclasses.asdict gave, built ~60x faster). The engine
        state and the lesson are shared, not copied: the core replaces them, never edits them."""
        return {
            "rulebook": self.rulebook,
            "options": dict(self.options),
            "host": self.host,
            "seats": [
                {
                    "name": s.name,
                    "user": s.user,
                    "player_id": s.player_id,
                    "computer": s.computer,
                    "timeouts": s.timeouts,
                    "was_human": s.was_human,
                    "lang": s.lang,
                }
                for s in self.seats
            ],
            "state": self.state,
            "ui": {
                k: {
                    "selected": list(u.selected),
                    "mode": u.mode,
                    "sort": u.sort,
                    "page": u.page,
                    "notice": u.notice,
                    "game": _copy(u.game),
                }
                for k, u in self.ui.items()
            },
            "turn_seconds": self.turn_seconds,
            "deadline": self.deadline,
            "warned": self.warned,
            "log": list(self.log),
            "ended": self.ended,
            "seed": self.seed,
            "lesson": self.lesson,
            "lobby_version": self.lobby_version,
            "game_name": self.game_name,
            "lang": self.lang,
            "rematch": self.rematch,
            "rematch_call": None if self.rematch_call is None else {
                **self.rematch_call, "in": list(self.rematch_call.get("in", []))},
        } | ({"log_in": {k: list(v) for k, v in self.log_in.items()}} if self.log_in else {})

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record independent of `data` in all the core changes in place (so `data` stays
        what was loaded, and an unchanged record compares equal to it)."""
        data = dict(data)
        data["options"] = dict(data.get("options", {}))
        data["seats"] = [SeatInfo(**{k: v for k, v in s.items() if k in _SEAT_KEYS})
                         for s in data.get("seats", [])]
        data["ui"] = {k: _seat_ui(v) for k, v in data.get("ui", {}).items()}
        data["log"] = list(data.get("log", []))
        data["log_in"] = {k: list(v) for k, v in data.get("log_in", {}).items()}
        call = data.get("rematch_call")
        if call is not None:  # its own copy: a change of the record leaves the loaded one be
            data["rematch_call"] = {**call, "in": list(call.get("in", []))}
        refs = data.pop("refs", None)  # (a record of before migration 0007 moved them out)
        if isinstance(refs, dict) and refs.get("ended"):
            data["ended"] = True
        # a key a newer release saves is left out here (a worker of this release in a rolling
        # deploy reads the record, and saves it without that key)
        return cls(**{k: v for k, v in data.items() if k in _SAVED})

    # -- helpers --------------------------------------------------------------------------

    def seat_of(self, user: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.user == user and not seat.is_computer:
                return i
        return None

    def seat_ui(self, seat: int) -> SeatUI:
        return self.ui.setdefault(str(seat), SeatUI())

    def lang_of(self, seat: int | None) -> str:
        """The language of a seat's private screens (the group's when it chose none)."""
        if seat is None or not 0 <= seat < len(self.seats):
            return self.lang
        return self.seats[seat].lang or self.lang

    def lang_of_user(self, user: str) -> str:
        seat = self.seat_of(user)
        return self.lang if seat is None else self.lang_of(seat)

    def log_for(self, lang: str) -> list[str]:
        """The log in `lang` where a seat reads it, else in the group's language."""
        return self.log_in.get(lang, self.log)

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_computer]

    def add_log(self, line: str, other: Mapping[str, str] | None = None) -> None:
        """`line` (in the group's language) at the end of the log; `other`: the same line in
        other languages seats read (bot/core/narrate.py `said_in`). A language new to the log
        takes the group's earlier lines; one `other` doesn't name, the group's line."""
        other = other or {}
        for lang in other:
            self.log_in.setdefault(lang, list(self.log))
        self.log = [*self.log[-19:], line]
        for lang, lines in self.log_in.items():
            self.log_in[lang] = [*lines[-19:], other.get(lang, line)]
        self.added.append(line)

    def add_logs(self, lines: Sequence[str], other: Mapping[str, Sequence[str]]) -> None:
        """`lines` one by one, each with its own line of each language in `other` (what
        `said_in` gives for a move's lines)."""
        for i, line in enumerate(lines):
            self.add_log(line, {lang: said[i] for lang, said in other.items()})

    def fold_log(self, line: str, other: Mapping[str, str] | None = None) -> None:
        """`line` in place of the log's newest line, which it says again with more (a seat's
        draws in one turn: "drew 13 cards", not thirteen lines of "drew 1 card")."""
        if not self.log:
            self.add_log(line, other)
            return
        self.log = [*self.log[:-1], line]
        for lang, lines in self.log_in.items():
            self.log_in[lang] = [*lines[:-1], (other or {}).get(lang, line)]
        if self.added:
            self.added[-1] = line  # added by this same change: nobody has seen it yet
        else:
            self.added.append(line)
            self.refolded = True


_SAVED = frozenset(f.name for f in fields(Record) if f.compare)  # (not `added`, `refolded`)
_SEAT_KEYS = frozenset(f.name for f in fields(SeatInfo))


def _copy(value: Any) -> Any:
    """A deep copy of JSON-safe data (lists and dicts copied, the rest shared: immutable)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _seat_ui(saved: dict[str, Any]) -> SeatUI:
    """A seat's UI as saved, its own copy; the keys that are not SeatUI's are the game's."""
    game = _copy(saved.get("game", {}))
    game.update({k: _copy(v) for k, v in saved.items() if k not in _SEAT_UI_KEYS})
    return SeatUI(
        selected=list(saved.get("selected", [])), mode=saved.get("mode", "main"),
        sort=saved.get("sort", ""), page=saved.get("page", 0), notice=saved.get("notice", ""),
        game=game,
    )
