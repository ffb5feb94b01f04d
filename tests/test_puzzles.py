"""The puzzle of the day (issue 41 item 5), the platform's part: /puzzle on|off (admins), the
sweep that cuts each finished game once and posts each chat's puzzle of the day exactly once with
three workers racing (a claim let lapse is taken over), the next day's post with yesterday's
solution first, the tries and the board (solved, streaks). Runs on SQLite and PostgreSQL; the
cut itself is tests/test_puzzle_cut.py's."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update
from test_seasons import Posts  # (a post that lets another worker run meanwhile)

from bot.core.actor import Actor
from bot.core.hosting import Refusal
from bot.core.puzzles import LEASE, PUZZLE_ON, Puzzles, board_rows, day_of, from_button
from bot.core.record import Record, SeatInfo
from bot.core.views import Outcome
from bot.games import default_games
from bot.store import ResultSeat, Store
from bot.store import models as db
from bot.store.puzzles import PuzzleTry
from engine.rummy.playout import play_game
from engine.rummy.rulebooks import get_rulebook

pytest_plugins = ["store_fixtures"]

MORNING = datetime(2026, 12, 7, 9, 0, tzinfo=UTC).timestamp()
GAMES = default_games()


def _record(seed: int) -> Record:
    """A finished Manipulation game of three people (seeded computers played their moves)."""
    state = play_game(get_rulebook("manipulation"), ["easy", "medium", "hard"], seed,
                      check=False).state
    seats = [SeatInfo(name, user=user) for name, user in
             (("Ann", "1"), ("Ben", "2"), ("Cy", "3"))]
    return Record(rulebook="manipulation", seats=seats, state=state.to_dict(), seed=seed,
                  game_name="rummy")


async def _finished(store: Store, chat: str, record: Record, when: float) -> int:
    game = await store.create_game("telegram", chat, record.to_dict(), status="playing")
    await store.record_result(game.id, "manipulation", [
        ResultSeat(k, None, s.name, None, 10 * k, 1 if k == 0 else 0, k + 1)
        for k, s in enumerate(record.seats)])
    await store.save_game(game.id, record.to_dict(), expected_version=1, status="finished")
    async with store._write() as conn:  # it finished then (the store stamps the wall clock)
        await conn.execute(update(db.results).where(db.results.c.game_id == game.id)
                           .values(finished_at=datetime.fromtimestamp(when, UTC)))
    return game.id


def _puzzles(store: Store, posts: Posts, now: list[float], owner: str = "w1") -> Puzzles:
    games = GAMES
    return Puzzles(store, posts, lambda: now[0], owner, games,
                   lambda record: games[record.game_name], _no_try)


async def _no_try(*_args: object) -> Outcome:
    raise AssertionError("these tests press no [Solve] (tests/test_puzzle_e2e.py does)")


def _group(admin: bool = False) -> Actor:
    return Actor("telegram", "g", "1", "Ann", private=False, lang="en", admin=admin)


async def test_on_and_off_are_an_admin_s_and_a_group_s(store: Store) -> None:
    puzzles = _puzzles(store, Posts(), [MORNING])
    with pytest.raises(Refusal):
        await puzzles.command(_group(admin=False), "on")
    with pytest.raises(Refusal):
        await puzzles.command(Actor("telegram", "1", "1", "Ann", private=True, lang="en"), "on")
    assert not await store.puzzle_on("telegram", "g")
    out = await puzzles.command(_group(admin=True), "on")
    assert out.reply == PUZZLE_ON and await store.puzzle_on("telegram", "g")
    assert "No puzzle today" in (await puzzles.command(_group(), "")).reply
    await puzzles.command(_group(admin=True), "off")
    assert not await store.puzzle_on("telegram", "g")


async def test_the_day_s_puzzle_is_posted_once_by_three_workers(store: Store, store_url: str,
                                                              monkeypatch) -> None:
    cut = type(GAMES["rummy"]).puzzle_cut
    cuts: list[int] = []  # each finished game is cut by one worker (a replay and the solver)

    def counted(game, record):
        cuts.append(record.seed)
        return cut(game, record)

    monkeypatch.setattr(type(GAMES["rummy"]), "puzzle_cut", counted)
    await store.set_puzzle("telegram", "g", True)
    await _finished(store, "g", _record(2), MORNING - 3600)
    await _finished(store, "off", _record(3), MORNING - 3600)  # puzzles off there: never cut
    others = [await Store.open(store_url) for _ in range(2)]
    try:
        posts, now = Posts(), [MORNING]
        workers = [_puzzles(s, posts, now, f"w{i}") for i, s in enumerate([store, *others])]
        posted = await asyncio.gather(*(w.sweep() for w in workers))
        assert sum(posted) == 1 and len(posts.outcomes) == 1
        assert len(cuts) == 1, cuts
        [note] = posts.outcomes[0].notes
        assert (posts.outcomes[0].platform, posts.outcomes[0].chat_id) == ("telegram", "g")
        assert note.text.startswith("🧩") and note.painter is not None
        [[solve]] = note.buttons
        assert solve.action == f"solve:{day_of(MORNING).replace('-', '')}"
        for name in ("Ann", "Ben", "Cy"):  # no names: the puzzle is a position only
            assert name not in note.text
        # again the same day: nothing more
        assert sum(await asyncio.gather(*(w.sweep() for w in workers))) == 0
        async with store._engine.connect() as conn:
            cuts = (await conn.execute(db.puzzle_cuts.select())).fetchall()
        assert [(c.chat_id, c.used_on) for c in cuts] == [("g", day_of(MORNING))]
    finally:
        for s in others:
            await s.close()


async def test_a_claim_let_lapse_is_taken_over(store: Store) -> None:
    await store.set_puzzle("telegram", "g", True)
    await _finished(store, "g", _record(2), MORNING - 3600)
    posts, now = Posts(), [MORNING]
    dead = _puzzles(store, posts, now, "dead")
    await dead.cut_games(datetime.fromtimestamp(MORNING, UTC) - timedelta(days=3))
    cut, name, data = await store.best_cut("telegram", "g", datetime(2026, 12, 1, tzinfo=UTC))
    day = day_of(MORNING)
    assert await store.claim_puzzle("telegram", "g", day, name, data, cut, "dead", MORNING,
                                    LEASE)
    alive = _puzzles(store, posts, now, "alive")
    assert await alive.sweep() == 0  # the claim holds
    now[0] += LEASE + 1
    assert await alive.sweep() == 1 and len(posts.outcomes) == 1


async def test_the_next_day_shows_yesterday_s_solution_first(store: Store) -> None:
    await store.set_puzzle("telegram", "g", True)
    await _finished(store, "g", _record(2), MORNING - 3600)
    posts, now = Posts(), [MORNING]
    puzzles = _puzzles(store, posts, now)
    assert await puzzles.sweep() == 1
    now[0] += 86400
    await _finished(store, "g", _record(4), now[0] - 3600)
    assert await puzzles.sweep() == 1
    solution, today = posts.outcomes[1].notes
    assert "Yesterday" in solution.text and not solution.buttons
    assert today.text.startswith("🧩") and today.buttons
    # no game finished on the third day and both cuts are used: no puzzle, no post
    now[0] += 86400
    assert await puzzles.sweep() == 0


def test_streaks_count_days_solved_in_a_row() -> None:
    days = ["2026-12-03", "2026-12-04", "2026-12-05", "2026-12-06", "2026-12-07"]

    def t(day: str, user: str, solved: bool | None) -> PuzzleTry:
        return PuzzleTry(day, user, user.upper(), solved, 3, None)

    tries = [t("2026-12-03", "a", True), t("2026-12-04", "a", True), t("2026-12-05", "a", True),
             t("2026-12-06", "a", True),  # today not tried yet: the streak still stands
             t("2026-12-04", "b", True), t("2026-12-05", "b", False), t("2026-12-06", "b", True),
             t("2026-12-07", "b", True),
             t("2026-12-05", "c", True)]  # missed the 6th: broken
    rows = board_rows(tries, days, "2026-12-07")
    assert [(r.name, r.solved, r.streak) for r in rows] == [
        ("A", 4, 4), ("B", 3, 2), ("C", 1, 0)]


def test_a_button_s_day_is_parsed_strictly() -> None:
    assert from_button("20261207") == "2026-12-07"
    for bad in ("20261332", "2026127", "x0261207", "202612070", "29991399"):
        assert from_button(bad) is None


@pytest.mark.parametrize("seed", [2, 4])
def test_a_try_shows_its_own_hand_and_table_only(seed: int) -> None:
    """Hidden information in a try: its screens and its web frame hold the puzzle's hand and
    table; the other seats are strangers shown as counts; nothing of the round it was cut from
    beyond that one seat's view — whatever the person does, to the verdict."""
    from bot.core.hosting import Table
    from bot.core.record import Record as R
    from engine.rummy.puzzle import Puzzle

    rummy = GAMES["rummy"]
    cut = rummy.puzzle_cut(_record(seed))
    assert cut is not None
    data = cut[1]
    p = Puzzle.from_dict(data)
    record = R(host="2", seats=[SeatInfo("Ben", user="2")], game_name="rummy")
    table = Table(7, record, lambda: MORNING)
    out = rummy.puzzle_try(table, data)
    variant = rummy.played_variants[record.rulebook]
    frame = variant.web_view(record, 0)
    seen = {c["id"] for g in frame["groups"] for c in g["cards"]} | {c["id"] for c in
                                                                    frame["hand"]}
    assert len(seen) == len(p.hand) + sum(map(len, p.table)) and seen == _tokens(record)
    spectator = variant.web_view(record, None)
    assert not spectator.get("hand")
    assert [s["name"] for s in frame["seats"]][1:] == ["·"] * (p.players - 1)
    for screen in [out.group, *out.private.values()]:
        assert "Ann" not in screen.text and "Cy" not in screen.text


