"""Build-to-Ten's rules (RULES.md §6 and its decisions), each with concrete cards: the worked
example step by step from a scripted deal, then every line and decision."""

from __future__ import annotations

import random

import pytest

from engine.buildten import (
    DECK,
    BuildState,
    Discard,
    Joker,
    Pass,
    Play,
    apply,
    conservation_errors,
    legal_actions,
    new_game,
    player_view,
    replay,
    scripted,
    standings,
    state_errors,
)
from engine.buildten.actions import NEW_PILE
from engine.buildten.cards import face, is_joker, number
from engine.buildten.deal import choose_first
from engine.rummy.actions import IllegalAction

RAZ, LIA, ODE = 0, 1, 2


def faces(cards) -> list[str]:
    return [face(c) for c in cards]


def tok(state: BuildState, seat: int, f: str) -> str:
    """The token of face `f` among `seat`'s playable cards."""
    mine = state.stocks[seat][:1] + state.hands[seat] + [p[-1] for p in state.discards[seat] if p]
    return next(c for c in mine if face(c) == f)


def act(state: BuildState, action) -> tuple[BuildState, list]:
    new, events = apply(state, action)
    assert state_errors(new) == []
    return new, events


def refused(state: BuildState, action, code: str) -> IllegalAction:
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        apply(state, action)
    assert info.value.code == code, str(info.value)
    assert state.to_json() == before  # a refusal changes nothing
    return info.value


def test_the_worked_example_step_by_step():
    state = scripted(
        stocks=[["2H", "6S", "10C"], ["8C", "7H", "4D"], ["9S", "9D"]],
        hands=[["3D", "KC", "5H", "9C", "8D"], ["SHIFT", "2C", "2S", "3S", "10D"], []],
        builds=[["AS"]],
        general_top=["4C"],
        turn=RAZ,
    )
    # Raz plays 2H from his stock onto the A and reveals 6S
    state, events = act(state, Play(RAZ, tok(state, RAZ, "2H"), 0))
    assert faces(state.builds[0]) == ["AS", "2H"]
    assert face(state.face_up(RAZ)) == "6S"
    assert [e.kind for e in events] == ["played", "revealed"]
    # from hand he plays 3D, then KC as the 4, then 5H
    for f in ("3D", "KC", "5H"):
        state, _ = act(state, Play(RAZ, tok(state, RAZ, f), 0))
    assert faces(state.builds[0]) == ["AS", "2H", "3D", "KC", "5H"]
    assert state.needed(0) == 6  # the KC stood for the 4, so 5 then 6
    # then the 6S from his stock
    state, _ = act(state, Play(RAZ, tok(state, RAZ, "6S"), 0))
    assert face(state.face_up(RAZ)) == "10C" and state.needed(0) == 7
    # nothing more fits: only discards are left among his moves
    assert {a.kind for a in legal_actions(state)} == {"discard"}
    state, _ = act(state, Discard(RAZ, tok(state, RAZ, "9C"), NEW_PILE))
    assert [faces(p) for p in state.discards[RAZ]] == [["9C"], [], [], []]
    assert state.turn == LIA and len(state.hands[LIA]) == 5  # she had 5: nothing drawn
    # Lia's 8C is stuck: she plays a colour joker on herself
    assert Play(LIA, tok(state, LIA, "8C"), 0) not in legal_actions(state)
    state, events = act(state, Joker(LIA, tok(state, LIA, "SHIFT"), LIA))
    assert faces(state.stocks[LIA]) == ["7H", "4D", "8C"]  # the 8C under her stock
    assert events[0].data["old"].startswith("8C") and events[0].data["new"].startswith("7H")
    assert state.turn == LIA  # a joker never ends the turn
    # the 7H is revealed, which fits the pile at 6
    state, _ = act(state, Play(LIA, tok(state, LIA, "7H"), 0))
    assert state.needed(0) == 8 and face(state.face_up(LIA)) == "4D"
    assert any(face(c) == "SHIFT" for c in state.aside)  # the used joker is set aside


# -- the deal (line 2 and decision 1) ---------------------------------------------------

