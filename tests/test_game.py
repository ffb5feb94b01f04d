"""The game loop, turn style by turn style, on scripted deals (RULES.md §1–2, §4.3–4.8)."""

import pytest

from engine.rummy import (
    Commit,
    Draw,
    Finish,
    GiveUp,
    IllegalAction,
    JokerChoiceNeeded,
    Knock,
    Move,
    NextRound,
    Pass,
    Place,
    Reset,
    Split,
    Take,
    apply,
    conservation_errors,
    get_rulebook,
    legal_actions,
    new_game,
    parse_cards,
    player_view,
)
from engine.rummy.game import hint_line, replay
from engine.rummy.scenario import deal_scenario
from engine.rummy.state import GameState
from engine.rummy.tiles import piece_from_token

P = parse_cards


def groups(*texts):
    return tuple(tuple(P(t)) for t in texts)


def play(state, *actions):
    events = []
    for action in actions:
        state, evs = apply(state, action)
        events += evs
        assert conservation_errors(state) == []
    return state, events


def kinds(events):
    return [e.kind for e in events]


def faces(cards):
    return sorted(c.face for c in cards)


# -- dealing ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("manipulation", 7),
        ("machiavelli", 13),
        ("shanghai", 10),
        ("guadeloupe", 5),
        ("carousel", 10),
        ("vatican", 13),
        ("tahiti", 5),
    ],
)
def test_deal(name, size):
    state = new_game(name, 3, seed=5)
    assert [len(h) for h in state.hands] == [size] * 3
    assert conservation_errors(state) == []
    assert len(state.singles) == (4 if name == "tahiti" else 0)


def test_carousel_two_player_deck():
    state = new_game("carousel", 2, seed=1)
    assert len(state.stock) + 20 == 53


def test_seats_two_to_five():
    with pytest.raises(ValueError, match="2 to 5"):
        new_game("manipulation", 1, seed=1)
    with pytest.raises(ValueError, match="2 to 5"):
        new_game("manipulation", 6, seed=1)


def test_same_seed_same_deal_and_rounds_differ():
    a, b = new_game("machiavelli", 2, seed=9), new_game("machiavelli", 2, seed=9)
    assert a.to_json() == b.to_json()
    assert new_game("machiavelli", 2, seed=10).hands != a.hands


def test_shanghai_batches_of_3_3_3_1():
    # Dealing batch by batch: the starter's first three cards are the top three of the deck.
    state = new_game("shanghai", 2, seed=3)
    assert [len(h) for h in state.hands] == [10, 10]


# -- common rules -------------------------------------------------------------------------


def trust(name="manipulation"):
    return get_rulebook(name, must_lay="trust")


def test_lay_ends_turn_and_a_table_card_never_returns():
    state = deal_scenario(trust(), ["5H 6H 7H 2C", "KS KD 3C"], table=["9S 9H 9D"])
    state, events = play(state, Commit(0, groups("9S 9H 9D", "5H 6H 7H")))
    assert "laid" in kinds(events) and state.turn == 1
    assert faces(state.hands[0]) == ["2C"]
    with pytest.raises(IllegalAction, match="never go back"):
        apply(state, Commit(1, groups("9S 9H 9D", "5H 6H")))


def test_wrong_turn_and_wrong_seat():
    state = deal_scenario(trust(), ["5H 6H 7H", "KS KD"], table=[])
    with pytest.raises(IllegalAction, match="not your turn"):
        apply(state, Draw(1))
    with pytest.raises(IllegalAction, match="seat"):
        apply(state, Draw(7))


def test_apply_does_not_change_its_argument():
    state = deal_scenario(trust(), ["5H 6H 7H 2C", "KS KD"], table=[])
    before = state.to_json()
    apply(state, Commit(0, groups("5H 6H 7H")))
    assert state.to_json() == before


def test_draw_does_not_end_the_turn_in_manipulation():
    # §4.3: draw zero or more cards, then lay.
    state = deal_scenario(trust(), ["2C 5D", "KS KD"], stock_top="9C 4S")
    state, _ = play(state, Draw(0), Draw(0))
    assert state.turn == 0 and faces(state.hands[0]) == ["2C", "4S", "5D", "9C"]
    assert "commit" in legal_actions(state, 0)


