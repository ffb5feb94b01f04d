"""Issue 43 items 1 and 4: one turn flow plays a person's move however it comes — a button, a
typed move, a web page's edit — with one refusal, one clean-up and one advance
(bot/core/turns.py); one guard checks the game and the seat and maps every ending to an answer
(bot/core/guard.py); an outcome's platform part is made in one piece (views.Where)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from bot.core import guard, narrate
from bot.core.buttons import Press
from bot.core.hosting import Refusal, Table
from bot.core.record import Record, SeatInfo
from bot.core.views import Outcome, Where
from bot.games.buildten import BuildTenGame
from bot.games.buildten.records import state_of
from bot.i18n import current, using
from bot.web.protocol import Edit
from engine.buildten import Discard
from engine.buildten.actions import NEW_PILE

GAME = BuildTenGame()
MUST_DISCARD = "End your turn with a discard from your hand."


def _table() -> Table:
    """A Build-to-Ten game with Ann (seat 0, a person) on move."""
    for seed in range(1, 200):
        record = Record(rulebook="buildten", game_name="build-to-ten", seed=seed,
                        seats=[SeatInfo("Ann", "ann"), SeatInfo("Bot", None, computer="easy")])
        table = Table(1, record, lambda: 0.0)
        GAME.start(table)
        if state_of(record).turn == 0:
            return table
    raise AssertionError("no deal where Ann moves first")


def _press(table: Table) -> Outcome:
    state = state_of(table.record)
    return GAME.press(table, 0, "ann", Press(1, state.version, "bpass"))


def _typed(table: Table) -> Outcome:
    return GAME.typed(table, 0, "ann", "pass", "")


def _web(table: Table) -> Outcome:
    return GAME.web_edit(table, 0, "ann", Edit(state_of(table.record).version, "act",
                                                   name="pass"))


@pytest.mark.parametrize("way", [_press, _typed, _web], ids=["press", "typed", "web"])
def test_a_refused_move_reads_the_same_however_it_came(way):
    """Pass with cards in hand, by a button, a typed /pass and the page: the engine's refusal
    in the catalog's words, an alert, the seat's ✗ notice, nothing played."""
    table = _table()
    before = dict(table.record.state)
    with using("en"):
        out = way(table)
    assert (out.reply, out.alert) == (MUST_DISCARD, True)
    assert table.record.seat_ui(0).notice == "✗ " + MUST_DISCARD
    assert table.record.state == before
    assert set(out.private) == {"ann"}  # the seat's own unchanged screen, nothing else


def test_a_move_taken_clears_the_selection_and_the_time_outs():
    table = _table()
    record = table.record
    state = state_of(record)
    record.seats[0].timeouts = 2
    ui = record.seat_ui(0)
    ui.selected, ui.mode, ui.notice = [state.hands[0][0]], "target", "old"
    out = GAME.move(table, state, 0, Discard(0, state.hands[0][0], NEW_PILE), "ann")
    assert not out.alert and state_of(record).version > state.version
    assert (ui.selected, ui.mode, record.seats[0].timeouts) == ([], "main", 0)


def test_an_out_of_date_press_and_edit_get_fresh_screens_not_a_move():
    table = _table()
    version = state_of(table.record).version
    for stale in (lambda: GAME.press(table, 0, "ann", Press(1, version - 1, "bpass")),
                  lambda: GAME.web_edit(table, 0, "ann", Edit(version - 1, "act", name="pass"))):
        with pytest.raises(Refusal) as refused:
            stale()
        assert not refused.value.alert and "ann" in refused.value.outcome.private
    assert state_of(table.record).version == version


# -- the guard -------------------------------------------------------------------------------

def _row(status: str = "playing") -> SimpleNamespace:
    return SimpleNamespace(status=status, platform="telegram", chat_id="-1", id=1)


def test_the_guard_sets_the_seats_language_and_refuses_non_players():
    record = Record(seats=[SeatInfo("Ann", "ann", lang="he"), SeatInfo("Bo", "bo")],
                    state={"any": 1}, lang="ru")
    with using("en"):
        assert guard.seated(_row(), record, "ann", "en", lambda seat: True) == 0
        assert current() == "he"  # the seat's own language from here on
    with using("en"):
        assert guard.seated(_row(), record, "bo", "en", lambda seat: True) == 1
        assert current() == "ru"  # no language of the seat's own: the group's
    with using("en"), pytest.raises(Refusal, match="belong to a player"):
        guard.seated(_row(), record, "eve", "en", lambda seat: True)
    with using("he"):
        players_only, not_running = narrate.PLAYERS_ONLY, narrate.NOT_RUNNING_GAME
    with using("en"), pytest.raises(Refusal) as refused:
        guard.seated(_row(), record, "ann", "en", lambda seat: False)  # not from where it may
    assert refused.value.text == players_only  # in the seat's language
    with using("en"), pytest.raises(Refusal) as refused:
        guard.seated(_row("finished"), record, "ann", "en", lambda seat: True)
    assert refused.value.text == not_running


async def test_the_guard_answers_a_refusal_and_says_sorry_for_anything_else(caplog):
    async def refused() -> Outcome:
        raise Refusal("No.", alert=False, outcome=Outcome(private={"ann": None}))

    async def broken() -> Outcome:
        raise KeyError("the game's bug")

    out = await guard.guarded("en", "a test", refused)
    assert (out.reply, out.alert, list(out.private)) == ("No.", False, ["ann"])
    with caplog.at_level(logging.ERROR):
        out = await guard.guarded("ru", "a test", broken)
    assert out.alert and out.reply.startswith("Простите") and "a test failed" in caplog.text


def test_an_outcomes_platform_part_is_made_once_not_stamped():
    out = Outcome(reply="x", where=Where(7, "telegram", "-1", 3, names={"u": "Ann"}))
    assert (out.game_id, out.platform, out.chat_id, out.revision) == (7, "telegram", "-1", 3)
    with pytest.raises(AttributeError):
        out.game_id = 8  # type: ignore[misc]
    later = Outcome(where=Where(7, revision=5, refs={"table": 1}, next_up="computer"))
    out.merge(later)
    assert (out.revision, out.refs, out.next_up, out.names) == (5, {"table": 1}, "computer",
                                                                {"u": "Ann"})
