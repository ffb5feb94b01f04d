"""GameState.to_dict and Record.to_dict copy their fields explicitly (dataclasses.asdict was
~60x slower): their output must stay exactly what asdict gave, on real games' states."""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict

import pytest
from random_player import decide
from tiers import sampled

from bot.core.record import Record, SeatInfo, SeatUI
from engine.rummy import (
    Commit,
    Draw,
    Finish,
    GameState,
    Hint,
    IllegalAction,
    Knock,
    NextRound,
    Pass,
    apply,
    get_rulebook,
    new_game,
)
from engine.rummy.state import _tokens

RULEBOOKS = ["manipulation", "machiavelli", "shanghai", "guadeloupe", "carousel", "vatican",
             "tahiti"]


def asdict_state(state: GameState) -> dict:
    """GameState.to_dict as it was, with dataclasses.asdict (the reference)."""
    data = asdict(state)
    data["stock"] = _tokens(state.stock)
    data["hands"] = [_tokens(h) for h in state.hands]
    data["table"] = [_tokens(g) for g in state.table]
    data["singles"] = _tokens(state.singles)
    data["draft"] = (
        None
        if state.draft is None
        else {
            "groups": [_tokens(g) for g in state.draft.groups],
            "loose": _tokens(state.draft.loose),
            "singles": _tokens(state.draft.singles),
        }
    )
    return data


def same(new: dict, old: dict) -> None:
    assert new == old
    assert list(new) == list(old)  # the key order too: the JSON text is identical
    assert json.dumps(new) == json.dumps(old)


def states(name: str, seats: int, seed: int, limit: int) -> list[GameState]:
    """Every state of a seeded random game (drafts, hints, rounds, the result included)."""
    rules = get_rulebook(name)
    rng = random.Random(seed)
    state = new_game(rules, seats, seed)
    seen = [state]
    while state.phase != "game_over" and len(seen) < limit:
        if state.phase == "round_over":
            batch = [Finish(0) if rules.length == "open" else NextRound(0)]
        else:
            batch = ([Hint(state.turn)] if rng.random() < 0.1 else []) + decide(state, rng)
        turn = state.turn
        for action in batch:
            if state.phase != "play" and not isinstance(action, (NextRound, Finish)):
                break
            if state.phase == "play" and state.turn != turn:
                break
            try:
                state, _ = apply(state, action)
            except IllegalAction:
                if isinstance(action, (Commit, Knock, Draw, Pass, NextRound, Finish)):
                    raise
                continue
            seen.append(state)
    return seen


@pytest.mark.parametrize("name", sampled(RULEBOOKS, keep={"manipulation"}))
def test_state_to_dict_is_what_asdict_gave(name: str):
    seen = states(name, 3, seed=7, limit=400)
    assert any(s.draft is not None for s in seen)
    for state in seen:
        data = state.to_dict()
        same(data, asdict_state(state))
        again = GameState.from_dict(json.loads(json.dumps(data)))
        assert again == state
        same(again.to_dict(), data)


def test_state_to_dict_does_not_share_lists_with_the_state():
    state = states("manipulation", 2, seed=3, limit=60)[-1]
    data = state.to_dict()
    data["scores"].append(1)
    data["actions"].append({})
    data["options"]["x"] = 1
    assert state.to_dict() == asdict_state(state)


def saved_fields(record: Record) -> dict:
    """asdict of the record without what is never saved (`added`: this change's log lines;
    `refolded`: whether the first of them says the log's last line again); the log in other
    languages only when a seat reads one (a one-language game's record is as it was)."""
    data = asdict(record)
    del data["added"], data["refolded"]
    if not data["log_in"]:
        del data["log_in"]
    return data


def test_record_to_dict_is_what_asdict_gave():
    state = states("tahiti", 3, seed=5, limit=120)[-1]
    record = Record(
        rulebook="tahiti",
        options=dict(state.options),
        host="11",
        seats=[SeatInfo("Alice", "11", 1), SeatInfo("Computer 1", None, None, "hard", 2, True),
               SeatInfo("Bob", "12", 3, None, 1)],
        state=state.to_dict(),
        ui={"0": SeatUI(["7H", "8H"], "joker", "rank", 1, "hi",
                        {"joker_group": 2, "joker_options": [["7H", "8H"], ["9S"]]}),
            "2": SeatUI()},
        turn_seconds=90,
        deadline=1234.5,
        warned=True,
        log=["a", "b"],
        ended=True,
        seed=42,
        lesson={"progress": {"lesson": "tahiti"}, "ver": 3},
    )
    for log_in in ({}, {"ru": ["а", "б"]}):
        record.log_in = log_in
        data = record.to_dict()
        same(data, saved_fields(record))
        again = Record.from_dict(json.loads(json.dumps(data)))
        assert again == record
        same(again.to_dict(), data)
    assert "log_in" in data
    same(Record().to_dict(), saved_fields(Record()))


