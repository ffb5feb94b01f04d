"""Build-to-Ten's review in the chat (issue 32): the host keeps its action log, the review
replays it and tells one seat's turns — a discard while an A (or a wild card) could open a pile
is a miss, named exactly — only to that seat, and never names a card the seat didn't see."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from bot.core.hosting import Refusal, Table
from bot.core.record import Record, SeatInfo
from bot.games import default_games
from bot.games.buildten.narrate import card_name
from bot.games.buildten.records import state_of
from bot.games.buildten.review import review_screen
from bot.i18n import strip_bidi, using
from engine.buildten import Discard, new_game, player_view
from engine.buildten.actions import NEW_PILE, action_from_dict
from engine.buildten.cards import DECK as DECK_TOKENS
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


def play_game(seed: int = SEED, user: str = "ann", name: str = "Ann",
              player_id: int | None = None) -> Record:
    """Ann only ever discards (her first hand card onto her first pile); the computer plays
    well and wins. Through the host's own moves, so its action log is the one kept."""
    record = Record(rulebook="buildten", game_name="build-to-ten", seed=seed,
                    seats=[SeatInfo(name, user, player_id),
                           SeatInfo("Bot", None, computer="hard")])
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
        GAME.move(table, state, 0, Discard(0, state.hands[0][0], pile), user)
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
    picture, text = out.private_extras["ann"]  # as rummy's: the picture, then the text
    assert text.text == review_screen(row.id, record, 0, None).text
    assert picture.painter is not None and text.painter is None
    assert picture.text == "\n".join(text.text.split("\n")[:2])  # its caption: title, summary
    assert "✗" in text.text.split("\n")[2]
    assert not out.private and out.group is None and not out.notes  # nothing in the group
    pressed = await service.press(ann, pack(row.id, 0, "review:1"))
    assert pressed.private_extras["ann"][1].text == text.text
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
        return GAME.move(table, state, 0, Discard(0, state.hands[0][0], pile), "ann")

    for _step in range(MAX_STEPS):
        saved = await store.get_game(row.id)
        if saved.record["state"]["over"]:
            break
        await service.unit.mutate(row.id, move)
    saved = await store.get_game(row.id)
    assert saved.record["state"]["over"] and not saved.record["state"]["actions"]
    assert len(await store.game_actions(row.id)) > 50  # the log is in its own table
    out = await service.command(Actor("telegram", "-5", "ann", "Ann"), "review")
    _picture, text = out.private_extras["ann"]
    assert text.text == review_screen(row.id, play_game(), 0, None).text


# -- the picture (render/buildten/review.py) ------------------------------------------------


def _chain_decisions():
    """tests/test_review.py's chain: 3♣ from the hand, the stock's 4♥, 5♠ off the discard pile,
    6♠, then the 7♣ the 5♠ covered — 5 cards onto pile 1; Ann discarded the 9♦ instead."""
    from engine.buildten import scripted

    start = scripted([["4H", "9S"], ["8C", "7D"]], [["3C", "6S", "9D", "10H", "5D"], ["2S"]],
                     builds=[["AS", "2D"]], discards=[[["7C", "5S"]]])
    return seat_decisions(start, [Discard(0, "9D#0", -1)], 0)


def test_a_strip_shows_the_move_what_was_seen_and_the_better_move_pile_by_pile():
    from bot.games.buildten.review import review_view

    decisions = _chain_decisions()
    view = review_view(review(decisions), decisions)
    (strip,) = view.strips
    assert strip.title == "Turn 1: you discarded" and strip.better == "5 could have gone"
    assert [(g.label, g.cards, g.kind) for g in strip.made] == [
        ("you discarded", ("9D",), "made")]
    piles, mine = strip.seen
    assert [(g.label, g.cards, g.needs) for g in piles] == [
        ("pile 1", ("2D",), 3), ("pile 2", (), 1), ("pile 3", (), 1), ("pile 4", (), 1)]
    # its own cards as it saw them, the ones the better move takes outlined
    assert [(g.label, g.cards, g.marked) for g in mine] == [
        ("stock 2", ("4H",), (0,)),
        ("hand 5", ("3C", "6S", "9D", "10H", "5D"), (0, 1)),
        ("D1", ("5S", "7C"), (0, 1))]  # its top, then the 7♣ under it, top down
    (move,) = strip.moves  # the pile's top as seen, then the five that could have gone
    assert (move.label, move.cards, move.kind, move.marked) == (
        "pile 1", ("2D", "3C", "4H", "5S", "6S", "7C"), "better", (1, 2, 3, 4, 5))
    assert view.summary == ("1 turn", "1 missed",
                            "5 cards that could have gone onto the build piles")
    assert not view.perfect and not view.more and not view.rtl


