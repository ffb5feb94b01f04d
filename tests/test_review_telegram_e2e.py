"""The review on Telegram (issue 32), end to end: the real python-telegram-bot Application
against the fake Bot API server, the real core and store (SQLite). A scripted round — Alice
only ever drew while cards fitted — ends with the computer going out; its scores carry
🔎 Review, and Alice's review (a picture, then the text) reaches her private chat alone. Bob,
who watches, gets a clear answer and nothing of hers; /review and /review 2 typed in the group."""

from __future__ import annotations

import io

import pytest
from fakes.telegram_server import FakeTelegram
from PIL import Image
from review_games import drawing_round, record_of
from test_telegram_e2e import GROUP, Harness

from bot.core.record import Record
from engine.rummy import GameState
from engine.rummy.review import game_decisions, review

pytestmark = pytest.mark.e2e


class ReviewHarness(Harness):
    async def up_with_game(self) -> int:
        await self.up()
        store = self.store
        player = await store.player("telegram", "11", "Alice")
        record = record_of(drawing_round(stop_before_end=True), player_id=player)
        row = await store.create_game("telegram", str(GROUP), record.to_dict(), status="playing")
        # the computer is on move: its last move ends the round (the scores come with it)
        self.service.scheduler.after_save(row.id, Record.from_dict(row.record))
        return row.id


@pytest.fixture
async def harness(tmp_path):
    async with FakeTelegram() as tg:
        h = ReviewHarness(tg, tmp_path / "rummy.db")
        try:
            yield h
        finally:
            await h.down()


def _expected() -> tuple[str, str]:
    """The summary line and turn 1's cards, from the engine's own analysis of Alice's round."""
    state = drawing_round()
    result = review(game_decisions(state, 0, 1))
    summary = (f"{len(result.turns)} turns · {result.missed} missed · {result.cards} cards left "
               "in hand that could have gone")
    from engine.rummy.tiles import piece_from_token

    first = result.turns[0].steps[0].most_cards
    return summary, " ".join(piece_from_token(t).pretty() for t in first.placed)


async def test_review_reaches_the_asker_alone(harness: ReviewHarness):
    tg = harness.tg
    alice = tg.user(11, "Alice", started=True)
    bob = tg.user(12, "Bob", started=True)
    group = tg.group(GROUP, "Friday rummy", members=(alice, bob))
    game_id = await harness.up_with_game()
    summary, cards = _expected()

    # the round ends (the computer goes out): the scores carry 🔎 Review
    await tg.wait_until(lambda: tg.find_button(group, "🔎 Review") is not None, 20)
    row = await harness.store.get_game(game_id)
    assert GameState.from_dict(row.record["state"]).phase == "game_over"

    alice_chat, bob_chat = tg.private_chat(alice), tg.private_chat(bob)
    before_bob = len(tg.messages(bob_chat))
    # her private chat already holds her game-over screen: the review is the two after it
    await tg.wait_until(lambda: len(tg.messages(alice_chat)) >= 1, 20)
    before = len(tg.messages(alice_chat))
    await harness.press_group(alice, "🔎 Review")
    await tg.wait_until(lambda: len(tg.messages(alice_chat)) >= before + 2, 20)
    picture, text = tg.messages(alice_chat)[-2:]
    assert picture.caption.split("\n") == ["🔎 Your review · Machiavelli · round 1", summary]
    image = Image.open(io.BytesIO(tg.photo(picture)))
    assert image.width == 800
    lines = text.text.split("\n")
    assert lines[1] == summary
    assert lines[2].startswith("Turn 1: you drew — ✗ ") and cards in lines[2]

    # Bob watches: a clear alert, nothing in his private chat
    found = tg.find_button(group, "🔎 Review")
    query = await tg.press(group, found.message.message_id, found.callback_data, bob)
    await tg.wait_until(lambda: query in tg.answers, 20)
    assert "Only the players of this game can review it" in tg.answers[query]["text"]
    assert tg.answers[query].get("show_alert")
    assert len(tg.messages(bob_chat)) == before_bob

    # typed in the group, after the game is over: the same review, again privately
    count = len(tg.messages(alice_chat))
    await harness.say(group, alice, "/review")
    await tg.wait_until(lambda: len(tg.messages(alice_chat)) >= count + 2, 20)
    assert tg.messages(alice_chat)[-1].text == text.text
    await harness.say(group, alice, "/review 2")
    await harness.expect(group, "Rounds over so far: 1–1.")
    await harness.say(group, bob, "/review")
    await harness.expect(group, "Only the players of this game can review it")
    assert len(tg.messages(bob_chat)) == before_bob


async def test_a_build_to_ten_review_comes_as_a_picture_and_its_text(harness: ReviewHarness):
    """Build-to-Ten's review takes the same road (bot/core/reviews.py): /review in the group,
    the picture with its caption (title and summary), then the whole text, in private."""
    from test_review_buildten import play_game

    from bot.games.buildten.review import review_screen

    tg = harness.tg
    alice = tg.user(11, "Alice", started=True)
    group = tg.group(GROUP, "Friday cards", members=(alice,))
    await harness.up()
    player = await harness.store.player("telegram", "11", "Alice")
    record = play_game(user="11", name="Alice", player_id=player)
    row = await harness.store.create_game("telegram", str(GROUP), record.to_dict(),
                                          status="finished")
    expected = review_screen(row.id, record, 0, None).text.split("\n")
    alice_chat = tg.private_chat(alice)
    await harness.say(group, alice, "/review")
    await tg.wait_until(lambda: len(tg.messages(alice_chat)) >= 2, 20)
    picture, text = tg.messages(alice_chat)[-2:]
    assert picture.caption.split("\n") == expected[:2]
    assert expected[0] == "🔎 Your review · Build-to-Ten"
    image = Image.open(io.BytesIO(tg.photo(picture)))
    assert image.width == 800 and image.height > 600  # strips of missed turns
    assert text.text.split("\n") == expected
