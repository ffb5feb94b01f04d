"""Race: seats take turns adding 1…step to a running total; whoever brings it to the target
wins. The toy game's rules behind the one contract (engine/contract.py): pure, JSON-safe."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from engine.contract import IllegalAction, Result, Settings, Trial, VariantSpec, to_jsonable

TARGETS = {"ten": 10, "twenty": 20}
STEPS = (2, 3)
LEVELS = ("easy", "perfect")


@dataclass(frozen=True)
class Add:
    seat: int
    n: int


@dataclass(frozen=True)
class RaceState:
    target: int
    step: int
    seats: int
    total: int = 0
    turn: int = 0
    winner: int | None = None
    version: int = 0


@dataclass(frozen=True)
class RaceView:
    seat: int
    target: int
    step: int
    total: int
    turn: int
    winner: int | None
    version: int


class RaceRules:
    name = "race"
    min_seats, max_seats = 2, 4
    levels = LEVELS
    variants = tuple(VariantSpec(v, {"step": STEPS}, {"step": STEPS[0]}) for v in TARGETS)
    trials = (Trial(Settings("ten"), 2, ("easy", "perfect")),
              Trial(Settings("twenty", {"step": 3}), 3))

    def new_game(self, settings: Settings, seats: int, seed: int) -> RaceState:
        if settings.variant not in TARGETS or set(settings.options) - {"step"}:
            raise ValueError(f"no race {settings.variant!r} with {dict(settings.options)}")
        step = int(settings.options.get("step", STEPS[0]))
        if step not in STEPS or not self.min_seats <= seats <= self.max_seats:
            raise ValueError("step is 2 or 3, for 2 to 4 seats")
        return RaceState(TARGETS[settings.variant], step, seats, turn=seed % seats)

    def to_move(self, state: RaceState) -> int | None:
        return None if state.winner is not None else state.turn

    def legal_actions(self, state: RaceState, seat: int) -> Sequence[Add]:
        if self.to_move(state) != seat:
            return []
        return [Add(seat, n) for n in range(1, min(state.step, state.target - state.total) + 1)]

    def apply(self, state: RaceState, action: Add) -> tuple[RaceState, list[dict]]:
        if self.to_move(state) != action.seat:
            raise IllegalAction("It's not your turn.", code="not_your_turn", seat=action.seat)
        if not 1 <= action.n <= state.step:
            raise IllegalAction(f"Add 1 to {state.step}.", code="race_step", n=action.n)
        total = min(state.target, state.total + action.n)
        won = total == state.target
        new = replace(state, total=total, version=state.version + 1,
                      winner=action.seat if won else None,
                      turn=state.turn if won else (state.turn + 1) % state.seats)
        return new, [{"kind": "added", "seat": action.seat, "n": action.n, "total": total}]

    def player_view(self, state: RaceState, seat: int | None) -> RaceView:
        return RaceView(-1 if seat is None else seat, state.target, state.step, state.total,
                        state.turn, state.winner, state.version)

    def result(self, state: RaceState) -> Result | None:
        if state.winner is None:
            return None
        totals = tuple(int(i == state.winner) for i in range(state.seats))
        return Result(totals, (state.winner,), higher_is_better=True)

    def choose_action(self, view: RaceView, level: str) -> Add:
        left = view.target - view.total
        return Add(view.seat, (left % (view.step + 1)) or 1 if level == "perfect" else 1)

    def time_up(self, state: RaceState, seat: int) -> Add | None:
        return None

    def state_to_json(self, state: RaceState) -> dict[str, Any]:
        return asdict(state)

    def state_from_json(self, data: Mapping[str, Any]) -> RaceState:
        return RaceState(**data)

    def action_to_json(self, action: Add) -> dict[str, Any]:
        return asdict(action)

    def action_from_json(self, data: Mapping[str, Any]) -> Add:
        return Add(int(data["seat"]), int(data["n"]))

    def view_to_json(self, view: RaceView) -> Any:
        return to_jsonable(view)

    def invariant_errors(self, state: RaceState) -> list[str]:
        errors = []
        if not 0 <= state.total <= state.target:
            errors.append(f"total {state.total} outside 0…{state.target}")
        if (state.winner is not None) != (state.total == state.target):
            errors.append("a winner exactly when the target is reached")
        return errors

    def hidden(self, state: RaceState, seat: int | None) -> frozenset[str]:
        return frozenset()  # nothing is hidden in a race