@pytest.mark.parametrize(("players", "size"), [(2, 20), (3, 15), (4, 10)])
def test_the_deal(players, size):
    state = new_game(players, seed=7)
    assert [len(s) for s in state.stocks] == [size] * players
    assert len(DECK) == 100 and conservation_errors(state) == []
    assert not any(is_joker(c) for s in state.stocks for c in s)
    # shuffled in after the deal: all 4 in the general stock or the first player's hand
    assert sum(is_joker(c) for c in state.general + state.hands[state.first]) == 4
    assert not any(face(c)[0] == "J" and not is_joker(c) for c in DECK)
    # the first player took 5, nobody else anything yet
    assert [len(h) for h in state.hands] == [5 if i == state.first else 0
                                            for i in range(players)]
    assert len(state.general) == 100 - players * size - 5


def test_the_deal_comes_from_the_seed():
    assert new_game(3, 11).to_json() == new_game(3, 11).to_json()
    assert new_game(3, 11).to_json() != new_game(3, 12).to_json()


def test_two_to_four_players():
    with pytest.raises(ValueError):
        new_game(5, 1)
    with pytest.raises(ValueError):
        new_game(1, 1)


# -- the start (decision 2) -------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_the_start_has_one_highest_face_up_card(seed):
    state = new_game(2 + seed % 3, seed)
    shown = [number(state.face_up(i)) for i in range(state.players)]
    assert None not in shown  # no Q or K shows
    top = max(shown)
    assert shown.count(top) == 1 and shown[state.first] == top and state.turn == state.first


def test_wild_and_tied_players_reshuffle_until_one_is_highest():
    stocks = [["KH#0", "3C#0"], ["9S#0", "4D#0"], ["9D#0", "2S#0"]]
    first = choose_first(stocks, random.Random(3))
    assert stocks[0][0] == "3C#0"  # the K reshuffled away; its other card shows
    # the 9s tied: both reshuffled until one shows higher than the other
    assert {number(s[0]) for s in stocks[1:]} != {9} or len({s[0] for s in stocks[1:]}) == 2
    shown = [number(s[0]) for s in stocks]
    assert shown.count(max(shown)) == 1 and shown[first] == max(shown)


# -- turns: refill, sources, piles ------------------------------------------------------

def test_the_next_player_refills_to_five_from_the_general_stock():
    state = scripted([["9S"], ["9D"]], [["4C"], ["2C", "3C"]], general_top=["5D", "6D", "7D"])
    state, events = act(state, Discard(0, tok(state, 0, "4C"), NEW_PILE))
    assert faces(state.hands[1]) == ["2C", "3C", "5D", "6D", "7D"]
    assert ("drew", 1, {"cards": 3}) in [(e.kind, e.seat, e.data) for e in events]


def test_the_three_sources():
    state = scripted([["AS", "2S", "9C"], ["5D"]], [["3H", "9H"], ["5C"]],
                     discards=[[["8H", "4H"]]])
    state, _ = act(state, Play(0, tok(state, 0, "AS"), NEW_PILE))  # face-up stock card
    state, _ = act(state, Play(0, tok(state, 0, "2S"), 0))  # the one it turned up
    state, _ = act(state, Play(0, tok(state, 0, "3H"), 0))  # hand
    state, _ = act(state, Play(0, tok(state, 0, "4H"), 0))  # a discard pile's top
    assert faces(state.builds[0]) == ["AS", "2S", "3H", "4H"]
    assert faces(state.discards[0][0]) == ["8H"]
    refused(state, Play(0, state.face_up(1), 0), "card_not_available")  # another's
    refused(state, Play(0, state.hands[1][0], 0), "card_not_available")


def test_only_a_discard_top_is_played():
    state = scripted([["9S"], ["9D"]], [["7C"], []], builds=[["AS", "2S"]],
                     discards=[[["3H", "8H"]]])
    e = refused(state, Play(0, next(c for c in state.discards[0][0] if face(c) == "3H"), 0),
                "bt_not_on_top")
    assert e.params["pile"] == 0


def test_a_pile_starts_with_an_ace_or_a_wild_card_standing_for_ace():
    state = scripted([["9S"], ["9D"]], [["2C", "QH", "2D", "KD", "AC"], []])
    refused(state, Play(0, tok(state, 0, "2C"), NEW_PILE), "bt_wrong_number")
    state, events = act(state, Play(0, tok(state, 0, "QH"), NEW_PILE))
    assert events[0].data["number"] == 1 and state.needed(0) == 2
    state, _ = act(state, Play(0, tok(state, 0, "2D"), 0))
    state, events = act(state, Play(0, tok(state, 0, "KD"), 0))
    assert events[0].data["number"] == 3 and state.needed(0) == 4  # K keeps the 3


