"""Build-to-Ten's computer players on scripted positions: hard plays chains to its stock
card, discards so piles run downward, spends jokers where they pay, and holds back a play that
opens a pile for the next player; every level decides from its view only."""

from __future__ import annotations

from engine.buildten import Discard, Joker, Play, apply, legal_actions, player_view, scripted
from engine.buildten.actions import NEW_PILE
from engine.buildten.ai import choose_action
from engine.buildten.cards import face


def hard(state, seat: int = 0):
    return choose_action(player_view(state, seat), "hard")


def test_hard_plays_the_worked_example_chain_to_its_stock_card():
    state = scripted([["6S", "10C"], ["8C"], ["9S"]],
                     [["3D", "KC", "5H", "9C", "8D"], [], []], builds=[["AS", "2H"]])
    played = []
    while state.turn == 0:
        action = hard(state)
        assert action in legal_actions(state)
        played.append((action.kind, face(action.card)))
        state, _ = apply(state, action)
    assert played[:4] == [("play", "3D"), ("play", "KC"), ("play", "5H"), ("play", "6S")]
    assert played[-1][0] == "discard"


def test_hard_prefers_plain_cards_and_discard_tops_to_wild_ones():
    state = scripted([["5S"], ["8C"]], [["KC", "4D", "9C"], []], builds=[["AS", "2H"]],
                     discards=[[["3H"]]])
    action = hard(state)
    assert isinstance(action, Play) and face(action.card) == "3H"  # the discard top, not K


def test_hard_discards_so_that_its_piles_run_downward():
    state = scripted([["10S"], ["9H"]], [["7C", "KD"], []],
                     discards=[[["9C"], ["8D"]]], builds=[["AS", "2H", "3H"]])
    action = hard(state)
    assert action == Discard(0, state.hands[0][0], 1)  # the 7 onto the 8


def test_hard_swaps_a_stuck_card_for_one_it_can_play():
    state = scripted([["10S", "2C"], ["4C", "3C"]], [["SWAP", "9D"], []],
                     builds=[["AS", "2H", "3H"]])
    action = hard(state)
    assert isinstance(action, Joker) and action.target == 1


def test_hard_shifts_the_next_players_card_away_when_it_fits():
    state = scripted([["AS", "9C"], ["4C", "10D"]], [["SHIFT", "9H", "8S"], []],
                     builds=[["AH", "2H", "3H"]])
    state, _ = apply(state, hard(state))  # its own ace first
    action = hard(state)
    assert isinstance(action, Joker) and action.target == 1


def test_hard_keeps_back_a_play_that_opens_a_pile_for_the_next_player():
    state = scripted([["10S"], ["5C"]], [["4D", "9H"], []], builds=[["AS", "2H", "3H"]])
    action = hard(state)
    assert not (isinstance(action, Play) and face(action.card) == "4D")
    assert isinstance(action, Discard)


def test_every_level_decides_the_same_from_the_same_view():
    state = scripted([["7S"], ["5C"], ["KD"]], [["4D", "9H", "AC"], [], []],
                     builds=[["AS", "2H", "3H"]])
    for level in ("easy", "medium", "hard"):
        view = player_view(state, 0)
        first = choose_action(view, level)
        assert first == choose_action(view, level) and first in legal_actions(state)


def test_medium_plays_its_stock_card_when_it_fits():
    state = scripted([["4S", "9C"], ["5C"]], [["7D"], []], builds=[["AS", "2H", "3H"]])
    assert choose_action(player_view(state, 0), "medium") == Play(0, state.stocks[0][0], 0)
    state = scripted([["AS", "9C"], ["5C"]], [["7D"], []])
    assert choose_action(player_view(state, 0), "medium") == Play(0, state.stocks[0][0],
                                                                  NEW_PILE)


def test_no_level_throws_a_wild_card_away_while_it_could_keep_one():
    """Issue 27: a wild card is discarded only from a hand of nothing but wild cards."""
    from engine.buildten.ai import LEVELS
    from engine.buildten.cards import is_wild
    from engine.buildten.playout import play_game

    for level in LEVELS:
        thrown, chances = [], 0

        def choose(view, lvl, thrown=thrown):
            nonlocal chances
            action = choose_action(view, lvl)
            if isinstance(action, Discard) and any(is_wild(c) for c in view.hand):
                chances += 1
                if is_wild(action.card) and not all(is_wild(c) for c in view.hand):
                    thrown.append((view.hand, action.card))
            return action

        for seed in range(12):
            assert play_game([level] * 3, seed, choose=choose).violations == []
        assert chances > 20, level  # discards with a wild card in hand were really judged
        assert thrown == [], (level, thrown[:3])


def test_a_wild_card_stays_in_hand_while_a_joker_could_go():
    """Nothing fits (the stock's 9, the piles full of discards): the swap joker is thrown,
    not the Q; at every level."""
    from engine.buildten.cards import is_wild

    for level in ("easy", "medium", "hard"):
        state = scripted([["9S", "3C"], ["9D"]], [["QH", "SWAP"], []],
                         builds=[["AS", "2S"], ["AC"], ["AD"], ["AH"]],
                         discards=[[["7C"], ["8D"], ["6H"], ["10S"]]])
        actions = []
        while state.turn == 0:
            actions.append(choose_action(player_view(state, 0), level))
            state, _ = apply(state, actions[-1])
        assert isinstance(actions[-1], Discard), (level, actions)
        assert not is_wild(actions[-1].card), (level, actions)
