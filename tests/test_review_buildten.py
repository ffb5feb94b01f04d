"""Build-to-Ten's review in the chat (issue 32): the host keeps its action log, the review
replays it and tells one seat's turns — a discard while an A (or a wild card) could open a pile
is a miss, named exactly — only to that seat, and never names a card the seat didn't see."""

from __future__ import annotations

import re

import pytest

from bot.core.hosting import Refusal, Table
from bot.core.record import Record, SeatInfo
from bot.games import default_games
from bot.games.buildten.narrate import card_name
from bot.games.buildten.records import state_of
from bot.games.buildten.review import review_screen
from bot.i18n import strip_bidi, using
from engine.buildten import Discard, new_game, player_view
from engine.buildten.actions import NEW_PILE
from engine.buildten.cards import fits, is_joker
from engine.buildten.review import best_plays, review, seat_decisions

GAME = default_games()["build-to-ten"]
CARD = re.compile(r"(?:10|[2-9AQK])[♠♥♦♣]")
MAX_STEPS = 3_000


def _opens(seed: int) -> bool:
    """Ann (seat 0) moves first and holds a card that can open a pile (an A or a wild)."""
    state = new_game(2, seed)
    view = player_view(state, 0)
    known = [view.face_up[0], *view.hand]
    return state.turn == 0 and any(c and not is_joker(c) and fits(c, 1) for c in known)


SEED = next(s for s in range(1, 500) if _opens(s))


def play_game(seed: int = SEED) -> Record:
    """Ann only ever discards (her first hand card onto her first pile); the computer plays
    well and wins. Through the host's own moves, so its action log is the one kept."""
    record = Record(rulebook="buildten", game_name="build-to-ten", seed=seed,
                    seats=[SeatInfo("Ann", "ann"), SeatInfo("Bot", None, computer="hard")])
    table = Table(1, record, lambda: 0.0)
    GAME.start(table)
    for _step in range(MAX_STEPS):
        state = state_of(record)
        if state.over:
            return record
        if state.turn == 1:
            GAME.computer_step(table)
            continue
        pile = 0 if state.discards[0] else NEW_PILE
        GAME._act(table, state, Discard(0, state.hands[0][0], pile), "ann")
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def finished() -> Record:
    return play_game()


def _decisions(record: Record, seat: int):
    start = new_game(2, record.seed)
    return seat_decisions(start, record.state["actions"], seat)


def test_the_log_replays_to_the_saved_state(finished):
    assert state_of(finished).over and finished.state["actions"]
    assert not state_of(finished).stocks[1]  # the computer emptied its stock


def test_a_discard_while_a_pile_could_open_is_a_miss_named_exactly(finished):
    decisions = _decisions(finished, 0)
    chance = best_plays(decisions[0].view)
    assert chance is not None and chance.cards >= 1  # the seed's A (or wild) could have gone
    result = review(decisions)
    lines = review_screen(9, finished, 0, None).text.split("\n")
    assert lines[0] == "🔎 Your review · Build-to-Ten"
    assert lines[1].startswith(f"{len(result.turns)} turns · {result.missed} missed · "
                               f"{result.cards} card")
    assert lines[2].startswith("Turn 1: you discarded — ✗ ")
    noun = "card could" if chance.cards == 1 else "cards could"
    assert f"{chance.cards} {noun} have gone: " in lines[2]
    named = CARD.findall(strip_bidi(lines[2]))
    assert named == [card_name(c) for c, _place in chance.plays if not is_joker(c)]
    first_place = chance.plays[0][1]
    assert f"{card_name(chance.plays[0][0])} onto a new pile" in lines[2], first_place


def test_the_computer_seat_is_reviewed_too(finished):
    text = review_screen(9, finished, 1, None).text
    result = review(_decisions(finished, 1))
    assert text.split("\n")[1].startswith(f"{len(result.turns)} turns · {result.missed} missed")
    assert text.count("the best move ✓") == len(result.turns) - result.missed


