"""One conformance test over every registered game, through the one game contract alone
(engine/contract.py): each game's own trials (settings, seat counts, computer levels) played
to the end from a seed, the computer's choices mixed with random picks of the listed legal
actions. After every action: the game's invariants (every piece in one place), no seat's and
no spectator's view naming a hidden piece, every listed legal action accepted, and an action by
a seat not on move refused with the one error, changing nothing. At the end: progress (within
a bound), a result, replay from seed + actions to the identical state, and JSON save/load
round trips. The planted-failure tests below show each check fires.

The per-game conformance tests (test_conformance.py, test_buildten_conformance.py) stay: they
check the bot's screens too."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bot.games import default_games
from engine.contract import GameRules, IllegalAction, Trial

GAMES: dict[str, GameRules] = {name: game.rules for name, game in default_games().items()}
CASES = [(name, i) for name, rules in GAMES.items() for i in range(len(rules.trials))]
MAX_STEPS = 4000  # far above any real game: a playout that reaches it did not progress
RANDOM_SHARE = 0.25  # how often a seat plays a random listed legal action instead
SAVE_EVERY = 25  # the JSON round trip is checked at every 25th step (and at the end)
_SPLIT = re.compile(r"[\s,:;=()\[\]{}'\"]+")  # what separates piece tokens in a view's text


class PlayoutError(AssertionError):
    """A contract check failed."""


@dataclass
class Playout:
    state: Any
    actions: list[dict[str, Any]] = field(default_factory=list)  # as JSON, in order


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def view_leaks(rules: GameRules, state: Any, seats: int) -> list[str]:
    """Hidden pieces named in any seat's or the spectator's view (as JSON)."""
    errors = []
    for seat in [*range(seats), None]:
        text = rules.view_to_json(rules.player_view(state, seat))
        json.dumps(text)  # JSON-safe, or TypeError
        named = {t for s in _strings(text) for t in _SPLIT.split(s)}
        leaked = named & rules.hidden(state, seat)
        if leaked:
            errors.append(f"seat {seat} sees {sorted(leaked)[:5]}")
    return errors


def _round_trip(rules: GameRules, state: Any) -> list[str]:
    saved = json.dumps(rules.state_to_json(state), sort_keys=True)
    loaded = rules.state_from_json(json.loads(saved))
    again = json.dumps(rules.state_to_json(loaded), sort_keys=True)
    return [] if again == saved else ["the state changed in a JSON save/load"]


def _refused_alike(rules: GameRules, state: Any, action: Any) -> list[str]:
    """`action` (by a seat not on move, or after the end) must raise IllegalAction and
    leave `state` as it was."""
    before = json.dumps(rules.state_to_json(state), sort_keys=True)
    try:
        rules.apply(state, action)
    except IllegalAction:
        pass
    except Exception as error:  # any other error is a broken contract
        return [f"{action} raised {type(error).__name__}, not IllegalAction"]
    else:
        return [f"{action} was accepted"]
    after = json.dumps(rules.state_to_json(state), sort_keys=True)
    return [] if after == before else [f"the refused {action} changed the state"]


def _as_other_seat(rules: GameRules, action: Any, seat: int, seats: int) -> Any:
    data = rules.action_to_json(action)
    return rules.action_from_json({**data, "seat": (seat + 1) % seats})


def play(rules: GameRules, trial: Trial, seed: int, *, max_steps: int = MAX_STEPS,
         partial: bool = False) -> Playout:
    """A seeded playout to the end, every check after every action; PlayoutError on the
    first broken one (`partial`: the game so far after `max_steps` is no error)."""
    rng = random.Random(seed)
    levels = trial.levels or (rules.levels[0],) * trial.seats
    game = Playout(rules.new_game(trial.settings, trial.seats, seed))

    def check(problems: list[str], after: str) -> None:
        if problems:
            raise PlayoutError(f"{rules.name} {trial} seed {seed} after {after}: {problems}")

    dealt = game.state
    check(rules.invariant_errors(dealt) + view_leaks(rules, dealt, trial.seats), "the deal")
    for step in range(max_steps):
        state = game.state
        if rules.result(state) is not None:
            check(_round_trip(rules, state), "the end")
            return game
        seat = rules.to_move(state)
        movers = [seat] if seat is not None else [
            s for s in range(trial.seats) if rules.legal_actions(state, s)]
        check([] if movers else ["nobody can move in an unfinished game"], f"step {step}")
        seat = movers[0]
        legal = list(rules.legal_actions(state, seat))
        for action in legal:  # every listed action is one apply accepts
            try:
                rules.apply(state, action)
            except IllegalAction as error:
                check([f"listed {action} refused: {error}"], f"step {step}")
        if legal and rng.random() < RANDOM_SHARE:
            action = rng.choice(legal)
        else:
            action = rules.choose_action(rules.player_view(state, seat), levels[seat])
        data = rules.action_to_json(action)
        check([] if rules.action_from_json(json.loads(json.dumps(data))) == action
              else [f"{action} changed in a JSON round trip"], f"step {step}")
        if rules.to_move(state) is not None:
            other = _as_other_seat(rules, action, seat, trial.seats)
            check(_refused_alike(rules, state, other), f"step {step}")
        game.state, _events = rules.apply(state, action)
        game.actions.append(data)
        problems = rules.invariant_errors(game.state) + view_leaks(rules, game.state, trial.seats)
        if step % SAVE_EVERY == 0:
            problems += _round_trip(rules, game.state)
        check(problems, f"{action} (step {step})")
    if partial:
        return game
    raise PlayoutError(f"{rules.name} {trial} seed {seed}: no end after {max_steps} actions")


def replay(rules: GameRules, trial: Trial, seed: int, actions: list[dict[str, Any]]) -> Any:
    state = rules.new_game(trial.settings, trial.seats, seed)
    for data in actions:
        state, _events = rules.apply(state, rules.action_from_json(data))
    return state


def _same(rules: GameRules, a: Any, b: Any) -> bool:
    dump = json.dumps
    return dump(rules.state_to_json(a), sort_keys=True) == dump(rules.state_to_json(b),
                                                                sort_keys=True)


@pytest.mark.parametrize(("name", "trial"), CASES, ids=[f"{n}-{i}" for n, i in CASES])
def test_every_game_plays_to_the_end_under_the_contract(name: str, trial: int):
    rules = GAMES[name]
    case = rules.trials[trial]
    seed = 100 + trial
    game = play(rules, case, seed)
    result = rules.result(game.state)
    assert result is not None and result.winners
    assert len(result.totals) == case.seats and set(result.winners) <= set(range(case.seats))
    assert rules.to_move(game.state) is None
    assert _same(rules, replay(rules, case, seed, game.actions), game.state)
    # over: the last move again is refused alike
    assert not _refused_alike(rules, game.state, rules.action_from_json(game.actions[-1]))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_declares_what_the_platform_needs(name: str):
    rules = GAMES[name]
    assert rules.trials and rules.variants and rules.levels
    assert 2 <= rules.min_seats <= rules.max_seats
    for spec in rules.variants:
        assert set(spec.defaults) == set(spec.options)
        assert all(spec.defaults[k] in spec.options[k] for k in spec.options)
    for case in rules.trials:
        assert rules.min_seats <= case.seats <= rules.max_seats
        assert all(level in rules.levels for level in case.levels)
    with pytest.raises(ValueError):
        rules.new_game(rules.trials[0].settings, rules.max_seats + 1, 1)


# -- planted failures: each check above fires -------------------------------------------------


class Planted:
    """A game's rules with one thing broken (the rest passed through)."""

    def __init__(self, rules: GameRules, **broken: Any) -> None:
        self._rules = rules
        self.__dict__.update(broken)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rules, name)


