"""The post-round review (engine/review.py, issue 32): scripted rounds with known misses reviewed
exactly, a perfect round reviewed as perfect, and every review run again against other hands and
another stock it must not know."""

from __future__ import annotations

import json
import random

import pytest

from engine.rummy import check_move, get_rulebook, parse_cards
from engine.rummy.actions import Commit, Draw, Knock, action_from_dict
from engine.rummy.game import apply, new_game, player_view
from engine.rummy.playout import play_game
from engine.rummy.review import (
    COULD_GO_OUT,
    COULD_LAY,
    KNOCK_WINS,
    MORE_CARDS,
    MORE_POINTS,
    Decision,
    review,
    review_decision,
    seat_decisions,
)
from engine.rummy.scenario import deal_scenario
from engine.rummy.state import GameState
from engine.rummy.tiles import piece_from_token


def lay(rules, *groups: str) -> tuple:
    return tuple(tuple(parse_cards(g, rules)) for g in groups)


def faces(tokens) -> list[str]:
    """Tokens name the physical card (`7H#0`): the face is what a player reads."""
    return sorted(t.split("#")[0] for t in tokens)


def run(state: GameState, actions) -> GameState:
    for action in actions:
        state, _ = apply(state, action)
    return state


def test_drew_while_three_cards_fitted():
    rules = get_rulebook("manipulation", must_lay="trust")
    start = deal_scenario(rules, ["7H 8H 9H KS 2D", "3C 4S JD QC 5D"], table=["4D 5D 6D"],
                          stock_top="10C 10D")
    r = review(seat_decisions(start, [Draw(0), Draw(0)], 0))
    assert r.missed == 1 and r.cards == 3 and len(r.turns) == 1
    first, second = r.turns[0].steps
    assert first.did == "drew" and first.codes == (COULD_LAY,)
    assert first.most_cards.cards == 3
    assert faces(first.most_cards.placed) == ["7H", "8H", "9H"]
    assert first.most_cards.groups == ()  # a new group: the table's groups stay
    assert len(first.most_cards.lay) == 2
    assert second.codes == (COULD_LAY,)  # still there after the first card drawn
    assert json.loads(json.dumps(r.to_dict()))["missed"] == 1


def test_laid_two_where_five_were_possible():
    rules = get_rulebook("machiavelli")
    start = deal_scenario(rules, ["8S 9S KH KD KC 2D", "3C 4H JD QC 5D 6C"], table=["5S 6S 7S"])
    r = review(seat_decisions(start, [Commit(0, lay(rules, "5S 6S 7S 8S 9S"))], 0))
    (step,) = r.turns[0].steps
    assert step.did == "laid" and step.cards == 2 and faces(step.placed) == ["8S", "9S"]
    assert step.codes == (MORE_CARDS,)  # every card counts 1 here: no separate points code
    assert step.most_cards.cards == 5
    assert faces(step.most_cards.placed) == ["8S", "9S", "KC", "KD", "KH"]
    assert step.most_cards.groups == (0,)  # group A grows
    assert r.turns[0].could == 5 and r.turns[0].laid == 2 and r.cards == 3


def test_laid_fewer_points_in_manipulation():
    rules = get_rulebook("manipulation")
    start = deal_scenario(rules, ["QH KH AH QS QD 3C 8C", "3D 4S JD QC 5D 8H 9C"])
    r = review(seat_decisions(start, [Commit(0, lay(rules, "QH QS QD"))], 0))
    (step,) = r.turns[0].steps
    assert step.points == 30 and step.most_points.points == 35  # QH KH AH: 10 + 10 + 15
    assert faces(step.most_points.placed) == ["AH", "KH", "QH"]
    assert step.codes == (MORE_POINTS,)  # three cards either way (QH can't go twice)


def test_missed_winning_knock_in_carousel():
    rules = get_rulebook("carousel")
    # draws 5H: 2H–5H could go, leaving AS AD (2 points) against ten cards worth 25 or more
    start = deal_scenario(rules, ["2H 3H 4H AS AD", "10S JS QS KS 10D JD QD KD 10H JH"],
                          stock_top="5H 9S")
    decisions = seat_decisions(start, [Draw(0), Draw(0)], 0)
    assert [d.did for d in decisions] == ["drew"]  # the opening draw is no choice
    (step,) = review(decisions).turns[0].steps
    assert step.most_points.left == 2 and step.most_points.knock == "wins"
    assert step.codes == (COULD_LAY, KNOCK_WINS)
    assert faces(step.most_points.placed) == ["2H", "3H", "4H", "5H"]
    # knocking with the same lay is the best move
    knocked = seat_decisions(start, [Draw(0), Knock(0, lay(rules, "2H 3H 4H 5H"))], 0)
    assert knocked[0].did == "knocked"
    assert review(knocked).perfect