def test_a_game_still_played_or_without_its_log_is_not_reviewed(finished):
    record = Record(rulebook="buildten", game_name="build-to-ten", seed=SEED,
                    seats=[SeatInfo("Ann", "ann"), SeatInfo("Bot", None, computer="hard")])
    table = Table(1, record, lambda: 0.0)
    GAME.start(table)
    GAME.computer_step(table) if state_of(record).turn == 1 else None
    with pytest.raises(Refusal, match="once it is over"):
        review_screen(9, record, 0, None)
    old = Record.from_dict(finished.to_dict())
    old.state = {**old.state, "actions": old.state["actions"][5:]}  # a log begun late
    with pytest.raises(Refusal, match="before its turns were kept"):
        review_screen(9, old, 0, None)
    with pytest.raises(Refusal, match="one round"):
        review_screen(9, finished, 0, 2)


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_the_review_speaks_the_seats_language(finished, lang):
    record = Record.from_dict(finished.to_dict())
    record.seats[0].lang = lang
    text = review_screen(9, record, 0, None).text
    with using("en"):
        english = review_screen(9, finished, 0, None).text
    assert text.split("\n")[0] != english.split("\n")[0]
    assert "Turn" not in text and "discarded" not in text and "could have gone" not in text


def test_the_review_names_no_card_the_seat_never_saw(finished):
    decisions = _decisions(finished, 0)
    seen: set[str] = set()
    for d in decisions:
        v = d.view
        seen |= {c for c in (v.face_up[0], *v.hand) if c}
        seen |= {c for piles in v.discards[0] for c in piles}
        seen |= {c for pile in v.builds for c in pile}
    start = new_game(2, finished.seed)
    faces_seen = {card_name(c) for c in seen}
    # the other's stock, below what it ever showed: faces the check would catch
    secret = {card_name(c) for c in start.stocks[1]} - faces_seen
    assert secret
    named = set(CARD.findall(strip_bidi(review_screen(9, finished, 0, None).text)))
    assert named and named <= faces_seen


async def test_review_through_the_service(store):
    from bot.core.actor import Actor
    from bot.core.buttons import pack
    from bot.core.service import GameService

    service = GameService(store, games=default_games(), computer_delay=0.0)
    record = play_game()
    player = await store.player("telegram", "ann", "Ann")
    record.seats[0].player_id = player
    row = await store.create_game("telegram", "-5", record.to_dict(), status="finished")
    ann, eve = Actor("telegram", "-5", "ann", "Ann"), Actor("telegram", "-5", "eve", "Eve")

    out = await service.command(ann, "review")
    (text,) = out.private_extras["ann"]
    assert text.text == review_screen(row.id, record, 0, None).text
    assert "✗" in text.text.split("\n")[2]
    assert not out.private and out.group is None and not out.notes  # nothing in the group
    pressed = await service.press(ann, pack(row.id, 0, "review:1"))
    assert pressed.private_extras["ann"][0].text == text.text
    asked = await service.press(eve, pack(row.id, 0, "review:1"))
    assert asked.alert and "Only the players" in asked.reply and not asked.private_extras
    assert (await store.get_game(row.id)).version == row.version  # a review saves nothing


def test_the_results_carry_the_review_button(finished):
    table = Table(9, finished, lambda: 0.0)
    screen = GAME._result_screen(table, state_of(finished))
    assert [[(b.label, b.action) for b in row] for row in screen.buttons] == [
        [("🔎 Review", "review:1")]]


async def test_the_log_kept_by_the_platform_is_reviewed(store):
    """Each move saved through the platform (the unit moves the host's actions into the
    game's action log, bot/core/unit.py); the review joins them again and replays the game."""
    from bot.core.actor import Actor
    from bot.core.service import GameService
    from bot.core.views import Outcome

    service = GameService(store, games=default_games(), computer_delay=0.0)
    record = Record(rulebook="buildten", game_name="build-to-ten", seed=SEED,
                    seats=[SeatInfo("Ann", "ann"), SeatInfo("Bot", None, computer="hard")])
    GAME.start(Table(1, record, lambda: 0.0))
    row = await store.create_game("telegram", "-5", record.to_dict(), status="playing")

    def move(row, record: Record):
        table = service.unit.table(row, record)
        state = state_of(record)
        if state.over or state.turn == 1:  # (the scheduler may have played it already)
            return GAME.computer_step(table) or Outcome()
        pile = 0 if state.discards[0] else NEW_PILE
        return GAME._act(table, state, Discard(0, state.hands[0][0], pile), "ann")

    for _step in range(MAX_STEPS):
        saved = await store.get_game(row.id)
        if saved.record["state"]["over"]:
            break
        await service.unit.mutate(row.id, move)
    saved = await store.get_game(row.id)
    assert saved.record["state"]["over"] and not saved.record["state"]["actions"]
    assert len(await store.game_actions(row.id)) > 50  # the log is in its own table
    out = await service.command(Actor("telegram", "-5", "ann", "Ann"), "review")
    (text,) = out.private_extras["ann"]
    assert text.text == review_screen(row.id, play_game(), 0, None).text
