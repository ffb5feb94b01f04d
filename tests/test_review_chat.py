"""The review in the chat (issue 32): the rummy wing's text and picture of one seat's round, the
platform's /review and 🔎 Review (who may ask, what they get, where it goes), and never a card
the seat did not see. Through the fakes: tests/test_review_telegram_e2e.py, _discord_e2e.py."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image
from review_games import drawing_round, record_of

from bot.core import reviews
from bot.core.buttons import parse
from bot.core.cut import CAPTION_UNITS, MESSAGE_UNITS, utf16_units
from bot.core.hosting import Refusal
from bot.core.record import Record
from bot.games import default_games
from bot.games.rummy.review import review_screen, review_text, review_view
from bot.i18n import strip_bidi, using
from engine.rummy import GameState, new_game
from engine.rummy.review import game_decisions, review
from render.layout import PHONE

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")


@pytest.fixture(scope="module")
def finished() -> Record:
    return record_of(drawing_round())


def _engine(record: Record, seat: int):
    decisions = game_decisions(GameState.from_dict(record.state), seat, 1)
    return review(decisions), decisions


def test_the_drawing_seat_reads_its_misses(finished):
    result, _ = _engine(finished, 0)
    assert result.missed >= 3 and result.cards > 0  # the scripted misses are there
    text = review_screen(9, finished, 0, None).text
    lines = text.split("\n")
    assert lines[0] == "🔎 Your review · Machiavelli · round 1"
    assert lines[1] == (f"{len(result.turns)} turns · {result.missed} missed · {result.cards} "
                        "cards left in hand that could have gone")
    first = result.turns[0]
    chance = first.steps[0].most_cards
    cards = " ".join(CARD.findall(lines[2]))
    assert lines[2].startswith("Turn 1: you drew — ✗ ")
    assert f"{chance.cards} cards could have gone" in lines[2]
    from engine.rummy.tiles import piece_from_token

    assert cards == " ".join(piece_from_token(t).pretty() for t in chance.placed)
    assert "points" not in text  # Machiavelli's cards all count 1: points would say nothing
    shown = [line for line in lines[2:] if line.startswith("Turn ")]
    assert len(shown) < len(result.turns)  # 48 turns don't fit one message: whole lines do
    assert lines[-1] == f"…and {len(result.turns) - len(shown)} more turns"
    assert [int(line.split()[1][:-1]) for line in shown] == list(range(1, len(shown) + 1))


def test_the_computer_seat_plays_the_best_move(finished):
    text = review_screen(9, finished, 1, None).text
    assert " · 0 missed" in text.split("\n")[1]
    assert "Every turn was the best move the computer finds." in text
    assert "✗" not in text and text.count("the best move ✓") >= 1


def test_a_round_still_played_is_not_reviewed():
    playing = record_of(drawing_round(stop_before_end=True))
    with pytest.raises(Refusal, match="once it is over"):
        review_screen(9, playing, 0, None)
    lobby = Record(rulebook="machiavelli", seats=[])
    with pytest.raises(Refusal):
        review_screen(9, lobby, 0, None)


def test_a_round_that_is_not_over_is_refused_by_number(finished):
    with pytest.raises(Refusal, match="1–1"):
        review_screen(9, finished, 0, 2)


def test_text_and_caption_fit_telegram(finished):
    screen = review_screen(9, finished, 0, None)
    picture, text = reviews.split(screen)
    assert utf16_units(text.text) <= MESSAGE_UNITS
    assert utf16_units(picture.text) <= CAPTION_UNITS and picture.painter is not None
    assert picture.text == "\n".join(screen.text.split("\n")[:2]) and text.painter is None


def test_a_long_review_is_cut_cleanly(finished, monkeypatch):
    import bot.games.rummy.review as wing

    monkeypatch.setattr(wing, "MESSAGE_UNITS", 300)
    text = review_screen(9, finished, 0, None).text
    assert utf16_units(text) <= 300 and re.search(r"\n…and \d+ more turns$", text)


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_the_picture_is_a_strip_per_missed_turn_legible_on_a_phone(lang, monkeypatch):
    from render import widgets

    sizes: list[int] = []
    real = widgets.Canvas.text

    def spy(self, x, y, text, f, *args, **kwargs):
        sizes.append(f.size)
        return real(self, x, y, text, f, *args, **kwargs)

    monkeypatch.setattr(widgets.Canvas, "text", spy)
    record = record_of(drawing_round(), lang=lang)
    result, decisions = _engine(record, 0)
    with using(lang):
        view = review_view(result, decisions, False)
    assert len(view.strips) == min(6, result.missed)
    assert view.rtl == (lang == "he")
    if lang == "en":
        assert view.more == f"…and {result.missed - 6} more missed turns in the text"
    image = Image.open(io.BytesIO(review_screen(9, record, 0, None).image))
    assert image.width == 800
    assert min(sizes) * PHONE / image.width >= 11


@pytest.mark.parametrize("lang", ["he", "ru"])
def test_the_review_speaks_the_seats_language(finished, lang):
    record = record_of(drawing_round(), lang=lang)
    text = review_screen(9, record, 0, None).text
    assert "you drew" not in text and "cards left" not in text and "Turn" not in text
    assert CARD.search(text)


def test_hebrew_card_runs_read_left_to_right():
    from test_bidi import CARD_RUN, misshown_runs

    record = record_of(drawing_round(), lang="he")
    text = review_screen(9, record, 0, None).text
    assert len(CARD_RUN.findall(strip_bidi(text))) > 10
    assert not misshown_runs(text)  # a phone shows each run of cards in its order


# -- never a secret -------------------------------------------------------------------------


def _seen(decisions) -> tuple[set[str], set[str]]:
    """Tokens and faces the seat saw at its decisions: its hand, the table, the singles."""
    tokens = set()
    for d in decisions:
        v = d.view
        tokens |= {c.token for c in v.hand}
        tokens |= {c.token for g in v.table for c in g}
        tokens |= {c.token for c in v.singles}
    from engine.rummy.tiles import piece_from_token

    return tokens, {piece_from_token(t).pretty() for t in tokens}


@pytest.mark.parametrize("seat", [0, 1])
def test_a_review_holds_no_card_the_seat_never_saw(finished, seat):
    state = GameState.from_dict(finished.state)
    result, decisions = _engine(finished, seat)
    tokens, faces = _seen(decisions)
    start = new_game(state.rulebook, state.players, state.seed)
    secret = {c.token for i, h in enumerate(start.hands) if i != seat for c in h}
    secret |= {c.token for c in start.stock}
    secret -= tokens
    assert secret  # there are cards it never saw: the check can fail
    view = review_view(result, decisions, False)
    drawn = {t for s in view.strips for t in (*s.placed, *s.mine, *(c for g in s.lay for c in g))}
    assert drawn <= tokens and not drawn & secret
    text = strip_bidi(review_text(result))
    assert set(CARD.findall(text)) <= faces


def test_the_review_button_is_a_platform_verb_with_its_round():
    press = parse("12:3:review:2")
    assert press is not None and press.verb == "review" and press.int() == 2
    for forged in ("12:3:review", "12:3:review:-1", "12:3:review:200", "12:3:review:x"):
        assert parse(forged) is None


def test_review_round_words():
    assert reviews.round_asked("") is None and reviews.round_asked(" 3 ") == 3
    for bad in ("x", "0", "1 2", "٣", "999"):
        with pytest.raises(Refusal):
            reviews.round_asked(bad)


def test_the_scores_carry_the_review_button(finished):
    from bot.games.rummy.screens import score_screen

    state = GameState.from_dict(finished.state)
    screen = score_screen(9, finished, state)
    assert [[(b.label, b.action) for b in row] for row in screen.buttons] == [
        [("🔎 Review", "review:1")]]


# -- the platform: who may ask, where it goes ------------------------------------------------


async def test_review_through_the_service(store):
    from datetime import timedelta

    from bot.core.actor import Actor
    from bot.core.buttons import pack
    from bot.core.service import GameService
    from bot.store import models as db

    service = GameService(store, games=default_games(), computer_delay=0.0)
    player = await store.player("telegram", "11", "Alice")
    record = record_of(drawing_round(), player_id=player)
    row = await store.create_game("telegram", "-5", record.to_dict(), status="finished")
    alice, bob = Actor("telegram", "-5", "11", "Alice"), Actor("telegram", "-5", "12", "Bob")

    out = await service.command(alice, "review")  # the game is over: the chat's last one
    picture, text = out.private_extras["11"]
    assert picture.painter is not None and text.text.startswith("🔎 Your review")
    assert out.reply == "🔎 Your review is in your private chat with me." and not out.alert
    assert not out.private and out.group is None and not out.notes  # nothing in the group
    pressed = await service.press(alice, pack(row.id, 0, "review:1"))
    assert pressed.private_extras["11"][1].text == text.text
    in_private = await service.command(Actor("telegram", "11", "11", "Alice", private=True),
                                       "review")
    assert "no game to review" in in_private.reply  # a group game is reviewed there

    for asked in (await service.command(bob, "review"),
                  await service.press(bob, pack(row.id, 0, "review:1"))):
        assert asked.alert and "Only the players of this game" in asked.reply
        assert not asked.private_extras
    elsewhere = await service.press(Actor("telegram", "-6", "11", "Alice"),
                                    pack(row.id, 0, "review:1"))
    assert elsewhere.alert and not elsewhere.private_extras
    assert (await service.command(alice, "review", "x")).reply.startswith("Use /review")

    assert (await store.get_game(row.id)).version == row.version  # a review saves nothing

    # 90 days on, the record is a stub: the scores stay, the turns are gone
    await store.prune(db.utcnow() + timedelta(days=1), db.utcnow() - timedelta(days=1))
    gone = await service.press(alice, pack(row.id, 0, "review:1"))
    assert gone.alert and "only its scores are kept" in gone.reply