def test_the_cards_built_in_the_turn_are_the_move_made():
    from bot.games.buildten.review import review_view
    from engine.buildten import Play, scripted

    start = scripted([["9S", "9C"], ["8C", "7D"]], [["3H", "4D", "QS", "10H", "5D"], ["2S"]],
                     builds=[["AS", "2D"]])
    decisions = seat_decisions(start, [Play(0, "3H#0", 0), Discard(0, "10H#0", -1)], 0)
    assert decisions[0].plays == (("3H#0", 0),) and decisions[0].discarded == "10H#0"
    (strip,) = review_view(review(decisions), decisions).strips  # 4♦ and Q♠ could still go
    assert strip.title == "Turn 1: you built 1 card · you discarded"
    assert [(g.label, g.cards) for g in strip.made] == [
        ("you built 1 card", ("3H",)), ("you discarded", ("10H",))]


def test_a_pile_that_reaches_ten_and_opens_again_is_two_trays():
    from bot.games.buildten.review import review_view
    from engine.buildten import scripted

    eight = ["AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    start = scripted([["7D", "9S"], ["8D", "7S"]], [["9H", "10H", "AC", "5S", "6S"], ["2S"]],
                     builds=[eight, ["AS"], ["AH"], ["AD"]])
    decisions = seat_decisions(start, [Discard(0, "5S#0", -1)], 0)
    chance = best_plays(decisions[0].view)
    assert [(c.split("#")[0], p) for c, p in chance.plays] == [("9H", 0), ("10H", 0), ("AC", 0)]
    (strip,) = review_view(review(decisions), decisions).strips
    assert [(g.label, g.cards, g.marked) for g in strip.moves] == [
        ("pile 1", ("8C", "9H", "10H"), (1, 2)), ("pile 1", ("AC",), (0,))]


def test_a_perfect_round_says_so_in_the_picture(monkeypatch):
    from bot.games.buildten.review import review_view
    from engine.buildten import Play, scripted
    from render import widgets
    from render.buildten.review import render_review

    start = scripted([["3H", "9S"], ["8C", "7D"]], [["7C", "6S", "9D", "10H", "5D"], ["2S"]],
                     builds=[["AS", "2D"]])
    decisions = seat_decisions(start, [Play(0, "3H#0", 0), Discard(0, "9D#0", -1)], 0)
    result = review(decisions)
    assert result.perfect
    view = review_view(result, decisions)
    assert view.strips == () and view.perfect == "Every turn was the best move ✓"
    drawn: list[str] = []
    real = widgets.Canvas.text
    monkeypatch.setattr(widgets.Canvas, "text",
                        lambda self, x, y, text, *a, **k: drawn.append(text) or real(
                            self, x, y, text, *a, **k))
    image = Image.open(io.BytesIO(render_review(view)))
    assert drawn == ["Your review · Build-to-Ten", "1 turn · 0 missed",
                     "Every turn was the best move ✓"]
    assert image.width == 800 and image.height < 200


@pytest.mark.parametrize("lang", ["en", "he", "ru"])
def test_the_picture_is_legible_on_a_phone_in_every_language(finished, lang, monkeypatch):
    from bot.games.buildten.review import MAX_STRIPS, review_view
    from render import widgets
    from render.fonts import clean
    from render.layout import PHONE

    drawn: list[tuple[str, int, bool]] = []
    real = widgets.Canvas.text

    def spy(self, x, y, text, f, fill, max_width=None, *args, **kwargs):
        whole = clean(text)
        cut = max_width is not None and widgets._fit(whole, f, max_width) != whole
        drawn.append((text, f.size, cut))
        return real(self, x, y, text, f, fill, max_width, *args, **kwargs)

    monkeypatch.setattr(widgets.Canvas, "text", spy)
    record = Record.from_dict(finished.to_dict())
    record.seats[0].lang = lang
    decisions = _decisions(record, 0)
    result = review(decisions)
    with using(lang):
        view = review_view(result, decisions)
    assert len(view.strips) == min(MAX_STRIPS, result.missed) > 1
    assert view.rtl == (lang == "he")
    screen = review_screen(9, record, 0, None)
    drawn.clear()
    image = Image.open(io.BytesIO(screen.image))
    assert image.width == 800
    small = [(text, size) for text, size, _cut in drawn if size * PHONE / image.width < 11]
    assert not small and not [text for text, _size, cut in drawn if cut]
    texts = [text for text, _size, _cut in drawn]
    if lang == "en":
        assert texts[0] == "Your review · Build-to-Ten"
        assert f"…and {result.missed - MAX_STRIPS} more missed turns in the text" in texts
    else:  # every word drawn in the reader's language (card faces are sprites)
        english = re.compile(r"\b(?:Your|review|Turn|you|pile|stock|hand|could|more)\b")
        assert not [text for text in texts if english.search(text)]


def test_hebrew_card_runs_read_left_to_right(finished):
    from test_bidi import CARD_RUN, misshown_runs

    record = Record.from_dict(finished.to_dict())
    record.seats[0].lang = "he"
    text = review_screen(9, record, 0, None).text
    assert len(CARD_RUN.findall(strip_bidi(text))) > 10
    assert not misshown_runs(text)  # a phone shows each run of cards in its order