def test_pass_only_when_stock_is_empty():
    state = deal_scenario(trust(), ["2C 5D", "KS KD"])
    with pytest.raises(IllegalAction, match="only when the stock is empty"):
        apply(state, Pass(0))
    state.stock = []
    with pytest.raises(IllegalAction, match="pass instead"):
        apply(state, Draw(0))


def _empty_stock(state: GameState, into: int = 0) -> GameState:
    # Keep cards conserved: the stock goes into a hand.
    state.hands[into] += state.stock
    state.stock = []
    return state


def test_blocked_round_when_everyone_passes_in_a_row():
    # §4.6: once every player has passed in a row, the round ends at once.
    state = _empty_stock(deal_scenario(trust(), ["2C 5D", "KS 3D", "4H 8C"]), into=2)
    state, _ = play(state, Pass(0), Pass(1))
    assert state.phase == "play"
    state, _ = play(state, Pass(2))
    assert state.phase != "play"  # the stock went into a hand: that hand may pass the target
    assert state.rounds[-1]["how"] == "blocked"


def test_laying_resets_the_pass_count():
    state = _empty_stock(deal_scenario(trust(), ["2C 5D", "KS 3D 6H 7H 8H", "4H 8C"]), into=0)
    state, _ = play(state, Pass(0), Commit(1, groups("6H 7H 8H")), Pass(2), Pass(0))
    assert state.phase == "play"  # passes: 2 in a row only


def test_going_out_ends_the_round_and_scores():
    state = deal_scenario(trust(), ["5H 6H 7H", "KS AD 3C"])
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert state.phase == "round_over"
    assert state.rounds[-1]["points"] == [0, 10 + 15 + 5]
    assert state.scores == [0, 30]


def test_manipulation_plays_to_the_target_and_lowest_wins():
    state = deal_scenario(trust(), ["5H 6H 7H", "KS AD 3C"])
    state.scores = [150, 190]
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert state.phase == "game_over"
    assert state.result["winners"] == [0]


def test_manipulation_tie_for_lowest_plays_another_round():
    state = deal_scenario(trust(), ["5H 6H 7H", "KS AD 3C", "2S"])
    state.scores = [205, 175, 200]  # after: 205, 205, 205
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert state.scores == [205, 205, 205]
    assert state.phase == "round_over"
    state, _ = play(state, NextRound(1))
    assert state.phase == "play" and state.round == 2


def test_play_to_300():
    state = deal_scenario(
        get_rulebook("manipulation", must_lay="trust", play_to=300), ["5H 6H 7H", "KS AD 3C"]
    )
    state.scores = [150, 190]
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert state.phase == "round_over"


# -- the private copy ---------------------------------------------------------------------


def test_draft_edits_then_done():
    state = deal_scenario(trust(), ["7H 2C", "KS KD"], table=["5H 6H 7H 8H 9H"])
    state, _ = play(state, Split(0, 0, 3))  # 5H 6H 7H | 8H 9H
    state, _ = play(state, Place(0, tuple(P("7H")), 1))
    view = player_view(state, 0)
    assert [faces(g) for g in view.draft.groups] == [["5H", "6H", "7H"], ["7H", "8H", "9H"]]
    assert state.table == [list(g) for g in state.table]  # the real table is untouched
    assert len(state.table) == 1
    state, _ = play(state, Commit(0))
    assert len(state.table) == 2 and faces(state.hands[0]) == ["2C"]


def test_draft_take_and_loose_cards_must_be_placed():
    state = deal_scenario(trust(), ["7S 7D 2C", "KS KD"], table=["4S 5S 6S 7S"])
    state, _ = play(state, Take(0, 0, P("7S")[0]))
    with pytest.raises(IllegalAction, match="loose cards"):
        apply(state, Commit(0))
    state, _ = play(state, Place(0, tuple(P("7S 7D")), None))
    with pytest.raises(IllegalAction, match="Group B"):
        apply(state, Commit(0))  # 7S 7D: only two cards
    state, _ = play(state, Move(0, tuple(P("7D")), 1, None), Reset(0))
    assert state.draft is None


