"""The hint on a seat's private screen, for every rulebook: 💡 Hint and a must-lay reminder say
the hint once (reported: it showed twice, as the hint and again as the notice)."""

from __future__ import annotations

import pytest

from bot.core.buttons import parse
from bot.core.hosting import Table
from bot.core.record import Record, SeatInfo
from bot.games.rummy import RummyGame, screens
from engine import ALL_RULEBOOKS, GameState


def _my_turn(rulebook: str) -> tuple[RummyGame, Table]:
    """A started game of `rulebook` with a person (seat 0) on turn and a hint to give."""
    game = RummyGame()
    for seed in range(1, 40):
        record = Record(rulebook=rulebook, host="u0", seed=seed,
                        seats=[SeatInfo("Ada", "u0"), SeatInfo("Computer 1", None, None, "easy")])
        table = Table(1, record, lambda: 1000.0)
        game.start(table)
        while (state := GameState.from_dict(record.state)).turn != 0 and state.phase == "play":
            game.computer_step(table)
        _press(game, table, "hint")
        if GameState.from_dict(record.state).hint:
            return game, table
    pytest.fail(f"no deal of {rulebook} with a hint for seat 0")


def _press(game: RummyGame, table: Table, action: str) -> None:
    press = parse(f"1:{GameState.from_dict(table.record.state).version}:{action}")
    assert press is not None, action
    game.press(table, 0, "u0", press)


def _private_text(table: Table) -> str:
    state = GameState.from_dict(table.record.state)
    return screens.private_screen(1, table.record, state, 0).text


@pytest.mark.parametrize("rulebook", sorted(ALL_RULEBOOKS))
def test_the_hint_shows_once_on_the_private_screen(rulebook):
    game, table = _my_turn(rulebook)
    text = _private_text(table)
    assert text.count("💡") == 1, text
    assert "💡" in table.record.seat_ui(0).notice  # the answer to the press (Screen.notice)
    # the next press clears the notice; the hint stays (the picture outlines its groups)
    card = GameState.from_dict(table.record.state).hands[0][0]
    _press(game, table, f"s1:{card.token}")
    assert _private_text(table).count("💡") == 1
    if table.record.rules.remind:  # must-lay: Draw reminds with the hint inside the notice
        _press(game, table, "draw")
        assert "💡" in table.record.seat_ui(0).notice
        assert _private_text(table).count("💡") == 1
