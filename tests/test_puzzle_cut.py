"""The puzzle of the day's cut (issue 41 item 5, engine/rummy/puzzle.py): a moment of a finished
round where a seat could have laid far more than it did, with the table rearranged.

Checked: a hand-made moment gives the puzzle it should; a plain lay (no table needed) or a small
miss gives none; seeded games of every rulebook — each puzzle is exactly what its seat saw (its
hand and the table, card for card, nothing of another hand), its maximum is the solver's on the
dealt position, its solution is a legal lay of that many cards, and a round still being played
gives nothing."""

from __future__ import annotations

from collections import Counter

import pytest
from tiers import sampled

from engine.rummy import puzzle
from engine.rummy.actions import action_from_dict
from engine.rummy.game import apply, player_view
from engine.rummy.moves import check_move
from engine.rummy.playout import play_game
from engine.rummy.review import Decision, seat_rounds
from engine.rummy.rulebooks import ALL_RULEBOOKS, get_rulebook
from engine.rummy.scenario import deal_scenario
from engine.rummy.solver import find_move
from engine.rummy.tiles import parse_cards


def _moment(hand: str, table: list[str], did: str = "drew") -> Decision:
    state = deal_scenario("manipulation", [hand, "2C 3C 9D"], table=table, first_lay_done=True)
    return Decision(1, player_view(state, 0), did)


def test_a_missed_rearrangement_is_a_puzzle() -> None:
    # 4S and 8S leave the run 5S 6S 7S; each makes a set with the hand's pair
    found = puzzle._best_of([_moment("4H 4D 8H 8D KC", ["4S 5S 6S 7S 8S"])])
    assert found is not None
    assert (found.most, found.laid, found.rearranged) == (4, 0, 1)
    assert sorted(found.hand) == sorted(["4H", "4D", "8H", "8D", "KC"])
    assert found.table == (("4S", "5S", "6S", "7S", "8S"),)
    assert sorted(map(sorted, found.solution)) == sorted(
        map(sorted, [["5S", "6S", "7S"], ["4S", "4H", "4D"], ["8S", "8H", "8D"]]))


def test_no_puzzle_without_the_table_or_with_a_small_miss() -> None:
    # the hand lays 4 cards of its own: the table is not needed
    assert puzzle._best_of([_moment("9H 9D 9C 9S KC", ["4S 5S 6S"])]) is None
    # two cards more than laid is no "far more"
    assert puzzle._best_of([_moment("4H 4D 8H KC QD", ["4S 5S 6S 7S"])]) is None


def _faces(cards) -> Counter:
    return Counter(str(c) if not c.is_joker else "*" for c in cards)


def _cut(rulebook: str, seed: int) -> tuple[object, list[puzzle.Puzzle]]:
    state = play_game(get_rulebook(rulebook), ["easy", "medium", "hard"], seed, check=False).state
    return state, puzzle.candidates(state, range(state.players))


# Manipulation's cut is the slowest: the seeded-games tier plays it (Machiavelli shares its rules)
QUICK = set(ALL_RULEBOOKS) - {"manipulation"}


@pytest.mark.parametrize("rulebook", sampled(ALL_RULEBOOKS, keep=QUICK))
def test_every_puzzle_is_its_seat_s_view_and_the_solver_s_maximum(rulebook: str) -> None:
    cut = 0
    for seed in (1, 2):
        state, found = _cut(rulebook, seed)
        start = puzzle.new_game(state.rulebook, state.players, state.seed, **state.options)
        for p in found:
            cut += 1
            # what the seat saw at that moment, card for card (and nothing of any other hand)
            seen = next(d.view for d in seat_rounds(start, state.actions, p.seat)[p.round]
                        if d.turn == p.turn and sorted(map(str, d.view.hand)) == sorted(p.hand)
                        and tuple(tuple(map(str, g)) for g in d.view.table) == p.table)
            assert Counter(p.hand) == Counter(map(str, seen.hand))
            assert p.gain >= puzzle.MIN_GAIN and p.rearranged >= 1
            # dealt as a game, the solver's most on it is the puzzle's
            dealt = puzzle.position(p, seed=3)
            view = player_view(dealt, 0)
            assert Counter(map(str, view.hand)) == Counter(p.hand)
            assert [tuple(map(str, g)) for g in view.table] == list(p.table)
            rules = view.rules
            singles = list(view.singles)
            table = [list(g) for g in view.table] + [[c] for c in singles]
            best = find_move(rules, table, list(view.hand), objective="max_cards",
                             first_lay_done=p.first_lay_done, singles=singles)
            assert best is not None and len(best.placed) == p.most
            # the solution: a legal lay putting down exactly `most` hand cards
            new = [parse_cards(" ".join(g), rules) for g in p.solution]
            on_table = _faces(c for g in table for c in g)
            laid = _faces(c for g in new for c in g) - on_table
            assert sum(laid.values()) == p.most
            assert not laid - _faces(view.hand)
            verdict = check_move(rules, table, list(view.hand), _designated(new, best),
                                 first_lay_done=p.first_lay_done, singles=singles)
            assert verdict.ok, verdict
            # the other seats hold strangers' cards: every card of the deck in one place
            assert dealt.players == p.players
    if rulebook in ("manipulation", "carousel", "tahiti"):
        assert cut, f"{rulebook}: two seeded games gave no puzzle"


def _designated(new, best):
    """The solver's own groups (its jokers carry their meanings) for check_move."""
    return [list(g) for g in best.new_table] if len(new) == len(best.new_table) else new


def test_a_round_being_played_gives_no_puzzle() -> None:
    """The same game stopped inside a round: that round gives nothing until it is over."""
    state, found = _cut("manipulation", 2)
    rounds = {p.round for p in found}
    assert len(rounds) >= 2
    cut_at = max(rounds)
    mid = puzzle.new_game(state.rulebook, state.players, state.seed, **state.options)
    for data in state.actions:
        if mid.round == cut_at and mid.phase == "play" and len(mid.actions) > 40:
            break
        mid, _events = apply(mid, action_from_dict(data))
    assert mid.round == cut_at and mid.phase == "play"
    inside = puzzle.candidates(mid, range(mid.players))
    assert inside and all(p.round < cut_at for p in inside)
