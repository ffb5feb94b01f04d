"""engine/rummy/playout.py: the one playout loop (rummy simulate, bench/same_games.py,
bench/rows.py)."""

from __future__ import annotations

from bot.simulate import play_one
from engine.rummy import Draw, get_rulebook
from engine.rummy.playout import play_game


def test_a_whole_game_with_every_action_seen():
    seen = []
    record = play_game(get_rulebook("guadeloupe"), ["hard", "easy"], 5,
                       on_action=lambda before, action, after: seen.append(action.kind))
    assert record.state.phase == "game_over" and record.violations == []
    assert len(seen) == record.actions == len(record.state.actions)
    assert record.winners == record.state.result["winners"]


def test_the_chooser_decides_and_a_refusal_ends_the_playout():
    levels = []

    def always_draw(view, level):
        levels.append(level)
        return Draw(1 - view.seat)  # the wrong seat: refused

    record = play_game(get_rulebook("machiavelli"), ["easy", "medium"], 1, choose=always_draw)
    assert levels == ["easy"] and record.actions == 0
    assert record.violations == ["round 1: seat 1 draw: It's not your turn"]


def test_rummy_simulate_plays_through_it():
    result = play_one(get_rulebook("carousel"), ["easy", "medium"], 1, 7)
    record = play_game(get_rulebook("carousel"), ["medium", "easy"], 7)  # game 1: seats shifted
    assert (result.actions, result.turns, result.rounds) == (
        record.actions, record.turns, record.state.round)
    assert result.violations == record.violations == []
