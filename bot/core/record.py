"""The game record the core keeps in the store: settings, seats, engine state, per-seat UI state.

Plain JSON-safe data (the store saves it as one JSON document with a version for optimistic
concurrency), so any worker can serve any update and a restart loses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    """What one seat's private message shows besides the game: selection, mode, sort, page."""

    selected: list[str] = field(default_factory=list)  # Card tokens
    mode: str = "main"  # main | add | take | take:<group> | joker
    sort: str = "suit"
    page: int = 0
    notice: str = ""  # one line for the next private screen (an error, a hint…)
    joker_group: int | None = None
    joker_options: list[list[str]] = field(default_factory=list)


@dataclass
class Record:
    rulebook: str = "manipulation"  # the game's variant (a rummy rulebook)
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
    game_name: str = "rummy"  # which hosted game (bot/games): older records are all rummy
    lang: str = ""  # the group's language (the host's at /newgame, or the chat's /language)
    rematch: int | None = None  # the game this one's Rematch started (its pages follow it)
    # ↻ Rematch called, the new game not started yet: {"in": [user ids confirmed], "until":
    # epoch s the call lapses, "lapsed": bool} (bot/core/rematch.py); None: never called
    rematch_call: dict[str, Any] | None = None
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
                    "joker_group": u.joker_group,
                    "joker_options": [list(o) for o in u.joker_options],
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
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """A record independent of `data` in all the core changes in place (so `data` stays
        what was loaded, and an unchanged record compares equal to it)."""
        data = dict(data)
        data["options"] = dict(data.get("options", {}))
        data["seats"] = [SeatInfo(**s) for s in data.get("seats", [])]
        data["ui"] = {
            k: SeatUI(
                **{
                    **v,
                    "selected": list(v.get("selected", [])),
                    "joker_options": [list(o) for o in v.get("joker_options", [])],
                }
            )
            for k, v in data.get("ui", {}).items()
        }
        data["log"] = list(data.get("log", []))
        call = data.get("rematch_call")
        if call is not None:  # its own copy: a change of the record leaves the loaded one be
            data["rematch_call"] = {**call, "in": list(call.get("in", []))}
        refs = data.pop("refs", None)  # (a record of before migration 0007 moved them out)
        if isinstance(refs, dict) and refs.get("ended"):
            data["ended"] = True
        return cls(**data)

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

    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.is_computer]

    def add_log(self, line: str) -> None:
        self.log = [*self.log[-19:], line]
        self.added.append(line)

    def fold_log(self, line: str) -> None:
        """`line` in place of the log's newest line, which it says again with more (a seat's
        draws in one turn: "drew 13 cards", not thirteen lines of "drew 1 card")."""
        if not self.log:
            self.add_log(line)
            return
        self.log = [*self.log[:-1], line]
        if self.added:
            self.added[-1] = line  # added by this same change: nobody has seen it yet
        else:
            self.added.append(line)
            self.refolded = True