def test_a_knock_that_may_lose_is_no_miss():
    """The other seat's 2 cards could be the two aces left: worth 2 — a tie goes to them."""
    rules = get_rulebook("carousel")
    start = deal_scenario(rules, ["2H 3H 4H AS AD", "10S JS"], stock_top="5H 9S")
    (step,) = review(seat_decisions(start, [Draw(0), Draw(0)], 0)).turns[0].steps
    assert step.most_points.knock == "may"
    assert step.codes == (COULD_LAY,)


def test_missed_rummikub_initial_meld_with_a_joker():
    rules = get_rulebook("rummikub")
    start = deal_scenario(rules, ["10R 11R * 1K 5O 9B 3K", "2K 4O 6B 8R 12O 13K 2B"],
                          table=["7K 8K 9K"], first_lay_done=False)
    r = review(seat_decisions(start, [Draw(0)], 0))
    (step,) = r.turns[0].steps
    assert step.did == "drew" and step.codes == (COULD_LAY,)
    chance = step.most_points
    assert chance.cards == 3 and chance.meld == 33  # 10R 11R and the joker as 12R
    assert any(t.startswith("*") for t in chance.placed)
    assert chance.groups == ()  # the initial meld never touches the table


def test_most_points_is_never_below_the_most_cards_lay():
    """Rummikub: the most-cards lay frees the joker legally (1K 2K *3K 4K with 11R in its
    place: 18); the review's "most points" is never below it. Since issue 45 the search finds
    the freed joker's home from the rack itself (3B 3O *3K, 4K on, 11R in its place: 21),
    where it once gave way to a lay that frees no joker (4K 11R: 15)."""
    rules = get_rulebook("rummikub")
    table = ["6K 7K 8K 9K 10K 11K", "2R 3R 4R 5R 6R 7R", "8K 8R 8O", "1B 2B 3B", "5K 5B 5O",
             "5B 6B 7B", "6K 6R 6O", "9K 9R 9B", "13K 13B 13O", "6O 7O 8O 9O 10O",
             "9R 10R *11R 12R 13R", "10O 11O 12O", "11K 11R 11B"]
    start = deal_scenario(rules, ["2K 3O 2R 3B 4K 1K 12B 11R", "5R 8B 1O 2O"], table=table,
                          first_lay_done=True)
    (step,) = review(seat_decisions(start, [Draw(0)], 0)).turns[0].steps
    assert step.most_cards.points == 18
    assert faces(step.most_cards.placed) == ["11R", "1K", "2K", "4K"]
    assert step.most_points.points == 21 >= step.most_cards.points
    assert faces(step.most_points.placed) == ["11R", "3B", "3O", "4K"]
    hand = start.hands[0]
    new_table = [[piece_from_token(t) for t in g] for g in step.most_points.lay]
    assert check_move(rules, start.table, hand, new_table).ok


def test_a_perfect_round_is_perfect():
    rules = get_rulebook("machiavelli")
    start = deal_scenario(rules, ["5H 6H 9C KD", "3C 4S JD QC"], stock_top="7H 2S")
    state = run(start, [Draw(0), Draw(1)])
    actions = [Draw(0), Draw(1), Commit(0, lay(rules, "5H 6H 7H"))]
    r = review(seat_decisions(start, actions, 0))
    assert state.hands[0][-1].face == "7H"
    assert [t.turn for t in r.turns] == [1, 2]
    assert r.perfect and r.missed == 0 and r.cards == 0
    assert r.turns[0].steps[0].most_cards is None  # nothing could go: drawing was right
    assert r.turns[1].steps[0].codes == ()


def test_going_out_missed():
    rules = get_rulebook("machiavelli")
    start = deal_scenario(rules, ["5H 6H 7H 8H", "3C 4S JD QC"])
    (step,) = review(seat_decisions(start, [Commit(0, lay(rules, "5H 6H 7H"))], 0)
                     ).turns[0].steps
    assert step.codes == (MORE_CARDS, COULD_GO_OUT)
    assert step.most_cards.goes_out


# -- never a secret ----------------------------------------------------------------------

# (the two longest whole games, over 10 s each, are e2e: `make test` plays them)
GAMES = [pytest.param("manipulation", 3, marks=pytest.mark.e2e), ("carousel", 2), ("vatican", 3),
         ("tahiti", 3), pytest.param("rummikub", 3, marks=pytest.mark.e2e), ("machiavelli", 2)]