def test_draft_survives_json_round_trip():
    state = deal_scenario(trust(), ["7H 2C", "KS KD"], table=["5H 6H 7H 8H 9H"])
    state, _ = play(state, Split(0, 0, 3), Place(0, tuple(P("7H")), 1))
    again = GameState.from_json(state.to_json())
    assert again.to_json() == state.to_json()
    assert again.draft == state.draft


def test_draft_names_missing_groups_and_cards():
    state = deal_scenario(trust(), ["7H 2C", "KS KD"], table=["5H 6H 7H"])
    with pytest.raises(IllegalAction, match="no group C"):
        apply(state, Place(0, tuple(P("7H")), 2))
    with pytest.raises(IllegalAction, match="no 8"):
        apply(state, Place(0, tuple(P("8H")), 0))


# -- draw or play (Machiavelli, Vatican, Tahiti) --------------------------------------------


def test_machiavelli_draw_ends_the_turn():
    state = deal_scenario("machiavelli", ["2C 5D", "KS KD"], stock_top="9C")
    state, _ = play(state, Draw(0))
    assert state.turn == 1 and faces(state.hands[0]) == ["2C", "5D", "9C"]


def test_machiavelli_reset_no_penalty():
    state = deal_scenario("machiavelli", ["7H 2C", "KS KD"], table=["5H 6H 7H 8H 9H"])
    state, _ = play(state, Split(0, 0, 3), Reset(0))
    assert state.draft is None and state.turn == 0 and len(state.hands[0]) == 2
    with pytest.raises(IllegalAction, match="no Give up"):
        apply(state, GiveUp(0))


def give_back(name="machiavelli"):
    return get_rulebook(name, unfinished_move="give_back_draw_3")


def test_give_up_plus_three_needs_two_taps_and_ends_the_turn():
    state = deal_scenario(
        give_back(), ["7H 2C", "KS KD"], table=["5H 6H 7H 8H 9H"], stock_top="3S 4S 5S 6S"
    )
    state, _ = play(state, Split(0, 0, 3))
    assert "give_up" in legal_actions(state, 0) and "reset" not in legal_actions(state, 0)
    # §4.4: Draw is not offered while the private copy differs from the table.
    assert "draw" not in legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="Done, or give up"):
        apply(state, Draw(0))
    with pytest.raises(IllegalAction, match="Give up"):
        apply(state, Reset(0))
    state, events = play(state, GiveUp(0))
    assert kinds(events) == ["give_up_confirm"] and state.turn == 0
    state, _ = play(state, GiveUp(0))
    assert faces(state.hands[0]) == ["2C", "3S", "4S", "5S", "7H"]
    assert state.turn == 1 and len(state.table) == 1 and len(state.table[0]) == 5


def test_give_up_with_fewer_than_three_in_stock_draws_what_there_is():
    state = deal_scenario(give_back("tahiti"), ["7H 2C", "KS KD"], table=["5H 6H 8H"])
    rest = state.stock[:-2]
    state.hands[1] += rest
    state.stock = state.stock[-2:]
    state, _ = play(state, Split(0, 0, 1), GiveUp(0), GiveUp(0))
    assert len(state.hands[0]) == 4 and state.stock == []


def test_vatican_first_lay_in_the_game():
    state = deal_scenario("vatican", ["5H 5S 5D 6H 7H 8H 2C", "KS KD"])
    with pytest.raises(IllegalAction, match="first lay"):
        apply(state, Commit(0, groups("5H 5S 5D")))
    state, _ = play(state, Commit(0, groups("5H 5S 5D", "6H 7H 8H")))
    assert state.first_lay_done == [True, False]


def test_vatican_first_lay_with_a_joker_is_refused_before_asking_what_it_stands_for():
    """Found by playing: 6H 7H * as a first lay asked 5H or 8H, then refused the lay (RULES §2
    Vatican: a joker doesn't count as one of the three). The answer can't make it legal, so
    the refusal comes first; a legal move with the same joker is still asked about (§4.9)."""
    state = deal_scenario("vatican", ["6H 7H * 2C", "KS KD"])
    with pytest.raises(IllegalAction, match="first lay") as info:
        apply(state, Commit(0, groups("6H 7H *")))
    assert not isinstance(info.value, JokerChoiceNeeded)
    state.first_lay_done[0] = True
    with pytest.raises(JokerChoiceNeeded, match="5H or 8H"):
        apply(state, Commit(0, groups("6H 7H *")))