def _short(name: str) -> tuple[GameRules, Trial]:
    rules = GAMES[name]
    return rules, rules.trials[0]


def _drop_piece(data: Any, token: str) -> bool:
    """Remove one `token` from the lists of a state's JSON (a lost piece)."""
    if isinstance(data, list):
        if token in data:
            data.remove(token)
            return True
        return any(_drop_piece(v, token) for v in data)
    if isinstance(data, dict):
        return any(_drop_piece(v, token) for v in data.values())
    return False


@pytest.mark.parametrize("name", sorted(GAMES))
def test_planted_a_lost_piece_breaks_the_invariants(name: str):
    rules, case = _short(name)
    state = rules.new_game(case.settings, case.seats, 1)
    data = rules.state_to_json(state)
    assert _drop_piece(data, sorted(rules.hidden(state, 0))[0])
    assert rules.invariant_errors(rules.state_from_json(data))

    def losing(state: Any, action: Any) -> tuple[Any, list]:
        new, events = rules.apply(state, action)
        data = rules.state_to_json(new)
        _drop_piece(data, sorted(rules.hidden(new, None))[0])
        return rules.state_from_json(data), events

    with pytest.raises(PlayoutError, match="after"):
        play(Planted(rules, apply=losing), case, 1)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_planted_a_view_of_another_seat_is_a_leak(name: str):
    rules, case = _short(name)

    def peeking(state: Any, seat: int | None) -> Any:
        return rules.player_view(state, ((seat or 0) + 1) % case.seats)

    with pytest.raises(PlayoutError, match="sees"):
        play(Planted(rules, player_view=peeking), case, 1)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_planted_an_action_out_of_turn_accepted_is_caught(name: str):
    rules, case = _short(name)

    def lenient(state: Any, action: Any) -> tuple[Any, list]:
        seat = rules.to_move(state)
        data = rules.action_to_json(action)
        if seat is not None and data["seat"] != seat:
            action = rules.action_from_json({**data, "seat": seat})
        return rules.apply(state, action)

    with pytest.raises(PlayoutError, match="was accepted"):
        play(Planted(rules, apply=lenient), case, 1)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_planted_a_lossy_save_is_caught(name: str):
    rules, case = _short(name)

    def forgetful(data: Any) -> Any:  # loads a fresh deal, whatever was saved
        return rules.new_game(case.settings, case.seats, 1)

    with pytest.raises(PlayoutError, match="save/load"):
        play(Planted(rules, state_from_json=forgetful), case, 1)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_planted_no_progress_and_a_wrong_replay_are_caught(name: str):
    rules, case = _short(name)
    with pytest.raises(PlayoutError, match="no end after 3 actions"):
        play(rules, case, 1, max_steps=3)
    game = play(rules, case, 1, max_steps=20, partial=True)
    assert _same(rules, replay(rules, case, 1, game.actions), game.state)
    assert not _same(rules, replay(rules, case, 1, game.actions[:-1]), game.state)