def test_exactly_the_next_number():
    state = scripted([["9S"], ["9D"]], [["4C", "3C"], []], builds=[["AS", "2S"]])
    e = refused(state, Play(0, tok(state, 0, "4C"), 0), "bt_wrong_number")
    assert e.params == {"card": tok(state, 0, "4C"), "needed": 3}
    refused(state, Play(0, tok(state, 0, "3C"), 3), "bt_wrong_number")  # an empty place: A
    refused(state, Play(0, tok(state, 0, "3C"), 4), "bt_no_such_pile")


def test_at_most_four_build_piles():
    state = scripted([["9S"], ["9D"]], [["AC", "AD"], []],
                     builds=[["AS"], ["AH"], ["QS"], ["KH", "2H"]])
    refused(state, Play(0, tok(state, 0, "AC"), NEW_PILE), "bt_no_free_pile")


def test_a_pile_reaching_ten_is_set_aside_and_its_place_frees_up():
    pile = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    state = scripted([["9D"], ["9C"]], [["10H", "AC"], []],
                     builds=[pile, ["AH"], ["AD"], ["QS"]])
    state, events = act(state, Play(0, tok(state, 0, "10H"), 0))
    assert len(state.aside) == 10
    assert "completed" in [e.kind for e in events]
    # decision 11: the place stays, empty; the other piles keep their places and numbers
    assert [[face(c) for c in b] for b in state.builds] == [[], ["AH"], ["AD"], ["QS"]]
    assert player_view(state, 1).builds[1:] == tuple(tuple(b) for b in state.builds[1:])
    state, events = act(state, Play(0, tok(state, 0, "AC"), NEW_PILE))  # the free place
    assert events[0].data["pile"] == 0
    assert [[face(c) for c in b] for b in state.builds] == [["AC"], ["AH"], ["AD"], ["QS"]]


def test_a_discard_pile_played_empty_leaves_its_place_empty():
    state = scripted([["9D"], ["9C"]], [["5C"], []], builds=[["AS"]],
                     discards=[[["7H"], ["2H"], ["8S"]]])
    state, _ = act(state, Play(0, tok(state, 0, "2H"), 0))
    assert [[face(c) for c in p] for p in state.discards[0]] == [["7H"], [], ["8S"], []]
    # a new discard pile opens at the first empty place; the others never move
    state, events = act(state, Discard(0, tok(state, 0, "5C"), NEW_PILE))
    assert events[0].data["pile"] == 1
    assert [[face(c) for c in p] for p in state.discards[0]] == [["7H"], ["5C"], ["8S"], []]


def test_a_pile_opens_at_the_empty_place_named():
    state = scripted([["9D"], ["9C"]], [["AC", "3C"], []], builds=[["AS"]])
    state, events = act(state, Play(0, tok(state, 0, "AC"), 2))
    assert events[0].data["pile"] == 2
    assert [len(b) for b in state.builds] == [1, 0, 1, 0]


def test_all_five_hand_cards_played_draw_five_more():
    state = scripted([["9D"], ["9C"]], [["AS", "2S", "3S", "4S", "5S"], []],
                     general_top=["7C", "7D", "7H", "7S", "8C", "8D"])
    for f in ("AS", "2S", "3S", "4S"):
        state, _ = act(state, Play(0, tok(state, 0, f), 0 if state.builds else NEW_PILE))
    assert len(state.hands[0]) == 1
    state, events = act(state, Play(0, tok(state, 0, "5S"), 0))
    assert faces(state.hands[0]) == ["7C", "7D", "7H", "7S", "8C"] and state.turn == 0
    assert events[-1].kind == "drew"


# -- the discard (line 7, decisions 5 and 6) ------------------------------------------------

def test_the_turn_ends_with_one_discard_onto_up_to_four_piles():
    state = scripted([["9D"], ["9C"]], [["7C", "6C"], []],
                     discards=[[["2H"], ["3H"], ["4H"], ["5H"]]])
    refused(state, Discard(0, tok(state, 0, "7C"), NEW_PILE), "bt_discard_piles_full")
    refused(state, Pass(0), "bt_must_discard")
    state, _ = act(state, Discard(0, tok(state, 0, "7C"), 2))
    assert faces(state.discards[0][2]) == ["4H", "7C"] and state.turn == 1
    assert faces(state.hands[0]) == ["6C"]  # refilled only at the start of the next turn