def test_vatican_one_or_the_other_never_both():
    state = deal_scenario("vatican", ["6H 7H 8H 2C", "KS KD"], stock_top="9C")
    state, _ = play(state, Draw(0))
    assert state.turn == 1


def test_tahiti_singles_dealt_and_used():
    state = deal_scenario("tahiti", ["6H 7H 2C", "KS KD"], singles="5H KC 9D 2S")
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert faces(state.singles) == ["2S", "9D", "KC"]
    assert [faces(g) for g in state.table] == [["5H", "6H", "7H"]]


def test_tahiti_single_can_be_placed_from_the_draft():
    state = deal_scenario("tahiti", ["6H 7H 2C", "KS KD"], singles="5H KC 9D 2S")
    state, _ = play(state, Place(0, tuple(P("5H 6H 7H")), None), Commit(0))
    assert len(state.singles) == 3


def test_tahiti_auto_place_keeps_the_unused_singles_single():
    """Found by playing: Auto-place's table (the solver lists every single as a 1-card group)
    went into the draft as it was, and Done left 9S KC 7D on the table as 1-card groups,
    shown as new groups A B C — no longer singles (RULES §2 Tahiti, §4.11)."""
    from engine.rummy import SetDraft, solver
    from engine.rummy.playout import table_errors

    state = deal_scenario("tahiti", ["6H 6D 2C", "KS KD"], singles="9S * KC 7D")
    hand = state.hands[0]
    move = solver.find_move(
        state.rules, [[c] for c in state.singles], hand, select=hand[:2], singles=state.singles
    )
    assert [len(g) for g in move.new_table].count(1) == 3
    state, _ = play(state, SetDraft(0, move.new_table))
    assert [len(g) for g in state.draft.groups] == [3] and len(state.draft.singles) == 3
    state, _ = play(state, Commit(0))
    assert sorted(faces(state.singles)) == ["7D", "9S", "KC"]
    assert [len(g) for g in state.table] == [3] and table_errors(state) == []
    assert conservation_errors(state) == []


# -- Guadeloupe ---------------------------------------------------------------------------


def test_guadeloupe_draw_two():
    state = deal_scenario("guadeloupe", ["2C 5D", "KS KD"], stock_top="9C 4S")
    state, _ = play(state, Draw(0))
    assert faces(state.hands[0]) == ["2C", "4S", "5D", "9C"] and state.turn == 1


def test_guadeloupe_play_then_draw_one():
    state = deal_scenario("guadeloupe", ["5H 6H 7H 2C", "KS KD"], stock_top="9C")
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert faces(state.hands[0]) == ["2C", "9C"] and state.turn == 1


def test_guadeloupe_going_out_draws_nothing():
    state = deal_scenario("guadeloupe", ["5H 6H 7H", "KS KD"], stock_top="9C")
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert state.phase == "game_over" and state.result["winners"] == [0]


def test_guadeloupe_one_card_left_draw_two_draws_one():
    state = deal_scenario("guadeloupe", ["2C", "KS KD"])
    state.hands[1] += state.stock[:-1]
    state.stock = state.stock[-1:]
    state, _ = play(state, Draw(0))
    assert len(state.hands[0]) == 2 and state.stock == []


# -- Carousel -----------------------------------------------------------------------------


def test_carousel_draw_first():
    state = deal_scenario("carousel", ["5H 6H 7H KC", "KS KD"], stock_top="9C 4S 2D 3D")
    with pytest.raises(IllegalAction, match="Draw a card first"):
        apply(state, Commit(0, groups("5H 6H 7H")))
    assert legal_actions(state, 0).count("draw") == 1 and "commit" not in legal_actions(state, 0)
    state, _ = play(state, Draw(0))
    state, _ = play(state, Commit(0, groups("5H 6H 7H")))
    assert state.turn == 1