def _tokens(record) -> set[str]:
    """The dealt state's tokens of the puzzle's own cards (the hand and the table)."""
    from engine.rummy import GameState

    state = GameState.from_dict(record.state)
    cards = [*state.hands[0], *(c for g in state.table for c in g), *state.singles]
    return {c.token for c in cards}


def test_a_try_gives_no_hint_by_any_way_and_draw_ends_it() -> None:
    """No hint by a button, a typed move or the web page (the page offers none); the page's
    Draw ends the try as it stands, with its verdict."""
    from bot.core.buttons import Press
    from bot.core.hosting import Refusal as Refused_
    from bot.core.hosting import Table
    from bot.core.record import Record as R

    rummy = GAMES["rummy"]
    cut = rummy.puzzle_cut(_record(2))
    assert cut is not None
    record = R(host="2", seats=[SeatInfo("Ben", user="2")], game_name="rummy")
    table = Table(9, record, lambda: MORNING)
    rummy.puzzle_try(table, cut[1])
    variant = rummy.played_variants[record.rulebook]
    assert "hint" not in variant.web_view(record, 0)["actions"]
    version = record.state["version"]
    out = variant.press(table, 0, "2", Press(9, version, "hint"))
    assert out.alert and "No hints" in (out.reply or "")
    with pytest.raises(Refused_, match="No hints"):
        variant.typed(table, 0, "2", "hint", "")
    from engine.rummy import GameState
    from engine.rummy.actions import Draw

    state = GameState.from_dict(record.state)
    out = variant.move(table, state, 0, Draw(0), "2")  # as the page's Draw arrives
    assert record.ended and "You laid 0 of the" in (out.reply or "")
    assert rummy.puzzle_verdict(record) == (False, 0)
