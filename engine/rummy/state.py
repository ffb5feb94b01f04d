"""The game state: plain data that round-trips through JSON, and the card-conservation check."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from engine.cards import Card, make_deck

from .rulebooks import Rulebook, get_rulebook
from .tiles import Tile, piece_from_token

Groups = list[list[Card]]


@dataclass
class Draft:
    """A seat's private copy of the table during its turn (RULES.md §1)."""

    groups: Groups
    loose: list[Card] = field(default_factory=list)  # table cards taken out, not yet placed
    singles: list[Card] = field(default_factory=list)  # Tahiti singles not yet used

    def cards(self) -> list[Card]:
        return [c for g in self.groups for c in g] + self.loose + self.singles


@dataclass
class GameState:
    rulebook: str
    options: dict[str, Any]
    players: int
    seed: int
    round: int = 1
    phase: str = "play"  # play | round_over | game_over
    turn: int = 0
    stock: list[Card] = field(default_factory=list)  # the top of the stock is the end
    hands: list[list[Card]] = field(default_factory=list)
    table: Groups = field(default_factory=list)
    singles: list[Card] = field(default_factory=list)  # Tahiti: unused face-up singles
    draft: Draft | None = None  # the current seat's working copy
    draws: int = 0  # cards drawn this turn
    reminded: bool = False  # must-lay reminder shown for this Draw/Pass tap
    give_up_armed: bool = False
    passes: int = 0  # consecutive passes with nobody laying in between
    first_lay_done: list[bool] = field(default_factory=list)
    final_turns: int | None = None  # Carousel: turns left after the stock ran out
    last_drawer: int | None = None  # Carousel: who drew the stock's last card (recorded only)
    # {"seat", "card", "placed", "lay", "groups", "singles", "rearrange"} (game._find_hint)
    hint: dict[str, Any] | None = None
    last: dict[str, Any] | None = None  # the last move, for the table caption
    scores: list[int] = field(default_factory=list)
    rounds: list[dict[str, Any]] = field(default_factory=list)  # per round: points, winners, how
    round_wins: list[int] = field(default_factory=list)
    result: dict[str, Any] | None = None  # game over: {"winners", "totals", "draw"}
    version: int = 0
    actions: list[dict[str, Any]] = field(default_factory=list)

    @property
    def rules(self) -> Rulebook:
        return get_rulebook(self.rulebook, **self.options)

    def copy(self) -> GameState:
        """An independent copy. Cards are immutable, so lists are copied, not their cards; the
        dicts kept here (hint, last, rounds, actions) are replaced, never changed in place."""
        draft = self.draft
        return replace(
            self,
            options=dict(self.options),
            stock=list(self.stock),
            hands=[list(h) for h in self.hands],
            table=[list(g) for g in self.table],
            singles=list(self.singles),
            draft=None if draft is None else Draft(
                [list(g) for g in draft.groups], list(draft.loose), list(draft.singles)),
            first_lay_done=list(self.first_lay_done),
            scores=list(self.scores),
            rounds=list(self.rounds),
            round_wins=list(self.round_wins),
            actions=list(self.actions),
        )

    # -- serialisation -------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data (field by field: dataclasses.asdict was ~60x slower). The
        dicts inside (hint, last, rounds, actions, result) are shared: never changed in place."""
        draft = self.draft
        return {
            "rulebook": self.rulebook,
            "options": dict(self.options),
            "players": self.players,
            "seed": self.seed,
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "stock": _tokens(self.stock),
            "hands": [_tokens(h) for h in self.hands],
            "table": [_tokens(g) for g in self.table],
            "singles": _tokens(self.singles),
            "draft": None
            if draft is None
            else {
                "groups": [_tokens(g) for g in draft.groups],
                "loose": _tokens(draft.loose),
                "singles": _tokens(draft.singles),
            },
            "draws": self.draws,
            "reminded": self.reminded,
            "give_up_armed": self.give_up_armed,
            "passes": self.passes,
            "first_lay_done": list(self.first_lay_done),
            "final_turns": self.final_turns,
            "last_drawer": self.last_drawer,
            "hint": self.hint,
            "last": self.last,
            "scores": list(self.scores),
            "rounds": list(self.rounds),
            "round_wins": list(self.round_wins),
            "result": self.result,
            "version": self.version,
            "actions": list(self.actions),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        data = dict(data)
        data["stock"] = _cards(data["stock"])
        data["hands"] = [_cards(h) for h in data["hands"]]
        data["table"] = [_cards(g) for g in data["table"]]
        data["singles"] = _cards(data["singles"])
        if data.get("draft") is not None:
            d = data["draft"]
            data["draft"] = Draft(
                [_cards(g) for g in d["groups"]], _cards(d["loose"]), _cards(d["singles"])
            )
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> GameState:
        return cls.from_dict(json.loads(text))


def _tokens(cards: list[Card]) -> list[str]:
    return [c.token for c in cards]


def _cards(tokens: list[str]) -> list[Card]:
    return [piece_from_token(t) for t in tokens]


@cache
def _full_deck(decks: int, jokers: int) -> Counter:
    """Every physical card of the game once (never changed: compared only)."""
    return Counter(c.ident for c in make_deck(decks, jokers))


def conservation_errors(state: GameState) -> list[str]:
    """Every card is in exactly one place (stock, a hand, the table, Tahiti's singles), and the
    draft holds exactly the table plus some of the current seat's hand."""
    rules = state.rules
    expected = _full_deck(*rules.deck_for(state.players))
    places: list[Card] = list(state.stock) + list(state.singles)
    for hand in state.hands:
        places += hand
    for group in state.table:
        places += group
    found = Counter(c.ident for c in places)
    errors = []
    if rules.tiles and not all(isinstance(c, Tile) for c in places):
        errors.append("a card (not a tile) in a tile game")
    if found != expected:  # (checked after every action of every simulated game)
        for ident in expected | found:
            if found[ident] != expected[ident]:
                errors.append(
                    f"card {ident} found {found[ident]} times, expected {expected[ident]}"
                )
    if state.draft is not None:
        mine = {c.ident for c in state.hands[state.turn]}
        base = Counter(c.ident for c in [c for g in state.table for c in g] + state.singles)
        draft = Counter(c.ident for c in state.draft.cards())
        extra = draft - base
        if base - draft:
            errors.append("the draft lost table cards")
        if any(ident not in mine or n > 1 for ident, n in extra.items()):
            errors.append("the draft holds cards that are not in the seat's hand")
    return errors