def test_carousel_third_card_ends_the_turn():
    state = deal_scenario("carousel", ["5H KC", "KS KD"], stock_top="9C 4S 2D")
    state, _ = play(state, Draw(0), Draw(0))
    assert state.turn == 0
    state, _ = play(state, Draw(0))
    assert state.turn == 1 and len(state.hands[0]) == 5


def test_carousel_knock_after_laying():
    state = deal_scenario("carousel", ["5H 6H 7H 2C", "KS KD", "9S 9D"], stock_top="AD")
    state, _ = play(state, Draw(0))
    assert "knock" not in legal_actions(state, 0)  # 5H 6H 7H 2C AD in hand: 21 points
    state, events = play(state, Knock(0, groups("5H 6H 7H")))
    assert "knocked" in kinds(events) and state.phase == "round_over"
    # Knocker 3 points; others 20 and 18: 17 + 15.
    assert state.rounds[-1]["winners"] == [0]
    assert state.rounds[-1]["points"] == [17 + 15, 0, 0]


def test_carousel_knock_offered_when_draft_leaves_five_or_fewer():
    state = deal_scenario("carousel", ["5H 6H 7H 2C", "KS KD"], stock_top="AD")
    state, _ = play(state, Draw(0), Place(0, tuple(P("5H 6H 7H")), None))
    assert "knock" in legal_actions(state, 0)
    state, _ = play(state, Knock(0))
    assert state.phase == "round_over"


def test_carousel_knock_without_laying_when_hand_is_already_low():
    state = deal_scenario("carousel", ["2C", "KS KD"], stock_top="AD")
    state, _ = play(state, Draw(0))
    state, _ = play(state, Knock(0))
    assert state.rounds[-1]["winners"] == [0]


def test_carousel_cannot_knock_above_five():
    state = deal_scenario("carousel", ["9C 2C", "KS KD"], stock_top="AD")
    state, _ = play(state, Draw(0))
    with pytest.raises(IllegalAction, match="5 points or fewer"):
        apply(state, Knock(0))


def test_carousel_stock_exhausted_final_turns():
    state = deal_scenario("carousel", ["9C 2C", "KS KD", "4H 5S"])
    state.hands[2] += state.stock[:-1]
    state.stock = state.stock[-1:]
    state, _ = play(state, Draw(0))  # the last card
    assert "pass" in legal_actions(state, 0) and "draw" not in legal_actions(state, 0)
    state, _ = play(state, Pass(0))  # did not knock: one more turn each, drawer included
    assert state.final_turns == 3
    with pytest.raises(IllegalAction):
        apply(state, Draw(1))
    with pytest.raises(IllegalAction, match="Nobody may knock"):
        apply(state, Knock(1))
    state, _ = play(state, Pass(1), Pass(2))
    assert state.phase == "play" and state.turn == 0
    state, _ = play(state, Pass(0))
    assert state.phase != "play" and state.rounds[-1]["how"] == "stock"


def test_carousel_joker_designation_is_asked_when_several_fit():
    state = deal_scenario("carousel", ["9S 9H * 2C", "KS KD"], stock_top="4D")
    state, _ = play(state, Draw(0))
    with pytest.raises(JokerChoiceNeeded) as info:
        apply(state, Commit(0, groups("9S 9H *")))
    assert info.value.options == [("9D",), ("9C",)] or sorted(info.value.options) == [
        ("9C",),
        ("9D",),
    ]
    state, _ = play(state, Commit(0, groups("9S 9H *"), {0: ("9C",)}))
    assert [str(c) for c in state.table[0]] == ["9S", "9H", "*9C"]


def test_carousel_joker_fixed_automatically_when_forced():
    state = deal_scenario("carousel", ["5H * 7H 2C", "KS KD"], stock_top="4D")
    state, _ = play(state, Draw(0), Commit(0, groups("5H * 7H")))
    assert [str(c) for c in state.table[0]] == ["5H", "*6H", "7H"]