def test_caption_and_text_fit_telegram(finished):
    from bot.core import reviews
    from bot.core.cut import CAPTION_UNITS, MESSAGE_UNITS, utf16_units

    for lang in ("en", "he", "ru"):
        record = Record.from_dict(finished.to_dict())
        record.seats[0].lang = lang
        picture, text = reviews.split(review_screen(9, record, 0, None))
        assert picture.painter is not None and text.painter is None
        assert utf16_units(picture.text) <= CAPTION_UNITS
        assert utf16_units(text.text) <= MESSAGE_UNITS


def _seen_tokens(start, actions, seat: int) -> set[str]:
    """Every card `seat` saw at any moment of the game, and every card an action names."""
    from engine.buildten import apply

    seen: set[str] = set()
    state = start
    for data in [None, *actions]:
        if data is not None:
            action = action_from_dict(data)
            seen.add(action.card) if hasattr(action, "card") else None
            state, _events = apply(state, action)
        v = player_view(state, seat)
        seen |= {c for c in (*v.hand, *v.face_up) if c}
        seen |= {c for piles in v.discards for p in piles for c in p}
        seen |= {c for b in v.builds for c in b}
    return seen


@pytest.mark.parametrize("seat", [0, 1])
def test_the_picture_is_the_same_whatever_the_seat_could_not_see(finished, seat, monkeypatch):
    """The other seat's hand and stock, the seat's own stock under its face-up card and the
    general stock redealt (every card the seat never saw, anywhere in the game, swapped for
    another): the game replays the same for the seat, and its review — picture and text — is
    the same to the byte."""
    import random

    import bot.games.buildten.review as wing
    from engine.buildten import BuildState, apply

    start, actions = wing.replay(finished)
    hidden = sorted(set(start.to_json().split('"')) & set(DECK_TOKENS)
                    - _seen_tokens(start, actions, seat))
    shuffled = list(hidden)
    random.Random(seat).shuffle(shuffled)
    swap = dict(zip(hidden, shuffled, strict=True))
    data = start.to_dict()
    data["stocks"] = [[swap.get(c, c) for c in s] for s in data["stocks"]]
    data["hands"] = [[swap.get(c, c) for c in h] for h in data["hands"]]
    data["general"] = [swap.get(c, c) for c in data["general"]]
    redealt = BuildState.from_dict(data)
    def faces(state):  # every card's face where it lies: stocks, hands, the general stock
        return [[c.split("#")[0] for c in pile]
                for pile in (*state.stocks, *state.hands, state.general)]

    assert len(hidden) > 20 and faces(redealt) != faces(start)  # a leak would show
    end = redealt
    for a in actions:  # the redealt game replays
        end, _events = apply(end, action_from_dict(a))
    assert end.over and faces(end) != faces(state_of(finished))
    record = Record.from_dict(finished.to_dict())  # its saved end redealt too
    record.state = {**end.to_dict(), "actions": finished.state["actions"]}

    before = review_screen(9, finished, seat, None)
    monkeypatch.setattr(wing, "replay", lambda record: (redealt, actions))
    after = review_screen(9, record, seat, None)
    assert after.text == before.text
    assert after.image == before.image


async def test_the_review_in_the_terminal_is_its_text_and_with_pictures_its_picture(store,
                                                                                     tmp_path):
    """`review` in the terminal: the whole text printed once (the caption is not repeated),
    and with --pictures the picture beside it, as review.png."""
    from bot.adapters.console import GROUP_CHAT, PLATFORM, USER, ConsoleGame
    from bot.core.service import GameService

    service = GameService(store, games=default_games(), computer_delay=0.0)
    player = await store.player(PLATFORM, USER, "Ann")
    record = play_game(user=USER, name="Ann", player_id=player)
    row = await store.create_game(PLATFORM, GROUP_CHAT, record.to_dict(), status="finished")
    out: list[str] = []
    console = ConsoleGame(service, name="Ann", write=out.append, pictures=tmp_path / "pics")
    console.game_id = row.id  # the game this terminal played
    await console.handle("review")
    expected = review_screen(row.id, record, 0, None).text
    assert [line for line in out if line] == [expected]
    image = Image.open(tmp_path / "pics" / "review.png")
    assert image.width == 800


@pytest.mark.parametrize("seat", [0, 1])
def test_every_card_of_the_better_move_is_outlined_where_the_seat_saw_it(finished, seat):
    from collections import Counter

    from bot.games.buildten import review as wing
    from bot.games.buildten.review import review_view

    decisions = _decisions(finished, seat)
    result = review(decisions)
    view = review_view(result, decisions)
    assert len(view.strips) == min(wing.MAX_STRIPS, result.missed) > 0
    for strip in view.strips:
        seen = Counter(g.cards[k] for row in strip.seen for g in row for k in g.marked)
        better = Counter(g.cards[k] for g in strip.moves for k in g.marked)
        assert seen == better and sum(better.values()) == int(strip.better.split()[0])