def test_an_empty_hand_and_no_general_stock_end_the_turn_without_a_discard():
    state = scripted([["9D", "8D"], ["9C"]], [["AS"], ["4C"]])
    rest = list(state.general)
    state.general = []  # nothing to draw, nothing set aside: the rest lies on discard piles
    state.discards[1] = [rest[i::4] for i in range(4)]
    assert conservation_errors(state) == []
    state, events = act(state, Play(0, tok(state, 0, "AS"), NEW_PILE))
    assert state.hands[0] == [] and "drew" not in [e.kind for e in events]
    assert Discard not in {type(a) for a in legal_actions(state)}
    assert Pass(0) in legal_actions(state)
    state, _ = act(state, Pass(0))
    assert state.turn == 1


# -- jokers (decision 4) ----------------------------------------------------------------

def test_shift_any_player_and_swap_with_another():
    state = scripted([["9D", "3D"], ["8C", "2C"], ["7S", "AS"]],
                     [["SHIFT", "SWAP", "SWAP", "4C"], [], []])
    state, _ = act(state, Joker(0, tok(state, 0, "SHIFT"), 1))  # another player's
    assert faces(state.stocks[1]) == ["2C", "8C"]
    state, _ = act(state, Joker(0, tok(state, 0, "SWAP"), 2))
    assert face(state.face_up(0)) == "7S" and face(state.face_up(2)) == "9D"
    refused(state, Joker(0, tok(state, 0, "SWAP"), 0), "bt_swap_needs_other")
    refused(state, Play(0, tok(state, 0, "SWAP"), NEW_PILE), "bt_joker_on_pile")
    refused(state, Joker(0, tok(state, 0, "4C"), 1), "bt_not_a_joker")
    assert state.turn == 0 and sum(is_joker(c) for c in state.aside) == 2


def test_an_empty_stock_shows_no_card_and_cant_be_targeted():
    state = scripted([["9D"], ["8C"]], [["SHIFT"], []])
    state.stocks[1] = []
    state.general.append("8C#0")
    refused(state, Joker(0, tok(state, 0, "SHIFT"), 1), "bt_no_face_up")


def test_jokers_stay_in_the_hand_until_played():
    state = scripted([["9D"], ["8C"]], [["4C"], []], general_top=["SWAP"])
    state, _ = act(state, Discard(0, tok(state, 0, "4C"), NEW_PILE))
    assert any(face(c) == "SWAP" for c in state.hands[1])
    assert not any(is_joker(c) for c in state.stocks[1])


# -- the general stock rebuilt (decision 7) ------------------------------------------------

def test_the_general_stock_is_rebuilt_from_completed_piles_and_used_jokers():
    def case(seed: int) -> BuildState:
        s = scripted([["9D", "9H"], ["8C"]], [["4C"], ["2C", "3C", "4S", "5S"]],
                     aside=["SHIFT", "AS", "2S", "3S", "4D", "5D", "6D", "7D", "8D", "9S",
                            "10S"], seed=seed)
        s.discards[1] = [s.general[:20], s.general[20:40], s.general[40:60],
                         s.general[60:]]
        s.general = []
        return s

    state = case(1)
    state, events = act(state, Discard(0, tok(state, 0, "4C"), NEW_PILE))
    assert "rebuilt" in [e.kind for e in events] and state.rebuilds == 1
    assert len(state.hands[1]) == 5 and len(state.general) == 10 and state.aside == []
    again, _ = apply(case(1), Discard(0, tok(case(1), 0, "4C"), NEW_PILE))
    other, _ = apply(case(2), Discard(0, tok(case(2), 0, "4C"), NEW_PILE))
    assert again.general == state.general  # the shuffle comes from the seed
    assert other.general != state.general


# -- the end (line 9, decisions 8 and 9) ---------------------------------------------------

def test_the_first_to_empty_their_stock_wins():
    state = scripted([["3D"], ["8C", "9C"], ["7C"]], [["4C"], [], []], builds=[["AS", "2S"]])
    state, events = act(state, Play(0, tok(state, 0, "3D"), 0))
    assert state.over and state.winners == [0] and events[-1].kind == "won"
    assert standings(state) == [0, 2, 1]
    refused(state, Discard(0, tok(state, 0, "4C"), NEW_PILE), "game_over")
    assert legal_actions(state) == []