def test_carousel_freed_joker_is_fixed_anew():
    state = deal_scenario("carousel", ["6H 8H 2C", "KS KD"], table=["5H *6H 7H"], stock_top="4D")
    state, _ = play(state, Draw(0))
    with pytest.raises(JokerChoiceNeeded, match="4H or 9H"):
        apply(state, Commit(0, groups("5H 6H 7H 8H *")))
    state, _ = play(state, Commit(0, groups("5H 6H 7H 8H *"), {0: ("9H",)}))
    assert [str(c) for c in state.table[0]] == ["5H", "6H", "7H", "8H", "*9H"]


def test_carousel_game_end_at_150():
    # Going out scores 20 + 25; reaching 150 scores 100 more; 25 a round won.
    state = deal_scenario("carousel", ["5H 6H 7H", "KS KD"], stock_top="8H")
    state.scores = [140, 20]
    state.round_wins = [2, 1]
    state, _ = play(state, Draw(0), Commit(0, groups("5H 6H 7H 8H")))
    assert state.phase == "game_over"
    assert state.result["totals"] == [185 + 100 + 75, 20 + 25]
    assert state.result["winners"] == [0]


# -- Shanghai -----------------------------------------------------------------------------


def test_shanghai_continues_until_finish():
    state = deal_scenario(get_rulebook("shanghai", must_lay="trust"), ["AH 2H 3H", "KS KD"])
    state, _ = play(state, Commit(0, groups("AH 2H 3H")))
    assert state.phase == "round_over" and state.scores == [0, 2]
    assert legal_actions(state, 1) == ["next_round", "finish"]
    state, _ = play(state, Finish(1))
    assert state.phase == "game_over" and state.result["winners"] == [0]


def test_next_round_rotates_the_starter():
    state = deal_scenario(get_rulebook("shanghai", must_lay="trust"), ["AH 2H 3H", "KS KD"])
    state, _ = play(state, Commit(0, groups("AH 2H 3H")), NextRound(0))
    assert state.round == 2 and state.turn == 1
    assert [len(h) for h in state.hands] == [10, 10]


# -- replay and save ----------------------------------------------------------------------


def test_replay_from_seed_and_actions():
    state = new_game(trust(), 2, seed=4)
    state, _ = play(state, Draw(0), Draw(0))
    again = replay(trust(), 2, 4, state.actions)
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("effort", [None, 1])
def test_hint_shows_a_playable_card_even_past_its_search_bound(monkeypatch, effort):
    """The hint's search for the fewest changed groups is bounded; past the bound it still
    shows a card that can be played (any lay), never "nothing to play" when there is."""
    from engine.rummy import Hint, game, solver

    calls = []
    real = solver.find_move

    def spy(*args, **kw):
        move = real(*args, **kw)
        calls.append((kw["objective"], move is None))
        return move

    monkeypatch.setattr(solver, "find_move", spy)
    if effort is not None:
        monkeypatch.setattr(game, "HINT_EFFORT", effort)  # the bounded search gives up
    # No card fits alone: JS JD make a set with the JH taken off the run (a search, no
    # quick answer).
    state = deal_scenario("manipulation", ["JS JD 2C", "KD 4C"], table=["JH QH KH AH"])
    state, events = apply(state, Hint(0))
    hint = events[0].private["hint"]
    assert hint["card"][:2] in ("JS", "JD") and hint["rearrange"]
    if effort is None:
        assert calls == [("hint", False)]
    else:
        assert calls == [("hint", True), ("any", False)]
    nothing = deal_scenario("manipulation", ["2C KS", "KD 4C"], table=["4H 5H 6H"])
    assert apply(nothing, Hint(0))[1][0].private["hint"] is None


def test_tahiti_hint_names_the_single_it_uses_not_a_group_letter():
    """Found by playing: with an empty table the hint said "it changes group B" — B was the
    joker single (the table's groups and the singles were numbered as one list). The hint
    names table groups by letter and singles by card, and says so in words."""
    from engine.rummy import Hint

    state = deal_scenario("tahiti", ["6H 6D 2C", "KD 4C"], table=["9S 10S JS"], singles="KC *")
    state, events = apply(state, Hint(0))
    hint = events[0].private["hint"]
    assert hint["groups"] == [] and [t[0] for t in hint["singles"]] == ["*"]
    # the whole lay (issue 27): 6♥ alone is no move, 6♥ 6♦ with the joker single is
    assert hint_line(hint) == "💡 You can play 6♥ 6♦ — with the single 🃏 from the table."
    state = deal_scenario("tahiti", ["QS 2C", "KD 4C"], table=["9S 10S JS"], singles="KC")
    hint = apply(state, Hint(0))[1][0].private["hint"]
    assert hint["groups"] == [0] and hint_line(hint) == "💡 You can play Q♠ — it changes group A."
    assert hint_line(None) == "No card of yours can be played now."


