"""Rummikub (RULES.md §5): one test per line and decision, with concrete tiles, the seed's
examples included (10-11-12 red is 33; 3-4-5 black with three 6s is exactly 30; three 2s and
three 3s are only 15; the issue's rearranging examples)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.rummy import (
    Card,
    Commit,
    Draw,
    GiveUp,
    IllegalAction,
    JokerChoiceNeeded,
    NextRound,
    Pass,
    Place,
    Reset,
    TimeUp,
    apply,
    check_move,
    conservation_errors,
    get_rulebook,
    is_meld,
    new_game,
    parse_cards,
    parse_tiles,
    score_round,
    start_position,
)
from engine.rummy.deal import starting_draw
from engine.rummy.reasons import REASONS
from engine.rummy.tile_rules import freeing_faces
from engine.rummy.tiles import Tile, piece_from_token

RK = get_rulebook("rummikub")


def T(text: str) -> list[Card]:
    return parse_cards(text, RK)


def lay(rules, table: str | list, hand: str, new: list[str], *, first: bool = True):
    old = [T(g) for g in table] if isinstance(table, list) else []
    return check_move(rules, old, T(hand), [T(g) for g in new], first_lay_done=first)


# -- notation -----------------------------------------------------------------------------


def test_tile_notation_reads_and_writes_number_and_colour():
    tiles = parse_tiles("7R 13O 1K 10B * *7R")
    assert [str(t) for t in tiles] == ["7R", "13O", "1K", "10B", "*", "*7R"]
    assert [(t.rank, t.face) for t in tiles[:4]] == [(7, "7R"), (13, "13O"), (1, "1K"),
                                                     (10, "10B")]
    assert all(isinstance(t, Tile) for t in tiles)
    assert tiles[5].designated and tiles[5].play_face == "7R"


def test_tile_notation_never_collides_with_card_notation():
    with pytest.raises(ValueError):
        parse_cards("7H", RK)  # a card in a tile game
    with pytest.raises(ValueError):
        parse_cards("7R")  # a tile in a card game
    with pytest.raises(ValueError):
        parse_cards("1K")  # not a card: 1 is no card rank
    with pytest.raises(ValueError):
        parse_cards("KS", RK)  # not a tile
    # the same number and suit underneath, still never equal to a card
    assert parse_cards("7R", RK)[0] != parse_cards("7H")[0]
    assert parse_cards("7R", RK)[0].face != parse_cards("7H")[0].face


def test_tokens_round_trip_tiles_and_tile_jokers():
    tiles = parse_tiles("7R 7R * *13O")
    back = [piece_from_token(t.token) for t in tiles]
    assert back == tiles and all(isinstance(t, Tile) for t in back)
    assert [t.copy for t in tiles] == [0, 1, 0, 1]  # the two jokers are two tiles


# -- the set, the seats, the deal ------------------------------------------------------------


def test_106_tiles_two_to_four_players_14_each_rest_is_the_pool():
    for seats in (2, 3, 4):
        state = new_game(RK, seats, seed=11)
        assert [len(h) for h in state.hands] == [14] * seats
        assert len(state.stock) == 106 - 14 * seats
        every = [t for h in state.hands for t in h] + state.stock
        faces = Counter(t.face for t in every)
        assert len(every) == 106 and faces["*"] == 2
        assert all(faces[f"{n}{c}"] == 2 for n in range(1, 14) for c in "KRBO")
        assert not conservation_errors(state)
    for seats in (1, 5):
        with pytest.raises(ValueError):
            new_game(RK, seats, seed=1)


def test_starting_draw_highest_starts_jokers_and_ties_draw_again():
    tied = jokers = 0
    for seed in range(300):
        starter, draws = starting_draw(RK, 4, seed)
        tiles = [parse_tiles(d) for d in draws]
        assert not tiles[starter][-1].is_joker  # a joker is drawn again
        first = [next(t.rank for t in d if not t.is_joker) for d in tiles]
        assert first[starter] == max(first)  # the highest number of the first draw
        top = [s for s in range(4) if first[s] == max(first)]
        if len(top) > 1:  # a tie: those tied draw again, the others stop
            tied += 1
            again = [s for s in range(4) if sum(not t.is_joker for t in tiles[s]) > 1]
            assert set(again) == set(top)
        jokers += any(t.is_joker for d in tiles for t in d)
        assert new_game(RK, 4, seed).turn == starter
    assert tied and jokers  # both cases came up


def test_starting_draw_is_shown_and_later_rounds_rotate():
    state = new_game(get_rulebook("rummikub", rounds=3), 3, seed=5)
    assert state.last["kind"] == "starting_draw"
    first = state.turn
    state.phase = "round_over"
    state, _ = apply(state, NextRound(0))
    assert state.turn == (first + 1) % 3


# -- groups and runs ----------------------------------------------------------------------


@pytest.mark.parametrize("group, ok", [
    ("7R 7B 7K", True),
    ("7R 7B 7K 7O", True),
    ("7R 7B 7R", False),  # two of one colour
    ("7R 7B", False),  # too small
    ("3B 4B 5B", True),
    ("1O 2O 3O 4O 5O 6O 7O 8O 9O 10O 11O 12O 13O", True),
    ("3B 4B 6B", False),
    ("3B 4R 5B", False),
    ("11K 12K 13K", True),
    ("12K 13K 1K", False),  # 1 is always lowest
    ("13K 1K 2K", False),
    ("7R 7B * *", True),  # two jokers in one combination
    ("5O * * 8O", True),
])
def test_groups_and_runs(group, ok):
    assert is_meld(RK, T(group)) is ok


def test_wrap_option_lets_runs_go_on_from_13_to_1_never_longer_than_13():
    wrap = get_rulebook("rummikub", wrap="on")
    assert is_meld(wrap, T("12K 13K 1K")) and is_meld(wrap, T("13K 1K 2K"))
    assert is_meld(wrap, T("11R 12R 13R 1R 2R 3R"))
    assert is_meld(wrap, T("13B * 2B"))
    assert not is_meld(wrap, T("12K 13K 2K"))
    thirteen = "5O 6O 7O 8O 9O 10O 11O 12O 13O 1O 2O 3O 4O"
    assert is_meld(wrap, T(thirteen))
    assert not is_meld(wrap, T(thirteen + " 5O"))  # 14 tiles: a number twice
    assert check_move(wrap, [], T("12K 13K 1K 5O"), [T("13K 1K 12K")]).ok


# -- the initial meld ---------------------------------------------------------------------


def test_seed_10_11_12_red_is_33_enough():
    assert lay(RK, [], "10R 11R 12R 4B", ["10R 11R 12R"], first=False).ok


def test_seed_3_4_5_black_with_three_6s_is_exactly_30():
    assert lay(RK, [], "3K 4K 5K 6R 6B 6O", ["3K 4K 5K", "6R 6B 6O"], first=False).ok
    low = lay(RK, [], "3K 4K 5K 6R 6B", ["3K 4K 5K"], first=False)
    assert low.code == "initial_meld_too_low" and low.params == {"value": 12, "need": 30}


def test_seed_three_2s_and_three_3s_are_only_15_refused():
    check = lay(RK, [], "2R 2B 2O 3R 3B 3O", ["2R 2B 2O", "3R 3B 3O"], first=False)
    assert not check.ok and check.code == "initial_meld_too_low"
    assert check.params == {"value": 15, "need": 30}


def test_initial_meld_20_for_children():
    kids = get_rulebook("rummikub", initial_meld=20)
    assert not lay(kids, [], "5R 6R 7R 2B", ["5R 6R 7R"], first=False).ok  # 18
    assert lay(kids, [], "6R 7R 8R", ["6R 7R 8R"], first=False).ok  # 21
    assert not lay(RK, [], "6R 7R 8R", ["6R 7R 8R"], first=False).ok


def test_initial_meld_joker_counts_as_the_tile_it_replaces():
    # 9 + 10 + 11 (the joker) = 30
    assert lay(RK, [], "9R 10R *", ["9R 10R *11R"], first=False).ok
    short = lay(RK, [], "8R 9R *", ["8R 9R *7R"], first=False)  # 24
    assert short.code == "initial_meld_too_low" and short.params["value"] == 24
    assert not lay(RK, [], "8R 9R *", ["8R 9R *10R"], first=False).ok  # 27
    # (as the penalty the same joker is worth 30, and 8 + 9 + 30 would be enough)


def _done(rules, rack: str, groups: list[str], choices=None, *, first: bool = False):
    """Done on a working copy of new combinations from the rack (an empty table)."""
    state = start_position(rules, [T(rack), T("1O")], stock=T("3O 4O"), first_lay_done=first)
    move = tuple(tuple(T(g)) for g in groups)
    after, _ = apply(state, Commit(0, move, choices or {}))
    return sorted(" ".join(map(str, g)) for g in after.table)


def test_initial_meld_joker_reading_that_reaches_30_is_taken_at_done():
    """Issue 27: `9R 10R *` is 30 with the joker as 11R; Done judged only its first reading
    (8R, 27) and refused. The one reading that makes the move legal is taken silently."""
    assert _done(RK, "9R 10R * 2B", ["9R 10R *"]) == ["9R 10R *11R"]
    wrap = get_rulebook("rummikub", wrap="on")
    assert _done(wrap, "12O 13O * 2B", ["12O 13O *"]) == ["*11O 12O 13O"]  # not 1O (26)
    with pytest.raises(IllegalAction) as short:  # no reading reaches 30: the fault is told
        _done(RK, "8R 9R * 2B", ["8R 9R *"])
    assert short.value.code == "initial_meld_too_low"


def test_done_offers_only_the_joker_readings_that_make_the_move_legal():
    # `10R * *`: 8R 9R (27) is too low; 9R 11R, 11R 12R and three sets of 10s reach 30
    with pytest.raises(JokerChoiceNeeded) as ask:
        _done(RK, "10R * * 2B", ["10R * *"])
    assert ("8R", "9R") not in ask.value.options and ("11R", "12R") in ask.value.options
    assert len(ask.value.options) == 5
    assert _done(RK, "10R * * 2B", ["10R * *"], {0: ("11R", "12R")}) == ["10R *11R *12R"]
    # after the initial meld both ends are legal: the player is asked
    with pytest.raises(JokerChoiceNeeded) as both:
        _done(RK, "9R 10R * 2B", ["9R 10R *"], first=True)
    assert both.value.options == [("8R",), ("11R",)]


def test_a_typed_joker_designation_is_kept_when_the_tile_is_placed():
    wrap = get_rulebook("rummikub", wrap="on")
    state = start_position(wrap, [T("12O 13O * 2B"), T("1O")], stock=T("3O"))
    placed, _ = apply(state, Place(0, tuple(T("12O 13O *11O")), None))
    assert [str(t) for t in placed.draft.groups[0]] == ["*11O", "12O", "13O"]
    done, _ = apply(placed, Commit(0, None, {}))
    assert [str(t) for t in done.table[0]] == ["*11O", "12O", "13O"]


def test_initial_meld_uses_no_table_tile_and_adds_to_no_combination():
    table = ["10B 11B 12B"]
    added = lay(RK, table, "13B 1K 2K 3K 9K 10K 11K",
                ["10B 11B 12B 13B", "9K 10K 11K"], first=False)
    assert added.code == "initial_meld_table_touched"  # 30 from the rack, but 13B was added
    ok = lay(RK, table, "13B 9K 10K 11K", ["10B 11B 12B", "9K 10K 11K"], first=False)
    assert ok.ok
    borrowed = lay(RK, ["7K 8K 9K 10K"], "11K 12K",
                   ["7K 8K 9K", "10K 11K 12K"], first=False)  # 33 with a table tile
    assert borrowed.code == "initial_meld_table_touched"


def test_initial_turn_may_add_once_the_meld_is_down():
    may = get_rulebook("rummikub", initial_turn="may_add")
    table = ["10B 11B 12B"]
    assert lay(may, table, "13B 9K 10K 11K", ["10B 11B 12B 13B", "9K 10K 11K"],
               first=False).ok
    # the addition doesn't count towards the 30
    short = lay(may, table, "13B 9K 10K", ["10B 11B 12B 13B", "8K 9K 10K"], first=False)
    assert not short.ok
    assert lay(RK, table, "13B 9K 10K 11K", ["10B 11B 12B 13B", "9K 10K 11K"],
               first=False).code == "initial_meld_table_touched"


def test_until_the_initial_meld_a_player_draws_when_they_cannot_lay():
    state = start_position(RK, [T("1R 2B 5O"), T("9K")], stock=T("4K 6K"))
    assert state.first_lay_done == [False, False]
    with pytest.raises(IllegalAction) as refused:
        apply(state, Commit(0, (tuple(T("1R 2B 5O")),)))
    assert refused.value.code.startswith("group_invalid")
    after, _ = apply(state, Draw(0))
    assert len(after.hands[0]) == 4 and after.turn == 1


# -- the regular turn -----------------------------------------------------------------------


def test_draw_or_lay_never_both():
    state = start_position(RK, [T("10R 11R 12R 5B"), T("9K 9B")], stock=T("4K 6K 7K"),
                           first_lay_done=True)
    after, _ = apply(state, Draw(0))  # drawing ends the turn: no lay after it
    assert after.turn == 1
    with pytest.raises(IllegalAction) as refused:
        apply(after, Commit(0, (tuple(T("10R 11R 12R")),)))
    assert refused.value.code == "not_your_turn"
    laid, _ = apply(state, Commit(0, (tuple(T("10R 11R 12R")),)))
    assert laid.turn == 1 and len(laid.hands[0]) == 1  # laying draws nothing
    assert len(laid.stock) == 3


def test_a_tile_on_the_table_never_returns_to_a_rack():
    check = lay(RK, ["3R 4R 5R 6R"], "9K 9B 9O", ["3R 4R 5R", "9K 9B 9O"])
    assert check.code == "table_card_to_hand"


def test_issue_rearranging_3_to_6_red_and_9s_with_6_blue_and_6_black():
    table = ["3R 4R 5R 6R", "9K 9B 9O"]
    check = lay(RK, table, "6B 6K", ["3R 4R 5R", "6R 6B 6K", "9K 9B 9O"])
    assert check.ok and check.needs_rearranging


def test_issue_2_to_7_blue_with_5_red_and_5_black_needs_an_8_blue():
    table = ["2B 3B 4B 5B 6B 7B"]
    without = lay(RK, table, "5R 5K", ["2B 3B 4B", "5B 5R 5K", "6B 7B"])
    assert without.code == "group_too_small"  # 6-7 blue alone is no run
    with_8 = lay(RK, table, "5R 5K 8B", ["2B 3B 4B", "5B 5R 5K", "6B 7B 8B"])
    assert with_8.ok


# -- failed rearrangement, the timer ------------------------------------------------------------


def _changed_copy(rules, first_lay_done=True):
    state = start_position(rules, [T("3R 4R 8K"), T("9K")], table=[T("5R 6R 7R")],
                           stock=T("1O 2O 3O 4O 5O"), first_lay_done=first_lay_done)
    state, _ = apply(state, Place(0, tuple(T("8K")), 0))  # the copy now differs
    return state


@pytest.mark.parametrize("option, drawn", [("draw_3", 3), ("draw_1", 1)])
def test_failed_rearrangement_restores_the_table_and_draws_the_penalty(option, drawn):
    rules = get_rulebook("rummikub", failed_move=option)
    state = _changed_copy(rules)
    with pytest.raises(IllegalAction) as refused:
        apply(state, Reset(0))
    assert refused.value.code == "reset_is_give_up"
    with pytest.raises(IllegalAction) as no_draw:
        apply(state, Draw(0))
    assert no_draw.value.code == "give_up_first"
    armed, events = apply(state, GiveUp(0))
    assert events[0].kind == "give_up_confirm"
    done, _ = apply(armed, GiveUp(0))
    assert [str(t) for t in done.table[0]] == ["5R", "6R", "7R"]
    assert len(done.hands[0]) == 3 + drawn and done.turn == 1 and len(done.stock) == 5 - drawn


def test_failed_move_reset_costs_nothing():
    rules = get_rulebook("rummikub", failed_move="reset")
    state = _changed_copy(rules)
    with pytest.raises(IllegalAction) as refused:
        apply(state, GiveUp(0))
    assert refused.value.code == "no_give_up"
    back, _ = apply(state, Reset(0))
    assert back.draft is None and len(back.hands[0]) == 3 and back.turn == 0


def test_turn_timer_60_gives_up_a_changed_copy_and_draws_on_an_unchanged_one():
    timed = get_rulebook("rummikub", turn_timer=60)
    assert timed.turn_seconds == 60 and RK.turn_seconds == 0
    state = _changed_copy(timed)
    after, events = apply(state, TimeUp(0))
    assert events[0].kind == "time_up"
    assert len(after.hands[0]) == 6 and after.turn == 1 and after.table == state.table
    fresh = start_position(timed, [T("3R"), T("9K")], stock=T("1O 2O"), first_lay_done=True)
    after, _ = apply(fresh, TimeUp(0))
    assert len(after.hands[0]) == 2 and after.turn == 1
    with pytest.raises(IllegalAction) as refused:
        apply(start_position(RK, [T("3R"), T("9K")], stock=T("1O")), TimeUp(0))
    assert refused.value.code == "no_turn_timer"


# -- jokers ---------------------------------------------------------------------------------


def test_two_jokers_in_one_combination_are_allowed():
    assert lay(RK, [], "4B * *", ["4B *5B *6B"]).ok
    assert lay(RK, [], "12O * *", ["12O *12R *12B"]).ok


def test_joker_retrieved_by_the_tile_it_stands_for_from_the_rack():
    table = ["5R 6R *7R"]
    ok = lay(RK, table, "7R 9K 10K", ["5R 6R 7R", "9K 10K *11K"])
    assert ok.ok
    wrong = lay(RK, table, "4R 9K 10K", ["4R 5R 6R", "9K 10K *11K"])
    assert wrong.code == "joker_needs_rack_tile"  # 4R is not the tile it stands for


def test_joker_in_a_3_group_freed_by_either_missing_colour_in_a_4_group_only_its_own():
    three = ["7R 7B *7K"]
    assert lay(RK, three, "7K 2O 3O", ["7R 7B 7K", "2O 3O *4O"]).ok
    assert lay(RK, three, "7O 2O 3O", ["7R 7B 7O", "2O 3O *4O"]).ok  # the other colour
    four = ["7R 7B 7O *7K"]
    assert lay(RK, four, "7K 2O 3O", ["7R 7B 7O 7K", "2O 3O *4O"]).ok
    group3, group4 = T(three[0]), T(four[0])
    assert freeing_faces(group3, group3[2]) == {"7K", "7O"}
    assert freeing_faces(group4, group4[3]) == {"7K"}
    run = T("6O *7O 8O")
    assert freeing_faces(run, run[1]) == {"7O"}


def test_a_3_tile_group_joker_floats_either_missing_colour_may_be_added():
    """Issue 27 / decision 3: after `5R 5K *` nobody names the joker's colour; a real 5B or
    5O may be added (the joker is then the last colour), and either frees it."""
    state = start_position(RK, [T("5R 5K * 9O"), T("5B 5O 2K 3K 9B")], stock=T("1O 2O 3O"),
                           first_lay_done=True)
    laid, events = apply(state, Commit(0, (tuple(T("5R 5K *")),), {}))  # no question asked
    assert events[0].kind == "laid" and laid.turn == 1
    for colour, last in (("5B", "*5O"), ("5O", "*5B")):
        added, _ = apply(laid, Place(1, tuple(T(colour)), 0))
        assert is_meld(RK, added.draft.groups[0])  # the working copy shows it valid at once
        done, _ = apply(added, Commit(1, None, {}))
        group = [str(t) for t in done.table[0]]
        assert sorted(group) == sorted(["5R", "5K", colour, last]), group
    # either missing colour frees it (the freed joker goes into a new run with rack tiles)
    for colour in ("5B", "5O"):
        move = (tuple(T(f"5R 5K {colour}")), (*T("2K 3K"), laid.table[0][-1].free()))
        freed, _ = apply(laid, Commit(1, move, {1: ("4K",)}))
        assert sorted(sorted(map(str, g)) for g in freed.table) == sorted(
            [sorted(["5R", "5K", colour]), ["*4K", "2K", "3K"]])


def test_a_floating_joker_may_become_the_last_colour_in_check_move():
    assert lay(RK, ["5R 5K *5B"], "5B", ["5R 5K 5B *5O"]).ok
    assert lay(RK, ["5R 5K *5B"], "5O", ["5R 5K *5B 5O"]).ok
    # it turns the last colour only with its group: moved elsewhere as that colour it is
    # freed (by the 5B), and a freed joker goes into a new combination with rack tiles only
    moved = lay(RK, ["5R 5K *5B", "6O 7O 8O"], "5B", ["5R 5K 5B", "*5O 6O 7O 8O"])
    assert moved.code == "freed_joker_needs_new_group"
    # in a 4-tile group it stands for one colour: that colour can't be added beside it
    assert not lay(RK, ["5R 5K 5O *5B"], "5B 2K 3K", ["5R 5K 5O *5B", "5B 2K 3K"]).ok


def test_a_tile_already_on_the_table_never_frees_a_joker():
    table = ["5R 6R *7R", "7R 8R 9R 10R"]
    check = lay(RK, table, "11K 12K", ["5R 6R 7R", "8R 9R 10R", "11K 12K *13K"])
    assert check.code == "joker_needs_rack_tile"


def test_freed_joker_goes_into_a_new_combination_with_two_rack_tiles():
    table = ["5R 6R *7R", "9K 10K 11K"]
    onto_old = lay(RK, table, "7R", ["5R 6R 7R", "9K 10K 11K *12K"])
    assert onto_old.code == "freed_joker_needs_new_group"
    one_rack_tile = lay(RK, ["5R 6R *7R", "9K 10K 11K 12K"], "7R 13K",
                        ["5R 6R 7R", "9K 10K 11K", "*11K 12K 13K"])
    assert one_rack_tile.code == "freed_joker_needs_new_group"  # 12K came from the table
    kept_on_rack = lay(RK, table, "7R", ["5R 6R 7R", "9K 10K 11K"])
    assert kept_on_rack.code == "table_card_to_hand"


def test_no_joker_retrieval_before_the_initial_meld():
    table = ["5R 6R *7R"]
    check = lay(RK, table, "7R 11K 12K 13K", ["5R 6R 7R", "11K 12K 13K *10K"], first=False)
    assert check.code == "initial_meld_table_touched"


def test_a_table_joker_keeps_its_tile_when_its_combination_moves():
    table = ["5R 6R *7R 8R 9R"]
    assert lay(RK, table, "10R", ["5R 6R *7R", "8R 9R 10R"]).ok
    changed = lay(RK, table, "4R", ["4R 5R 6R", "*7R 8R 9R"])
    assert changed.ok
    renamed = lay(RK, ["*5R 6R 7R"], "8R", ["6R 7R 8R *9R"])
    assert renamed.code == "joker_needs_rack_tile"  # it stood for 5R: no 5R was laid


def test_commit_frees_a_joker_and_designates_it_anew():
    state = start_position(RK, [T("7R 9K 10K 2B"), T("1O")], table=[T("5R 6R *7R")],
                           stock=T("3O"), first_lay_done=True)
    new = (tuple(T("5R 6R 7R")), tuple(T("9K 10K *")))
    after, _ = apply(state, Commit(0, new, {1: ("11K",)}))
    groups = sorted(" ".join(map(str, g)) for g in after.table)
    assert groups == ["5R 6R 7R", "9K 10K *11K"]
    assert after.hands[0] == T("2B")


# -- the end, scoring, rounds ---------------------------------------------------------------


def test_going_out_winner_plus_others_minus_joker_30():
    score = score_round(RK, [[], T("5R 13B"), T("* 2K")], went_out=0)
    assert score.points == (18 + 32, -18, -32) and score.winners == (0,)
    assert RK.card_value(T("*")[0]) == 30 and RK.card_value(T("13O")[0]) == 13


def test_pool_exhausted_lowest_sum_wins_by_the_differences():
    score = score_round(RK, [T("5R"), T("3B 4B"), T("10K")])
    assert score.winners == (0,) and score.how == "blocked"
    assert score.points == (0 + 2 + 5, -2, -5)


def test_pool_exhausted_tied_lowest_each_score_as_a_winner():
    score = score_round(RK, [T("5R"), T("2B 3B"), T("9K")])
    assert score.winners == (0, 1) and score.points == (4, 4, -4)


def test_pool_empty_players_pass_and_the_round_ends_when_all_passed():
    state = start_position(RK, [T("5R"), T("9K 1B")], stock=[], first_lay_done=True)
    with pytest.raises(IllegalAction):
        apply(state, Draw(0))
    state, _ = apply(state, Pass(0))
    assert state.phase == "play"
    state, _ = apply(state, Pass(1))
    assert state.phase == "game_over"
    assert state.rounds[-1]["points"] == [5, -5] and state.result["winners"] == [0]


def test_going_out_ends_the_round_and_scores():
    state = start_position(RK, [T("10R 11R 12R"), T("9K *")], stock=T("1B"),
                           first_lay_done=True)
    state, _ = apply(state, Commit(0, (tuple(T("10R 11R 12R")),)))
    assert state.phase == "game_over" and state.rounds[-1]["points"] == [39, -39]


@pytest.mark.parametrize("rounds", [1, 3, 5])
def test_rounds_then_the_highest_total_wins(rounds):
    rules = get_rulebook("rummikub", rounds=rounds)
    assert rules.higher_is_better and rules.round_count == rounds
    state = new_game(rules, 2, seed=3)
    first = state.turn
    for r in range(1, rounds + 1):
        # the seat on turn holds 10-11-12 red and goes out; the other keeps a 5 (or a 2)
        out = state.turn
        state.hands[out] = T("10R 11R 12R")
        state.hands[1 - out] = T("5B") if out == first else T("2B")
        state.first_lay_done = [True, True]
        state, _ = apply(state, Commit(out, (tuple(state.hands[out]),)))
        if r < rounds:
            assert state.phase == "round_over" and state.result is None
            state, _ = apply(state, NextRound(0))
    assert state.phase == "game_over"
    mine, theirs = (rounds + 1) // 2, rounds // 2  # the starter wins rounds 1, 3, 5
    totals = [0, 0]
    totals[first] = 5 * mine - 2 * theirs
    totals[1 - first] = 2 * theirs - 5 * mine
    assert state.scores == totals and state.result["winners"] == [first]


def test_a_tie_for_the_highest_total_is_a_shared_win():
    rules = get_rulebook("rummikub")
    state = start_position(rules, [T("5R"), T("5B")], stock=[], first_lay_done=True)
    state, _ = apply(state, Pass(0))
    state, _ = apply(state, Pass(1))
    assert state.result == {"winners": [0, 1], "totals": [0, 0], "draw": True}


# -- options ---------------------------------------------------------------------------------


def test_options_and_their_defaults():
    assert dict(RK.options) == {"initial_meld": 30, "initial_turn": "own_only",
                                "failed_move": "draw_3", "turn_timer": "off", "wrap": "off",
                                "rounds": 1}
    every = get_rulebook("rummikub", initial_meld="20", initial_turn="may_add",
                         failed_move="draw_1", turn_timer="60", wrap="on", rounds="5")
    assert (every.first_lay_points, every.initial_may_add, every.give_up_draw,
            every.turn_seconds, every.ace, every.round_count) == (20, True, 1, 60, "wrap", 5)


@pytest.mark.parametrize("options", [
    {"initial_meld": 25}, {"initial_turn": "anything"}, {"failed_move": "draw_2"},
    {"turn_timer": 30}, {"wrap": "yes"}, {"rounds": 2}, {"must_lay": "remind"},
    {"play_to": 200},
])
def test_unknown_options_and_values_are_refused(options):
    with pytest.raises(ValueError):
        get_rulebook("rummikub", **options)


def test_new_refusal_codes_are_listed():
    for code in ("initial_meld_table_touched", "initial_meld_too_low", "joker_needs_rack_tile",
                 "freed_joker_needs_new_group", "no_turn_timer"):
        assert code in REASONS


# -- issue 45: a table joker is freed only by its tile from the rack --------------------------
# Positions from seeded computer games the old engine accepted; each is refused with its reason,
# and the legal form beside it (the tile from the rack frees the joker, which goes into a new
# combination with two rack tiles) is accepted.


def test_a_table_tile_that_takes_a_jokers_place_does_not_free_it():
    table = ["8R 9R 10R", "9K *9R 9B"]
    rack = "4R 1R 5K 7R 7R 5R 6B 10B 1B 13B 5R"
    swapped = lay(RK, table, rack, ["7R 8R *9R 10R", "9K 9R 9B"])
    assert swapped.code == "joker_left_group", swapped.reason
    assert swapped.params["face"] == "9R" and swapped.params["frees"] == ["9O", "9R"]
    assert "9R" in swapped.reason and "rack" in swapped.reason
    # the joker stays with its group and the run takes the 7R: the same faces, legal
    assert lay(RK, table, rack, ["7R 8R 9R 10R", "9K *9R 9B"]).ok


def test_a_joker_never_leaves_its_group_of_three_with_no_tile_from_the_rack():
    table = ["*10K 10B 10O", "11K 12K 13K", "11B 12B 13B", "11O 12O 13O"]
    new = ["*10K 11K 12K 13K", "10B 11B 12B 13B", "10O 11O 12O 13O", "3R 4R 5R"]
    assert lay(RK, table, "3R 4R 5R", new).code == "joker_left_group"
    # its 10K (or the other missing colour, 10R) from the rack frees it into a new run
    for tile in ("10K", "10R"):
        freed = ["11K 12K 13K", "11B 12B 13B", "11O 12O 13O", f"{tile} 10B 10O", "3R 4R *5R"]
        assert lay(RK, table, f"{tile} 3R 4R", freed).ok, tile


def test_a_joker_does_not_swap_places_with_a_table_tile_of_its_face():
    table = ["*13K 13R 13B", "11K 12K 13K"]
    moved = lay(RK, table, "10K", ["13K 13R 13B", "10K 11K 12K *13K"])
    assert moved.code == "joker_left_group"
    assert lay(RK, table, "10K", ["*13K 13R 13B", "10K 11K 12K 13K"]).ok


def test_a_freed_joker_needs_two_rack_tiles_in_its_new_combination():
    table = ["12K 12O *12R", "7R 8R 9R 10R"]
    one = lay(RK, table, "12B 11R", ["12K 12O 12B", "7R 8R 9R", "10R 11R *12R"])
    assert one.code == "freed_joker_needs_new_group"  # 10R came from the table
    two = lay(RK, table, "12B 11R 10R", ["12K 12O 12B", "7R 8R 9R 10R", "10R 11R *12R"])
    assert two.ok
    # the tile that frees the joker is not one of the two: it took the joker's place
    spent = lay(RK, ["12K 12O *12R"], "12B 12R 13R", ["12K 12O 12B", "*11R 12R 13R"])
    assert spent.ok  # 12B freed it; 12R 13R are the two
    short = lay(RK, ["12K 12O *12R", "10B 11B 12B"], "12B 9B",
                ["12K 12O 12B", "*8B 9B 10B 11B 12B"])  # an old run and one rack tile
    assert short.code == "freed_joker_needs_new_group"


def test_a_joker_moves_with_its_combination_split_or_grown():
    run = ["4R 5R *6R 7R 8R 9R"]
    assert lay(RK, run, "10R", ["4R 5R *6R", "7R 8R 9R 10R"]).ok
    assert lay(RK, run, "3R", ["3R 4R 5R", "*6R 7R 8R 9R"]).ok
    # alone with tiles from the rack it has left its combination: that needs its 6R
    left = lay(RK, ["*5R 6R 7R 8R"], "3R 4R", ["3R 4R *5R", "6R 7R 8R"])
    assert left.code == "joker_left_group"


def test_a_rack_joker_laid_beside_a_table_joker_does_not_take_its_place():
    """Issue 45, found by the referee: a computer laid its rack joker (as 2O) and kept the
    table joker in its group; resolving the arrangement gave the table joker to the new group
    and the rack joker to the old one — the same faces, but not where each joker came from."""
    from engine.rummy.tiles import Tile

    table_joker, rack_joker = Tile(0, "", 0).designate(12, "S"), Tile(0, "", 1)
    state = start_position(RK, [[rack_joker, *T("2K 2B 12O 5R")], T("1O")],
                           table=[[table_joker, *T("12R 12B")]], stock=T("3O"),
                           first_lay_done=True)
    laid = ((*T("2K 2B"), rack_joker.designate(2, "C")),
            (table_joker, *state.table[0][1:], T("12O")[0]))
    after, _ = apply(state, Commit(0, laid, {}))
    where = {c.ident: sorted(map(str, g)) for g in after.table for c in g if c.is_joker}
    assert where[table_joker.ident] == sorted(["*12K", "12R", "12B", "12O"])
    assert where[rack_joker.ident] == sorted(["2K", "2B", "*2O"])
