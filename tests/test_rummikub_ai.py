"""Rummikub's computer players: every level finishes seeded games without a violation, and
`hard` plans (it holds a lay back early, and lays once the pressure is on)."""

from __future__ import annotations

import pytest

from engine.rummy import Commit, Draw, get_rulebook, parse_cards, player_view, start_position
from engine.rummy.ai import choose_action
from engine.rummy.playout import play_game

RK = get_rulebook("rummikub")


def T(text: str):
    return parse_cards(text, RK)


@pytest.mark.parametrize("levels", [["easy", "medium"], ["hard", "medium"],
                                    ["hard", "easy", "medium"], ["hard", "medium", "medium",
                                                                 "medium"]])
def test_levels_finish_games_without_violations(levels):
    for seed in range(3):
        record = play_game(RK, levels, seed=seed)
        assert record.violations == [] and record.state.result is not None


def _position(other_rack: str, stock: int):
    hand = T("10R 11R 12R 5B 7K 9O")
    pool = T(" ".join(f"{n}K" for n in range(1, 1 + stock)))
    return start_position(RK, [hand, T(other_rack)], stock=pool, first_lay_done=False)


def test_hard_holds_the_initial_meld_back_early_and_medium_lays_it():
    state = _position("1B 2B 3B 4B 5O 6O 7O 8O", stock=12)
    view = player_view(state, 0)
    assert isinstance(choose_action(view, "medium"), Commit)
    assert isinstance(choose_action(view, "hard"), Draw)


@pytest.mark.parametrize("other, stock", [("1B 2B", 12), ("1B 2B 3B 4B 5O 6O 7O 8O", 9)])
def test_hard_lays_when_another_rack_is_nearly_out_or_the_pool_runs_low(other, stock):
    view = player_view(_position(other, stock), 0)
    assert isinstance(choose_action(view, "hard"), Commit)


def test_hard_goes_out_whenever_it_can():
    state = start_position(RK, [T("10R 11R 12R 13R"), T("1B 2B 3B 4B 5O 6O 7O 8O")],
                           stock=T("1K 2K 3K 4K 5K 6K 7K 8K 9K 10K 11K 12K"),
                           first_lay_done=False)
    action = choose_action(player_view(state, 0), "hard")
    assert isinstance(action, Commit) and len(action.arrangement[0]) == 4


@pytest.mark.parametrize("options", [{"wrap": "on", "initial_turn": "may_add"},
                                     {"rounds": 3, "initial_meld": 20, "failed_move": "draw_1"}])
def test_every_level_under_the_options(options):
    rules = get_rulebook("rummikub", **options)
    record = play_game(rules, ["easy", "medium", "hard"], seed=5)
    assert record.violations == [] and record.state.result is not None