def test_a_stuck_game_ends_after_a_full_round_without_a_build_play():
    state = scripted([["9D", "8D"], ["9C"], ["9S", "9H"]], [["4C"], ["5C"], ["6C"]])
    rest = list(state.general)
    state.general = []
    for seat in range(3):
        state.discards[seat] = [rest[seat::3]]
    assert conservation_errors(state) == []
    for seat in range(3):
        assert not state.over
        state, _ = act(state, Discard(seat, state.hands[seat][0], 0))
    assert state.over and state.stuck and state.winners == [1]
    assert standings(state) == [1, 0, 2]


def test_a_build_play_restarts_the_stuck_count():
    state = scripted([["9D"], ["9C"]], [["4C", "AC"], ["5C", "6C"]])
    rest = list(state.general)
    state.general = []
    state.discards[0], state.discards[1] = [rest[0::2]], [rest[1::2]]
    state, _ = act(state, Discard(0, tok(state, 0, "4C"), 0))
    assert state.idle_turns == 1
    state, _ = act(state, Discard(1, tok(state, 1, "5C"), 0))
    assert state.over and state.winners == [0, 1]  # a tie shares the win


def test_a_stuck_count_needs_an_empty_general_stock():
    state = scripted([["9D"], ["9C"]], [["4C"], ["5C"]])
    for seat in (0, 1, 0, 1):
        state, _ = act(state, Discard(seat, state.hands[seat][0], NEW_PILE
                                      if len(state.discards[seat]) < 4 else 0))
    assert not state.over and state.idle_turns == 0


# -- the state as data, the view (decision 10) ---------------------------------------------

def test_json_round_trip_and_replay():
    rng = random.Random(5)
    state = new_game(3, 99)
    actions = []
    for _ in range(60):
        if state.over:
            break
        a = rng.choice(legal_actions(state))
        actions.append(a)
        state, _ = apply(state, a)
        assert BuildState.from_json(state.to_json()) == state
    assert replay(3, 99, actions).to_json() == state.to_json()


def test_a_view_holds_only_what_the_seat_may_see():
    state = new_game(3, 4)
    view = player_view(state, state.turn)
    assert view.hand == tuple(state.hands[state.turn])
    assert view.face_up == tuple(state.face_up(i) for i in range(3))
    assert view.stock_counts == tuple(len(s) for s in state.stocks)
    text = repr(view)
    hidden = [c for s in state.stocks for c in s[1:]] + state.general
    assert not [c for c in hidden if c in text]


def _every_refusal() -> list[tuple[BuildState, object]]:
    s = scripted([["9S", "2D"], ["8D"], []], [["7C", "SWAP", "AC"], ["5C"], []],
                 builds=[["AS"], ["AH"], ["QS"], ["KH"]], discards=[[["3H", "8H"]]])
    full = scripted([["9S"], ["8D"]], [["7C"], []],
                    discards=[[["2H"], ["3H"], ["4H"], ["5H"]]])
    over = scripted([["3D"], ["8C"]], [["4C"], []], builds=[["AS", "2S"]])
    over, _ = apply(over, Play(0, tok(over, 0, "3D"), 0))
    return [
        (s, Play(0, next(c for c in s.discards[0][0] if face(c) == "3H"), 0)),
        (s, Play(0, tok(s, 0, "SWAP"), 0)),
        (s, Play(0, tok(s, 0, "AC"), NEW_PILE)),
        (s, Play(0, tok(s, 0, "7C"), 7)),
        (s, Play(0, tok(s, 0, "7C"), 0)),
        (s, Joker(0, tok(s, 0, "7C"), 1)),
        (s, Joker(0, tok(s, 0, "SWAP"), 2)),
        (s, Joker(0, tok(s, 0, "SWAP"), 0)),
        (full, Discard(0, tok(full, 0, "7C"), NEW_PILE)),
        (s, Pass(0)),
        (s, Discard(0, state_card(s, 1), 0)),
        (s, Play(1, s.hands[1][0], 0)),
        (s, Play(5, tok(s, 0, "7C"), 0)),
        (over, Discard(0, tok(over, 0, "4C"), 0)),
    ]


def state_card(state: BuildState, seat: int) -> str:
    return state.hands[seat][0]


def test_every_build_to_ten_code_is_reached():
    from engine.buildten.reasons import REASONS

    codes = set()
    for state, action in _every_refusal():
        with pytest.raises(IllegalAction) as info:
            apply(state, action)
        assert info.value.code in REASONS
        codes.add(info.value.code)
    assert {c for c in REASONS if c.startswith("bt_")} <= codes
    assert {"card_not_in_hand", "not_your_turn", "seat_not_in_game", "game_over"} <= codes
