"""Whole games between computer seats, with the invariants checked after every action: the one
playout loop (`rummy simulate`, bench/same_games.py and bench/rows.py play through it).

    record = play_game(get_rulebook("carousel"), ["hard", "easy"], seed=1)
    record.state.result, record.turns, record.violations

Pure: the caller passes `choose` to time the decisions if it wants (the engine has no clock).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .actions import Action, Finish, IllegalAction, NextRound
from .game import PlayerView, apply, new_game, player_view
from .melds import is_meld
from .rulebooks import Rulebook
from .state import GameState, conservation_errors

MAX_ACTIONS = 20_000
SHANGHAI_ROUNDS = 3  # Shanghai has no fixed end: simulated players finish after this many

Chooser = Callable[[PlayerView, str], Action]  # (the seat's view, its level) -> its action
OnAction = Callable[[GameState, Action, GameState], None]  # (before, action, after)


def table_errors(state: GameState) -> list[str]:
    """Groups on the table that are no meld under the rulebook, or hold a free joker."""
    rules = state.rules
    errors = []
    for i, group in enumerate(state.table):
        if not is_meld(rules, group):
            errors.append(f"invalid group {i}: {' '.join(map(str, group))}")
        if any(c.is_joker and not c.designated for c in group):
            errors.append(f"undesignated joker in group {i}")
    return errors


@dataclass
class GameRecord:
    """How a played game went: its last state, actions and turns played, what went wrong."""

    state: GameState
    actions: int = 0
    turns: int = 0  # the seat on turn (or the round) changed this often
    violations: list[str] = field(default_factory=list)

    @property
    def winners(self) -> list[int]:
        return list(self.state.result["winners"]) if self.state.result else []


def _choose_action(view: PlayerView, level: str) -> Action:
    from .ai import choose_action  # the computer players import the game: import late

    return choose_action(view, level)


def play_game(
    rulebook: Rulebook,
    levels: Sequence[str],
    seed: int,
    *,
    choose: Chooser | None = None,
    check: bool = True,
    on_action: OnAction | None = None,
    max_actions: int = MAX_ACTIONS,
) -> GameRecord:
    """Play `new_game(rulebook, len(levels), seed)` to its end, seat i at computer level
    `levels[i]` (`choose`, default engine.rummy.ai.choose_action). Between rounds seat 0 starts the
    next one; a game its players end by choice (Shanghai) is finished after SHANGHAI_ROUNDS.
    With `check`, cards conserved and a valid table after every action; a refused action or a
    broken invariant is recorded and ends the playout, as does `max_actions`."""
    choose = choose or _choose_action
    state = new_game(rulebook, len(levels), seed)
    record = GameRecord(state)
    while state.phase != "game_over":
        if record.actions >= max_actions:
            record.violations.append(f"no end after {max_actions} actions")
            break
        if state.phase == "round_over":
            done = rulebook.game_end.finish_by_choice and state.round >= SHANGHAI_ROUNDS
            action: Action = Finish(0) if done else NextRound(0)
        else:
            action = choose(player_view(state, state.turn), levels[state.turn])
        try:
            new_state, _ = apply(state, action)
        except IllegalAction as error:
            record.violations.append(
                f"round {state.round}: seat {action.seat} {action.kind}: {error}"
            )
            break
        if check:
            problems = conservation_errors(new_state) + table_errors(new_state)
            record.violations += [f"after {action.kind}: {p}" for p in problems]
        if on_action:
            on_action(state, action, new_state)
        if new_state.turn != state.turn or new_state.round != state.round:
            record.turns += 1
        state = new_state
        record.actions += 1
        if record.violations:
            break
    record.state = state
    return record
