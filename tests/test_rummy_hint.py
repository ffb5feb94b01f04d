"""The hint on a seat's private screen, for every rulebook: 💡 Hint and a must-lay reminder say
the hint once (reported: it showed twice, as the hint and again as the notice)."""

from __future__ import annotations

import copy

import pytest

from bot.core.buttons import parse
from bot.core.hosting import Table
from bot.core.record import Record, SeatInfo
from bot.games.rummy import RummyGame, screens
from bot.games.rummy.records import rules_of
from engine.rummy import ALL_RULEBOOKS, GameState, legal_actions
from engine.rummy.tiles import piece_from_token


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
    if rules_of(table.record).remind:  # must-lay: Draw reminds with the hint inside the notice
        _press(game, table, "draw")
        assert "💡" in table.record.seat_ui(0).notice
        assert _private_text(table).count("💡") == 1


def _buttons(table: Table) -> dict[str, str]:
    state = GameState.from_dict(table.record.state)
    screen = screens.private_screen(1, table.record, state, 0)
    return {b.label: b.action for row in screen.buttons for b in row}


@pytest.mark.parametrize("rulebook", sorted(ALL_RULEBOOKS))
def test_show_me_places_the_hints_whole_lay_and_done_plays_it(rulebook):
    """Issue 27: a hint named one card ("💡 You can play 10♥ — as a new group") that can't be
    laid alone. The hint names every card of its lay; Show me (a button the bot sends) places
    the lay in the working copy, and Done after it is accepted."""
    game, table = _my_turn(rulebook)
    state = GameState.from_dict(table.record.state)
    if "commit" not in legal_actions(state, 0):  # Carousel: the opening draw comes first
        _press(game, table, "draw")
        _press(game, table, "hint")
        state = GameState.from_dict(table.record.state)
    hint = state.hint
    placed = [piece_from_token(t) for t in hint["placed"]]
    assert placed and hint["card"] in hint["placed"]
    line = _private_text(table)
    assert all(c.free().pretty() in line for c in placed), line  # (a joker: 🃏, 🃏12O)
    buttons = _buttons(table)
    _press(game, table, buttons["💡 Show me"])
    assert "commit" in legal_actions(GameState.from_dict(table.record.state), 0)
    _press(game, table, _buttons(table)["✔ Done"])
    after = GameState.from_dict(table.record.state)
    assert after.version > state.version and not table.record.seat_ui(0).notice.startswith("⚠")
    drawn_after = after.rules.turn_style.draw_after_lay  # Guadeloupe draws one after a lay
    assert len(after.hands[0]) <= len(state.hands[0]) - len(placed) + drawn_after
    assert sorted(c.ident for g in after.table for c in g) != sorted(
        c.ident for g in state.table for c in g)


@pytest.mark.parametrize("rulebook", ["manipulation", "shanghai"])
def test_the_must_lay_reminder_is_the_same_whole_lay_with_show_me(rulebook):
    game, table = _my_turn(rulebook)
    _press(game, table, "reset")  # (a fresh look: the reminder comes on the first Draw)
    _press(game, table, "draw")
    state = GameState.from_dict(table.record.state)
    notice = table.record.seat_ui(0).notice
    assert "You must lay cards if you can" in notice and state.hint is not None
    assert all(piece_from_token(t).free().pretty() in notice for t in state.hint["placed"])
    _press(game, table, _buttons(table)["💡 Show me"])
    _press(game, table, _buttons(table)["✔ Done"])
    assert GameState.from_dict(table.record.state).turn != 0


def test_the_hint_line_names_the_lay_group_by_group_in_every_language():
    """The hint names its whole lay by the group each card goes to; a floating Rummikub
    joker (a group of three) names no colour; tiles show their colour marks (issue 28)."""
    from bot.games.rummy.narrate import hint_line
    from bot.i18n import strip_bidi, using

    lay = [["2O#0", "3O#0", "4O#0"], ["*T#0=13K", "13R#0", "13O#1"], ["5K#0", "6K#0", "7K#0"]]
    hint = {"seat": 0, "card": "2O#0", "placed": [t for g in lay[:2] for t in g], "lay": lay,
            "groups": [], "singles": [], "rearrange": False}
    line = hint_line(hint, tiles=True)
    assert line == "💡 You can play 2🟧 3🟧 4🟧 · 🃏 13🟥 13🟧 — as new groups.", line
    for lang in ("he", "ru"):
        with using(lang):
            translated = strip_bidi(hint_line(hint, tiles=True))
            assert "2🟧 3🟧 4🟧 · 🃏 13🟥 13🟧" in translated and "new groups" not in translated


@pytest.mark.parametrize("rulebook", sorted(ALL_RULEBOOKS))
def test_a_hint_changes_no_button_it_only_adds_show_me_at_the_end(rulebook):
    """A hint never changes what the buttons mean or how they are numbered: the screen with
    the hint has the same buttons in the same places, and Show me after the last one."""
    _, table = _my_turn(rulebook)
    state = GameState.from_dict(table.record.state)
    unhinted = copy.copy(state)
    unhinted.hint = None

    def actions(s: GameState) -> list[str]:
        screen = screens.private_screen(1, table.record, s, 0)
        return [b.action for row in screen.buttons for b in row]

    with_hint = actions(state)
    shows = ["show"] if "commit" in legal_actions(state, 0) else []
    assert with_hint == actions(unhinted) + shows