def _scrambled(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same game for `seat`'s eyes: the other hands and the stock dealt again."""
    s = state.copy()
    others = [i for i in range(s.players) if i != seat]
    pool = list(s.stock) + [c for i in others for c in s.hands[i]]
    rng.shuffle(pool)
    for i in others:
        n = len(s.hands[i])
        s.hands[i], pool = pool[:n], pool[n:]
    s.stock = pool
    return s


@pytest.mark.parametrize(("name", "seats"), GAMES)
def test_a_review_never_reads_what_the_seat_could_not_see(name, seats):
    rules = get_rulebook(name)
    levels = ["easy", "medium", "hard"][:seats]
    final = play_game(rules, levels, seed=7).state
    rng = random.Random(name)
    for seat in range(seats):
        state = new_game(rules, seats, final.seed)
        honest, blind = [], []
        changed = 0
        mine = seat_decisions(state, final.actions, seat, 1)
        for data in final.actions:
            before = state
            state, _ = apply(before, action_from_dict(data))
            if before.round != 1 or before.phase != "play":
                continue
            if len(honest) < len(mine) and player_view(before, seat) == mine[len(honest)].view:
                other = _scrambled(before, seat, rng)
                changed += other.hands != before.hands or other.stock != before.stock
                d = mine[len(honest)]
                honest.append(d)
                blind.append(Decision(d.turn, player_view(other, seat), d.did, d.placed))
        assert len(honest) == len(mine) and changed  # the scramble did change secrets
        for a, b in zip(honest, blind, strict=True):
            assert review_decision(a) == review_decision(b)
        assert review(honest).to_dict() == review(blind).to_dict()


def test_a_decision_holds_a_view_only():
    """The analysis takes the view, not the state: no hand but the seat's, no stock order."""
    state = new_game("carousel", 3, 5)
    view = player_view(state, 0)
    assert not any(isinstance(v, GameState) for v in vars(view).values())
    assert view.hand == tuple(state.hands[0]) and isinstance(view.stock, int)
    assert set(Decision.__dataclass_fields__) == {"turn", "view", "did", "placed"}


# -- Build-to-Ten --------------------------------------------------------------------------


def test_buildten_stock_card_that_could_have_gone_after_a_chain():
    from engine.buildten import Discard as BtDiscard
    from engine.buildten import scripted
    from engine.buildten.review import CARDS_COULD_GO, STOCK_COULD_GO
    from engine.buildten.review import review as bt_review
    from engine.buildten.review import seat_decisions as bt_decisions

    start = scripted([["4H", "9S"], ["8C", "7D"]], [["3C", "6S", "9D", "10H", "5D"], ["2S"]],
                     builds=[["AS", "2D"]], discards=[[["7C", "5S"]]])
    r = bt_review(bt_decisions(start, [BtDiscard(0, "9D#0", -1)], 0))
    (turn,) = r.turns
    assert turn.did == "discarded" and turn.played == 0
    assert turn.codes == (STOCK_COULD_GO, CARDS_COULD_GO)
    # 3C from the hand, the 4H from the stock, 5S off the discard pile, 6S, then the 7C the
    # 5S covered: 5 cards
    assert turn.missed.stock == 1 and turn.missed.cards == 5
    assert [c.split("#")[0] for c, _ in turn.missed.plays] == ["3C", "4H", "5S", "6S", "7C"]
    assert {place for _, place in turn.missed.plays} == {0}
    assert r.missed == 1 and r.cards == 5


def test_buildten_a_turn_with_nothing_left_to_play_is_perfect():
    from engine.buildten import Discard as BtDiscard
    from engine.buildten import Play as BtPlay
    from engine.buildten import scripted
    from engine.buildten.review import review as bt_review
    from engine.buildten.review import seat_decisions as bt_decisions

    start = scripted([["3H", "9S"], ["8C", "7D"]], [["7C", "6S", "9D", "10H", "5D"], ["2S"]],
                     builds=[["AS", "2D"]])
    r = bt_review(bt_decisions(start, [BtPlay(0, "3H#0", 0), BtDiscard(0, "9D#0", -1)], 0))
    (turn,) = r.turns
    assert turn.played == 1 and turn.missed is None and r.perfect


@pytest.mark.parametrize("seed", [1, 2])
def test_buildten_review_never_reads_what_the_seat_could_not_see(seed):
    from engine.buildten import new_game as bt_new_game
    from engine.buildten import player_view as bt_view
    from engine.buildten.playout import play_game as bt_play
    from engine.buildten.review import Decision as BtDecision
    from engine.buildten.review import best_plays
    from engine.buildten.review import seat_decisions as bt_decisions
    from engine.buildten.rules import apply as bt_apply

    game = bt_play(["easy", "medium", "hard"], seed)
    rng = random.Random(seed)
    for seat in range(3):
        mine = bt_decisions(bt_new_game(3, seed), game.actions, seat)
        state = bt_new_game(3, seed)
        checked = 0
        for action in game.actions:
            before = state
            state, _ = bt_apply(before, action)
            if checked < len(mine) and bt_view(before, seat) == mine[checked].view:
                other = before.copy()
                hidden = list(other.general)
                for i in range(3):
                    if i != seat:
                        hidden += other.hands[i] + other.stocks[i][1:]
                rng.shuffle(hidden)
                for i in range(3):
                    if i != seat:
                        n, k = len(other.hands[i]), len(other.stocks[i][1:])
                        other.hands[i], hidden = hidden[:n], hidden[n:]
                        other.stocks[i][1:], hidden = hidden[:k], hidden[k:]
                other.general = hidden
                d = mine[checked]
                blind = BtDecision(d.turn, bt_view(other, seat), d.did, d.played)
                assert best_plays(blind.view) == best_plays(d.view)
                checked += 1
        assert checked == len(mine) > 0