def test_the_hint_names_the_group_a_freed_joker_leaves():
    """Found by playing Tahiti: laying K♦ frees the joker from K♥ 🃏K♦ K♣ to make A♠ A♥ A♣ 🃏;
    the hint said "it changes group A" only — the kings' group looks the same by its faces,
    but its joker left (RULES §2 Tahiti: a group with a joker can't be rearranged)."""
    from engine.rummy import Hint

    state = deal_scenario("tahiti", ["KD", "KS 4C"], table=["AS AH AC", "KH *KD KC"])
    hint = apply(state, Hint(0))[1][0].private["hint"]
    assert hint["groups"] == [0, 1] and hint["rearrange"]
    assert hint_line(hint) == (
        "💡 You can play K♦ — it changes groups A and B; you need to rearrange the table."
    )


def test_an_arrangement_of_the_very_cards_resolves_like_one_of_equal_cards():
    """Done with an arrangement: a computer names the table's and hand's very Card objects
    (found at once), a person's typed or saved cards are equal copies (searched); both give the
    same groups and leave the same cards behind."""
    from engine.rummy.draft import resolve_all

    state = deal_scenario("vatican", ["7H * 2C", "KD 4C"], table=["4H 5H 6H", "9S 9D 9C"])
    table, hand = state.table, state.hands[0]
    arrangement = [[*table[0], hand[0]], list(table[1]), [hand[1].designate(8, "H"), hand[2]]]

    def run(groups):
        pools = ([c for g in table for c in g], [], list(hand))
        return [[c.token for c in g] for g in resolve_all(groups, *pools)], pools

    fast = run(arrangement)
    copies = [[piece_from_token(c.token) for c in g] for g in arrangement]
    assert not any(a is b for g, h in zip(arrangement, copies, strict=True)
                   for a, b in zip(g, h, strict=True))
    slow = run(copies)
    assert fast == slow
    assert fast[0][2] == ["*#0=8H", "2C#0"] and fast[1] == ([], [], [])
    mixed = [list(g) for g in arrangement]
    mixed[0][0] = copies[0][0]  # one equal copy among the very cards: searched card by card
    assert run(mixed) == fast


def test_laid_cards_are_told_in_the_order_their_group_shows_them():
    """The log lists laid cards as the table shows them (8♠ 9♠ 10♠), not in the hand's order
    (issue 28: `10♠ 9♠ 8♠`)."""
    state = deal_scenario(trust(), ["10S 9S 8S 2C", "KS KD 3C"], table=["9H 9C 9D"])
    state, events = play(state, Commit(0, groups("9H 9C 9D", "10S 9S 8S")))
    laid = next(e for e in events if e.kind == "laid")
    faces = [piece_from_token(t).face for t in laid.data["placed"]]
    assert faces == ["8S", "9S", "10S"]


def test_a_two_joker_sets_reading_is_chosen_as_offered_and_only_legal_ones_are_offered():
    """§4.9: Done with an ambiguous joker asks. Issue 27: the answer to a two-joker set's
    question (`9H 9D`, offered in suit order) was never accepted — the choice was compared
    sorted — so the question came back for ever; and Done offers only legal readings."""
    state = deal_scenario("vatican", ["9S * * 2C", "KS KD 3C"], first_lay_done=True)
    move = (tuple(parse_cards("9S * *")),)
    with pytest.raises(JokerChoiceNeeded) as ask:
        apply(state, Commit(0, move, {}))
    assert ("9H", "9D") in ask.value.options
    after, _ = apply(state, Commit(0, move, {0: ("9H", "9D")}))
    assert sorted(map(str, after.table[0])) == ["*9D", "*9H", "9S"]
