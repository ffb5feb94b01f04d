"""Bugs found by playing, each with its test first."""

from engine.rummy import check_move, find_move, get_rulebook, parse_cards


def test_tahiti_joker_dealt_as_a_single():
    # `rummy simulate --rulebook tahiti` crashed when a joker was one of the face-up singles.
    rules = get_rulebook("tahiti")
    singles = parse_cards("5H * KC 2S")
    table = [[c] for c in singles]
    hand = parse_cards("6H 7H 9D")
    move = find_move(rules, table, hand, objective="max_cards", singles=singles)
    assert move is not None
    new = [list(g) for g in move.new_table]
    assert check_move(rules, table, hand, new, singles=singles).ok
    jokers = [c for g in new for c in g if c.is_joker]
    assert len(jokers) == 1  # the one joker is used once, or stays a single