def test_record_from_dict_does_not_share_what_the_core_changes_in_place():
    """The core changes selections, options and the log of a loaded record in place; the
    loaded row must not change with them (a press that changes nothing is not saved)."""
    stored = Record(seats=[SeatInfo("Alice", "11")],
                    ui={"0": SeatUI(["7H"], game={"options": [["8S"]]})}, log=["x"]).to_dict()
    snapshot = json.loads(json.dumps(stored))
    record = Record.from_dict(stored)
    record.ended = True
    record.ui["0"].selected.append("8H")
    record.ui["0"].game["options"].append(["9S"])
    record.ui["0"].game["options"][0].append("9S")
    record.options["x"] = 1
    record.log.append("y")
    assert stored == snapshot


def test_a_record_saved_before_the_games_own_seat_ui_loads():
    """Records saved before issue 43 kept rummy's joker question in SeatUI's own fields
    (joker_group, joker_options), the sort "suit" by default, and had no game_name when all
    were rummy's: they load, the fields the platform does not know go to the game's own
    value, and the rummy wing reads them there."""
    from bot.core.unit import Unit
    from bot.games import default_games
    from bot.games.rummy.records import SeatAsk

    saved = {"rulebook": "manipulation", "seats": [{"name": "Ann", "user": "1"}],
             "ui": {"0": {"selected": ["7H"], "mode": "joker", "sort": "suit", "page": 1,
                          "notice": "", "joker_group": 2, "joker_options": [["9C"], ["9D"]]},
                    "1": {"selected": [], "mode": "main", "sort": "rank", "page": 0,
                          "notice": "", "joker_group": None, "joker_options": []}}}
    record = Record.from_dict(saved)
    ui = record.ui["0"]
    assert (ui.selected, ui.mode, ui.sort, ui.page) == (["7H"], "joker", "suit", 1)
    assert SeatAsk.of(ui) == SeatAsk(None, 2, [["9C"], ["9D"]])
    assert SeatAsk.of(record.ui["1"]) == SeatAsk() and record.ui["1"].sort == "rank"
    again = Record.from_dict(json.loads(json.dumps(record.to_dict())))
    assert again == record and "joker_group" not in again.to_dict()["ui"]["0"]
    unit = Unit(None, default_games(), lambda: 0.0, lambda *_: None)
    assert record.game_name == "" and unit.game_of(record).name == "rummy"


def test_to_dict_is_much_faster_than_asdict():
    """Every press saves the whole record: its conversion must not be the slow part."""
    state = states("manipulation", 3, seed=11, limit=200)[-1]
    record = Record(seats=[SeatInfo("A", "1"), SeatInfo("B", "2")], ui={"0": SeatUI(["7H"])},
                    state=state.to_dict(), log=["x"] * 20)

    def best(fn) -> float:
        times = []
        for _ in range(7):
            t0 = time.perf_counter()
            for _ in range(20):
                fn()
            times.append(time.perf_counter() - t0)
        return min(times)

    assert best(state.to_dict) * 5 < best(lambda: asdict_state(state))
    assert best(record.to_dict) * 5 < best(lambda: asdict(record))


def test_a_record_a_newer_release_saved_loads_without_its_new_keys():
    """A rolling deploy: a worker of this release reads what a newer one saved (a key of the
    record or of a seat it doesn't know) and plays on; it saves the record without them."""
    data = Record(seats=[SeatInfo("Alice", "11", lang="he")], log=["x"]).to_dict()
    data["seats"][0]["avatar"] = "🦊"
    data["table_theme"] = "felt"
    record = Record.from_dict(data)
    assert record.seats[0].name == "Alice" and record.seats[0].lang == "he"
    assert record.log == ["x"]
    assert "table_theme" not in record.to_dict() and "avatar" not in record.to_dict()["seats"][0]
