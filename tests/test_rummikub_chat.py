"""Rummikub in the chats (issue 16): the lobby's choice and options, screens in tile notation,
typed moves, the buttons' tile tokens, Give up, the rules' turn timer, hint, Auto-place, the
scoreboard and the pictures — through the rummy game's hosting, without a platform."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import bot.games.rummy.host as rummy_host
from bot.adapters.discord_layout import layout
from bot.core.buttons import parse
from bot.core.hosting import Refusal, Table
from bot.core.lobby import lobby_screen
from bot.core.record import Record, SeatInfo
from bot.games.rummy import RummyGame, screens
from bot.games.rummy.typed import TypedError, parse_typed
from bot.i18n import using
from engine.rummy import GameState, Place, Tile, get_rulebook, parse_tiles
from engine.rummy.scenario import deal_scenario
from render import palette as pal

RACKS = ["10R 11R 12R 5O 2K", "1K 4R 7B 10O 13K", "2R 5B 8O 11K 3K"]
TABLE = ["5K 5R 5B"]


def _scripted(rules, seats, seed):
    return deal_scenario(rules, RACKS[:seats], table=TABLE, stock_top="6O 9K 9B 9R 9O 1O",
                         seed=seed)


@pytest.fixture
def game(monkeypatch):
    monkeypatch.setattr(rummy_host, "new_game", _scripted)
    return RummyGame()


def _table(game: RummyGame, lang: str = "en", **options) -> Table:
    record = Record(rulebook="rummikub", options=options, host="u0", lang=lang,
                    seats=[SeatInfo("Ada", "u0", lang=lang),
                           SeatInfo("Computer 1", None, None, "medium"),
                           SeatInfo("Computer 2", None, None, "easy")])
    table = Table(1, record, lambda: 1000.0)
    game.start(table)
    return table


def _state(table: Table) -> GameState:
    return GameState.from_dict(table.record.state)


def _press(game: RummyGame, table: Table, action: str):
    press = parse(f"1:{_state(table).version}:{action}")
    assert press is not None, action
    return game.press(table, 0, "u0", press)


def _token(table: Table, face: str) -> str:
    return next(t.token for t in _state(table).hands[0] if t.face == face)


def _computers(game: RummyGame, table: Table) -> None:
    while _state(table).phase == "play" and _state(table).turn != 0:
        game.computer_step(table)


def test_rummikub_is_a_variant_with_its_options_in_every_language():
    game = RummyGame()
    variants = {v.name: v for v in game.variants()}
    assert "rummikub" in variants
    assert set(variants["rummikub"].options) == {
        "initial_meld", "initial_turn", "failed_move", "turn_timer", "wrap", "rounds"}
    english = game.settings("rummikub", {"failed_move": "draw_1"}).describe()
    assert "failed move: draw 1" in english and "one-minute turns: off" in english
    for lang in ("he", "ru"):
        with using(lang):
            settings = game.settings("rummikub", {"failed_move": "draw_1"})
            assert settings.title != "Rummikub"
            assert not set(settings.describe()) & set(english)
        with using(lang), pytest.raises(ValueError) as refused:
            game.settings("rummikub", {"wrap": "sometimes"})
        assert "wrap" not in str(refused.value) or lang == "en"


def test_the_lobby_options_fit_five_rows_and_cycle_each_option():
    game = RummyGame()
    record = Record(rulebook="rummikub", options={}, host="u0", seats=[SeatInfo("Ada", "u0")])
    screen = lobby_screen(game, 1, record, "options")
    # A phone's Telegram row each (the labels are long); Discord's five rows hold them all
    assert all(len(row) == 1 for row in screen.buttons[:6])
    discord = layout(screen)
    assert len(discord) <= 5
    shown = {spec.custom_id.rpartition(":")[0] for row in discord for spec in row}
    assert len([c for c in shown if ":opt:" in c]) == 6  # every option still a button
    actions = [b.action for row in screen.buttons for b in row]
    assert "opt:rounds:3" in actions and "opt:initial_meld:20" in actions
    cycled = game.settings("rummikub", {"rounds": 5}).options
    record.options = dict(cycled)
    again = [b.action for row in lobby_screen(game, 1, record, "options").buttons for b in row]
    assert "opt:rounds:1" in again  # after the last value, the first


def test_rules_text_is_rummikubs_own_in_every_language():
    game = RummyGame()
    english = game.rules_text("rummikub")
    assert "initial meld" in english and "7R" in english and "card" not in english
    assert "Rummikub" in game.help_text()  # the rulebooks by title
    with using("he"):
        assert "רמיקוב" in game.help_text()
    for lang in ("he", "ru"):
        with using(lang):
            text = game.rules_text("rummikub")
        assert text != english and "7R" in text


def test_typed_moves_read_tile_notation_and_refuse_cards():
    hand = parse_tiles("10R 11R 12R 5O")
    (lay,) = parse_typed(0, "lay", "10R 11R 12R", hand)
    assert isinstance(lay, Place) and [str(t) for t in lay.cards] == ["10R", "11R", "12R"]
    assert all(isinstance(t, Tile) for t in lay.cards)
    (add,) = parse_typed(0, "add", "A 4", hand)  # a number is the rack's tile
    assert [str(t) for t in add.cards] == ["5O"] and add.group == 0
    with pytest.raises(TypedError, match="not a tile"):
        parse_typed(0, "lay", "7H 8H 9H", hand)
    with using("ru"), pytest.raises(TypedError, match="фишк"):
        parse_typed(0, "lay", "7H", hand)
    with pytest.raises(TypedError, match="/add B 7R"):
        parse_typed(0, "add", "B", hand)
    with pytest.raises(TypedError, match="no tile number 9"):
        parse_typed(0, "lay", "9", hand)


def test_tile_tokens_are_buttons_and_nothing_else_is():
    for data in ("1:2:s1:10R#0", "1:2:s0:*T#1", "1:2:tc:0:*T#0=7R", "1:2:jk:1:7R,7B"):
        assert parse(data) is not None, data
    for data in ("1:2:s1:14R#0", "1:2:s1:0K#0", "1:2:s1:*#0=7R", "1:2:jk:1:7X"):
        assert parse(data) is None, data


def test_a_meld_then_a_hint_then_auto_place_wins(game):
    table = _table(game)
    private = screens.private_screen(1, table.record, _state(table), 0)
    labels = [b.label for row in private.buttons for b in row]
    assert {"10R", "11R", "12R", "5O", "2K"} <= set(labels)  # tile notation
    assert "Draw a tile" in labels and "initial meld: 30 from your rack" in private.text
    assert "Rack: 1 2K" in private.text
    group = screens.table_screen(1, table.record, _state(table))
    assert "pool " in group.text and "5K 5R 5B" in group.text
    assert [b.label for row in group.buttons for b in row] == ["🀄 My tiles"]
    for face in ("10R", "11R", "12R"):
        _press(game, table, f"s1:{_token(table, face)}")
    _press(game, table, "auto")
    _press(game, table, "done")
    state = _state(table)
    assert state.turn == 1 and sorted(str(t) for t in state.hands[0]) == ["2K", "5O"]
    _computers(game, table)
    _press(game, table, "hint")
    assert "💡 You can play" in table.record.seat_ui(0).notice
    for face in ("5O",):
        _press(game, table, f"s1:{_token(table, face)}")
    _press(game, table, "auto")
    _press(game, table, "done")
    assert [str(t) for t in _state(table).hands[0]] == ["2K"]


def test_the_initial_meld_refusals_are_sentences_in_every_language(game):
    touched = {"en": "initial meld", "he": "הירידה הראשונה", "ru": "Первый выход"}
    for lang, words in touched.items():
        table = _table(game, lang)
        with using(lang):
            game.typed(table, 0, "u0", "lay", "10R 11R 12R")
            game.typed(table, 0, "u0", "add", "A 5O")  # not on the initial meld's turn
            out = game.typed(table, 0, "u0", "done", "")
            assert out.alert and words in out.reply, out.reply
        assert _state(table).turn == 0 and len(_state(table).table) == 1  # nothing played
    # Three 2s and three 3s are only 15 (RULES.md §5's example), not 30.
    table = _table(game)
    state = deal_scenario(get_rulebook("rummikub"), ["2K 2R 2B 3K 3R 3B 9O", "1K 4R 7B"])
    table.record.state = state.to_dict()
    game.typed(table, 0, "u0", "lay", "2K 2R 2B")
    game.typed(table, 0, "u0", "lay", "3K 3R 3B")
    out = game.typed(table, 0, "u0", "done", "")
    assert out.alert and "at least 30" in out.reply and "(this is 15)" in out.reply, out.reply


def test_give_up_draws_the_failed_move_penalty(game):
    for failed, drawn, label in (("draw_3", 3, "Give up (+3)"), ("draw_1", 1, "Give up (+1)")):
        table = _table(game, failed_move=failed)
        game.typed(table, 0, "u0", "lay", "10R 11R 12R")
        private = screens.private_screen(1, table.record, _state(table), 0)
        assert label in [b.label for row in private.buttons for b in row]
        before = len(_state(table).hands[0])
        _press(game, table, "giveup")
        assert f"draw {drawn} tile" in table.record.seat_ui(0).notice
        _press(game, table, "giveup")
        state = _state(table)
        assert state.turn == 1 and len(state.hands[0]) == before + drawn
        assert [str(t) for t in state.table[0]] == ["5K", "5R", "5B"]  # put back


def test_the_rules_timer_gives_the_turn_up(game):
    table = _table(game, turn_timer=60)
    assert table.record.turn_seconds == 60 and table.record.deadline == 1060.0
    game.typed(table, 0, "u0", "lay", "10R 11R 12R")  # a changed copy: given up, +3
    before = len(_state(table).hands[0])
    out = game.play_for(table, 0)
    assert "given up" in out.reply
    state = _state(table)
    assert state.turn == 1 and len(state.hands[0]) == before + 3 and len(state.table) == 1
    # Without the option the platform's timer has a computer finish the turn instead.
    plain = _table(game)
    out = game.play_for(plain, 0)
    assert "computer played" in out.reply and len(_state(plain).table) == 2


def test_a_whole_game_scores_higher_is_better_per_round():
    game = RummyGame()
    record = Record(rulebook="rummikub", options={"rounds": 3}, host="u0", seed=11,
                    seats=[SeatInfo("Ada", "u0"), SeatInfo("Computer 1", None, None, "medium")])
    table = Table(1, record, lambda: 0.0)
    game.start(table)
    from engine.rummy import NextRound, apply, player_view
    from engine.rummy.ai import choose_action

    state, seen = _state(table), 0
    while state.phase != "game_over":
        if state.phase == "round_over":
            score = screens.score_screen(1, record, state)
            assert f"Round {state.round} over" in score.text and "Totals:" in score.text
            seen += 1
            state, _ = apply(state, NextRound(0))
            continue
        state, _ = apply(state, choose_action(player_view(state, state.turn), "medium"))
        record.state = state.to_dict()
    record.state = state.to_dict()
    results = game.results(record)
    assert seen == 2 and results.higher_is_better
    assert max(results.totals) == results.totals[results.winners[0]]
    assert sum(results.totals) == 0  # every round: the winner's plus is the others' minus


def test_the_pictures_draw_tiles_in_both_directions(game):
    for lang in ("en", "he"):
        table = _table(game, lang)
        state = _state(table)
        state.hands[0].append(Tile(0, "", 1))  # a free joker on the rack
        table.record.state = state.to_dict()
        for screen in (screens.table_screen(1, table.record, state),
                       screens.private_screen(1, table.record, state, 0)):
            image = Image.open(io.BytesIO(screen.image)).convert("RGB")
            colours = {c for _, c in image.getcolors(1 << 16)}
            assert {pal.RED, pal.BLUE, pal.SPADE} <= colours  # 5R, 5B, 5K on the table
        private = screens.private_screen(1, table.record, state, 0)
        colours = {c for _, c in Image.open(io.BytesIO(private.image)).convert("RGB")
                   .getcolors(1 << 16)}
        assert {pal.EAR, pal.JOKER} <= colours  # the rack's 5O, in orange, and the joker


def test_card_games_keep_their_card_words():
    game = RummyGame()
    record = Record(rulebook="machiavelli", host="u0",
                    seats=[SeatInfo("Ada", "u0"), SeatInfo("Computer 1", None, None, "easy")])
    table = Table(1, record, lambda: 0.0)
    game.start(table)
    state = _state(table)
    private = screens.private_screen(1, record, state, 0)
    assert "Hand:" in private.text and "Draw" in [b.label for row in private.buttons for b in row]
    assert "stock " in screens.table_screen(1, record, state).text
    with pytest.raises(Refusal):
        game.typed(table, 0, "u0", "lay", "10R 11R 12R")
    assert get_rulebook("machiavelli").tiles is False
    assert "card from your hand" in game.typed(table, 0, "u0", "done", "").reply


def test_a_joker_is_taken_by_typed_moves_in_the_working_copy(monkeypatch):
    """Take the joker out, lay the tile that frees it, put it with two rack tiles: Done
    designates it anew (the copy's joker is another object than the table's: the freeing
    colours are read by the tile's identity)."""
    monkeypatch.setattr(rummy_host, "new_game", lambda rules, seats, seed: deal_scenario(
        rules, ["7O 12O 13O 2K", "1K 4R 7B", "2R 5B 8O"], table=["7K 7R *7B", "1B 2B 3B"],
        first_lay_done=True, seed=seed))
    game = RummyGame()
    table = _table(game)
    for verb, args in (("take", "A *"), ("add", "A 7O"), ("lay", "* 12O 13O")):
        assert game.typed(table, 0, "u0", verb, args).reply == "OK"
    out = game.typed(table, 0, "u0", "done", "")
    assert not out.alert, out.reply
    groups = sorted(" ".join(map(str, g)) for g in _state(table).table)
    assert groups == ["*11O 12O 13O", "1B 2B 3B", "7K 7R 7O"]


def test_start_refuses_a_fifth_seat_with_a_sentence():
    game = RummyGame()
    seats = [SeatInfo("Ada", "u0"), *(SeatInfo(f"Computer {i}", None, None, "easy")
                                       for i in range(1, 5))]
    record = Record(rulebook="rummikub", host="u0", seats=seats)
    with pytest.raises(Refusal, match="at most 4 players"):
        game.start(Table(1, record, lambda: 0.0))
    assert record.state is None
    for lang in ("he", "ru"):
        with using(lang), pytest.raises(Refusal) as refused:
            game.start(Table(1, record, lambda: 0.0))
        assert "4" in str(refused.value) and "players" not in str(refused.value)


def test_refusals_speak_of_tiles_and_the_rack(game):
    for lang, word in (("en", "tile from your rack"), ("he", "מהמעמד"), ("ru", "подставки")):
        table = _table(game, lang)
        with using(lang):
            out = game.typed(table, 0, "u0", "done", "")  # nothing laid
        assert out.alert and word in out.reply, out.reply
        assert "card" not in out.reply and "קלף" not in out.reply and "карт" not in out.reply


def test_the_lobby_seats_four_for_rummikub():
    from bot.core.buttons import Press
    from bot.core.lobby import Lobby

    game = RummyGame()
    record = Record(rulebook="rummikub", options={}, host="u0", seats=[SeatInfo("Ada", "u0")])
    screen = lobby_screen(game, 1, record)
    assert "(2–4 players)" in screen.text
    assert game.seats_for("rummikub") == 4 and game.seats_for("manipulation") == 5

    class Unit:  # what Lobby.press asks of the unit of work
        def game_of(self, _record):
            return game

    class Row:
        id = 1

    lobby = Lobby(Unit())  # type: ignore[arg-type]
    for _ in range(3):
        lobby.press(Row(), record, "u0", "Ada", Press(1, record.lobby_version, "cpu", ("easy",)))
    assert len(record.seats) == 4
    with pytest.raises(Refusal, match="full"):
        lobby.press(Row(), record, "u0", "Ada", Press(1, record.lobby_version, "cpu", ("easy",)))


def _colours(png: bytes, top: int | None = None) -> set[tuple[int, int, int]]:
    """The picture's colours (`top`: of its first rows only)."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    if top is not None:
        image = image.crop((0, 0, image.width, top))
    return {c for _, c in image.getcolors(1 << 16)}


def test_the_table_picture_counts_the_pool_and_racks_with_tiles(game):
    """The pool counter and each seat's count show a small cream tile, not a card back."""
    for lang in ("en", "he"):
        table = _table(game, lang)
        picture = screens.table_screen(1, table.record, _state(table)).image
        assert pal.BACK not in _colours(picture)
        assert pal.PLACED in _colours(picture)  # the cream (the table's tiles are white)
        # the title row holds the pool (a blue tile's edge on the table maps to BACK_LINE)
        assert pal.BACK_LINE not in _colours(picture, top=56)
        assert pal.PLACED in _colours(picture, top=56)


def test_a_card_games_table_picture_keeps_its_card_backs():
    card_game = Record(rulebook="manipulation", host="u0",
                       seats=[SeatInfo("Ada", "u0"), SeatInfo("Computer 1", None, None, "easy")])
    cards = Table(1, card_game, lambda: 0.0)
    RummyGame().start(cards)
    assert pal.BACK in _colours(screens.table_screen(1, card_game, _state(cards)).image)


def test_the_lobby_picture_shows_tiles_for_rummikub():
    game = RummyGame()
    assert game.settings("rummikub", {}).picture == {"tiles": True}  # the lobby picture's
    assert not game.settings("manipulation", {}).picture
    record = Record(rulebook="rummikub", host="u0", seats=[SeatInfo("Ada", "u0")])
    for lang in ("en", "he"):
        record.lang = lang
        colours = _colours(lobby_screen(game, 1, record).image)
        assert {pal.BLUE, pal.EAR} <= colours  # tiles in blue and orange; cards have neither
    record.rulebook = "manipulation"
    assert not {pal.BLUE, pal.EAR} & _colours(lobby_screen(game, 1, record).image)


def _dealt(monkeypatch, racks: list[str], table: list[str], first_lay_done=None,
           **options) -> Table:
    """A started Rummikub game in the chat, dealt as given (seat 0, a person, on turn)."""
    def deal(rules, seats, seed):
        return deal_scenario(rules, racks[:seats], table=table, stock_top="6O 9K 9B 9R 9O 1O",
                             seed=seed, first_lay_done=first_lay_done)

    monkeypatch.setattr(rummy_host, "new_game", deal)
    return _table(RummyGame(), **options)


def _buttons(table: Table) -> dict[str, str]:
    screen = screens.private_screen(1, table.record, _state(table), 0)
    return {b.label: b.action for row in screen.buttons for b in row}


def _tap(table: Table, *labels: str) -> None:
    """Press the buttons the bot sent, by their labels, in order."""
    game = RummyGame()
    for label in labels:
        _press(game, table, _buttons(table)[label])


def test_the_initial_meld_9r_10r_joker_is_laid_as_30_by_buttons(monkeypatch):
    """Issue 27: `9R 10R 🃏` as the initial meld was refused as 27 (the joker read as 8R)."""
    table = _dealt(monkeypatch, ["9R 10R * 2K 5O", "1K 4R 7B 10O 13K", "2R 5B 8O 11K 3K"], [])
    _tap(table, "9R", "10R", "🃏", "New group", "✔ Done")
    state = _state(table)
    assert [str(t) for t in state.table[0]] == ["9R", "10R", "*11R"], table.record.seat_ui(0)
    assert state.turn == 1 and sorted(str(t) for t in state.hands[0]) == ["2K", "5O"]


def test_the_joker_question_offers_only_the_readings_that_reach_the_initial_meld(monkeypatch):
    table = _dealt(monkeypatch, ["10R * * 2K 5O", "1K 4R 7B 10O 13K", "2R 5B 8O 11K 3K"], [])
    _tap(table, "10R", "🃏", "🃏", "New group", "✔ Done")
    offered = [label for label, action in _buttons(table).items() if action.startswith("jk:")]
    assert "8R 9R" not in offered and "11R 12R" in offered and len(offered) == 5
    _tap(table, "11R 12R")
    assert [str(t) for t in _state(table).table[0]] == ["10R", "*11R", "*12R"]


def test_a_floating_joker_shows_no_colour_and_takes_a_missing_colour_by_buttons(monkeypatch):
    """Issue 27 / RULES.md §5 decision 3: `5R 5K 🃏` names no colour for its joker; adding a
    real 5O — the colour the engine keeps for it — makes a group of four, the joker 5B."""
    table = _dealt(monkeypatch, ["5O 9B 2K", "1K 4R 7B 10O 13K", "2R 5B 8O 11K 3K"],
                   ["5K 5R *5O"], first_lay_done=True)
    group = screens.table_screen(1, table.record, _state(table))
    assert "🃏" in group.text and "🃏5O" not in group.text and "🃏5O" not in group.detail
    private = screens.private_screen(1, table.record, _state(table), 0)
    assert "🃏5O" not in private.detail
    _tap(table, "5O", "Add to ▸", "A", "✔ Done")
    state = _state(table)
    assert sorted(str(t) for t in state.table[0]) == sorted(["5K", "5R", "5O", "*5B"])
    assert state.turn == 1 and sorted(str(t) for t in state.hands[0]) == ["2K", "9B"]
    shown = screens.table_screen(1, table.record, state)
    assert "🃏5B" in shown.text  # in a group of four it stands for one colour, named


def test_show_me_places_the_hint_and_reset_takes_it_back_for_free(game):
    """A hint never changes what the buttons mean: the lay Show me placed is no move of the
    player's own, so Reset stays Reset (not Give up (+3), the failed-move penalty)."""
    table = _table(game)
    _tap(table, "💡 Hint")
    assert "10🟥 11🟥 12🟥" in table.record.seat_ui(0).notice  # the whole lay, not one tile
    _tap(table, "💡 Show me")
    labels = _buttons(table)
    assert "↺ Reset" in labels and "Give up (+3)" not in labels and "Draw a tile" in labels
    _tap(table, "↺ Reset")
    state = _state(table)
    assert state.draft is None and state.turn == 0 and len(state.hands[0]) == 5
    _tap(table, "💡 Show me", "✔ Done")
    assert [str(t) for t in _state(table).table[-1]] == ["10R", "11R", "12R"]


def test_a_typed_joker_designation_is_kept_to_done(monkeypatch):
    """Issue 27: typing `*1O` didn't help — the designation was dropped when the tile was
    placed, and Done asked again (or read the joker as it liked)."""
    table = _dealt(monkeypatch, ["12O 13O * 2K 5O", "1K 4R 7B 10O 13K", "2R 5B 8O 11K 3K"],
                   [], first_lay_done=True, wrap="on")
    assert _state(table).rules.ace == "wrap"
    game = RummyGame()
    assert game.typed(table, 0, "u0", "lay", "12O 13O *1O").reply == "OK"
    out = game.typed(table, 0, "u0", "done", "")
    assert not out.alert, out.reply
    assert [str(t) for t in _state(table).table[0]] == ["12O", "13O", "*1O"]


def test_with_reset_running_out_of_time_draws_one_tile(game):
    """RULES.md §5 decision 7: with the one-minute timer and failed_move=reset, a turn that
    runs out of time ends as any turn without a lay: the copy restored, one tile drawn —
    with a changed copy and without one."""
    for changed in (True, False):
        table = _table(game, turn_timer=60, failed_move="reset")
        if changed:
            game.typed(table, 0, "u0", "lay", "10R 11R 12R")
        before = _state(table)
        out = game.play_for(table, 0)
        state = _state(table)
        assert state.turn == 1, out.reply
        assert len(state.hands[0]) == len(before.hands[0]) + 1, (changed, out.reply)
        assert len(state.stock) == len(before.stock) - 1
        assert [[str(t) for t in g] for g in state.table] == [
            [str(t) for t in g] for g in before.table]  # the table as it was


def test_the_starting_draw_is_told_in_the_log():
    """Issue 27: the starting draw (RULES.md §5 decision 4) is shown — who drew what, who
    starts — in the log every platform shows (the terminal prints it, the chats caption it)."""
    game = RummyGame()
    table = _table(game)
    state = _state(table)
    line = next((x for x in table.record.log if x.startswith("Starting draw: ")), None)
    assert line is not None, table.record.log
    assert "Ada " in line and "Computer 1 " in line and "Computer 2 " in line
    assert line.endswith(f"{screens.seat_label(table.record, state.turn)} starts")


def test_laid_tiles_are_logged_in_order(game):
    """Typed out of order, a run is logged as its group shows it (with colour marks)."""
    table = _table(game)
    state = deal_scenario(get_rulebook("rummikub"), ["12R 10R 11R 5K", "1K 4R 7B", "13O 2B"])
    table.record.state = state.to_dict()
    game.typed(table, 0, "u0", "lay", "12R 10R 11R")
    game.typed(table, 0, "u0", "done", "")
    assert table.record.log[-1].endswith("laid 10🟥 11🟥 12🟥"), table.record.log


def test_the_score_shows_every_hand_left_at_the_rounds_end(game):
    table = _table(game)
    state = deal_scenario(get_rulebook("rummikub"), ["10R 11R 12R", "1K 4R 7B", "13O 2B"])
    table.record.state = state.to_dict()
    game.typed(table, 0, "u0", "lay", "10R 11R 12R")
    out = game.typed(table, 0, "u0", "done", "")
    scores = "\n".join(n.text for n in out.notes)
    assert "Left on the racks: " in scores, scores
    left = scores.split("Left on the racks: ", 1)[1].splitlines()[0]
    left = "".join(ch for ch in left if ch not in "\u2066\u2067\u2068\u2069")  # isolates
    assert left.endswith("Computer 1: 1⬛ 4🟥 7🟦 · 🤖 Computer 2: 2🟦 13🟧"), left
    assert "Ada" not in left  # she went out


def test_the_hint_follows_the_group_letters_through_an_edit(game):
    """Issue 27: emptying group A mid-edit makes C the new B; the hint said "group C" and
    must now say B (its line and its outline), not name a group that moved."""
    table = _table(game)
    state = deal_scenario(get_rulebook("rummikub"), ["4O 7K 13B", "1K 4R 7B", "13O 2B"],
                          table=["5K 5R 5B", "9R 10R 11R", "1O 2O 3O"], first_lay_done=True)
    table.record.state = state.to_dict()
    _press(game, table, "hint")
    assert _state(table).hint["groups"] == [2], _state(table).hint  # 4O onto C
    for face in ("5K", "5R", "5B"):  # group A taken apart: B and C move up
        game.typed(table, 0, "u0", "take", f"A {face}")
    state = _state(table)
    assert [str(c) for c in state.draft.groups[1]] == ["1O", "2O", "3O"]
    assert state.hint["groups"] == [1]
    private = screens.private_screen(1, table.record, state, 0)
    assert "group B" in private.text and "group C" not in private.text, private.text


def test_a_joker_being_freed_is_no_invalid_group_before_done(game):
    """Issue 27: the table's 🃏 (as 11R) moved out to free it, 11R laid in its place and the
    joker in a new run 12O 13O 🃏: every group reads valid (in progress), not ✗ until Done."""
    table = _table(game)
    state = deal_scenario(get_rulebook("rummikub"), ["11R 12O 13O 2K", "1K 4R 7B", "13O 2B"],
                          table=["9R 10R *11R", "5K 5R 5B"], first_lay_done=True)
    table.record.state = state.to_dict()

    def marks() -> list[str]:
        detail = screens.private_screen(1, table.record, _state(table), 0).detail
        return [line[:4] for line in detail.splitlines()[1:4]]

    game.typed(table, 0, "u0", "move", "A:* new")
    assert marks() == [" ✗ A", "   B", " ✗ C"]  # half done: truly not valid yet
    game.typed(table, 0, "u0", "add", "A 11R")
    game.typed(table, 0, "u0", "add", "C 12O 13O")
    assert marks() == [" * A", "   B", " * C"]
    view = rummy_host.player_view(_state(table), 0)
    assert screens.private_picture(view, "t").invalid == frozenset()
    out = game.typed(table, 0, "u0", "done", "")
    assert not out.alert, out.reply


@pytest.mark.parametrize(("hand", "new", "reads"), [
    ("11R 12O 13O 2K", "12O 13O", "*11O"),  # one reading: the joker names its new tile
    ("11R 7O 7K 2K", "7O 7K", "*"),  # three of a number: it floats, no colour named
])
def test_a_joker_being_freed_reads_as_its_new_group(game, hand, new, reads):
    """Issue 27: the joker moved out to be freed showed its old reading (🃏11R) in its new group
    until Done; the screens read it as the new group makes it, in text and picture."""
    table = _table(game)
    state = deal_scenario(get_rulebook("rummikub"), [hand, "1K 4R 7B", "13O 2B"],
                          table=["9R 10R *11R", "5K 5R 5B"], first_lay_done=True)
    table.record.state = state.to_dict()
    for verb, args in (("move", "A:* new"), ("add", "A 11R"), ("add", f"C {new}")):
        assert game.typed(table, 0, "u0", verb, args).reply == "OK", (verb, args)
    detail = screens.private_screen(1, table.record, _state(table), 0).detail
    line = detail.splitlines()[3]
    assert line.startswith(" * C"), detail
    view = rummy_host.player_view(_state(table), 0)
    group = screens.private_picture(view, "t").groups[2]
    assert [str(c) for c in group if c.is_joker] == [reads], group
    assert line.endswith(screens.marked(group)), (line, group)  # (the detail: colour marks)
    assert game.typed(table, 0, "u0", "done", "").alert is False
