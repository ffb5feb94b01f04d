"""check_move against RULES.md §1, §2 (jokers, first lay, singles) and §4, with concrete cards."""

import pytest

from engine.rummy import check_move, get_rulebook, parse_cards

P = parse_cards


def check(name, table, hand, new_table, **kw):
    rules = get_rulebook(name)
    return check_move(rules, [P(g) for g in table], P(hand), [P(g) for g in new_table], **kw)


def test_new_group_from_hand():
    result = check("manipulation", ["9S 9H 9D"], "5H 6H 7H 2C", ["9S 9H 9D", "5H 6H 7H"])
    assert result.ok and not result.needs_rearranging
    assert sorted(c.face for c in result.placed) == ["5H", "6H", "7H"]


def test_extend_a_group_needs_no_rearranging():
    result = check("manipulation", ["9S 9H 9D"], "9C", ["9S 9H 9D 9C"])
    assert result.ok and not result.needs_rearranging and result.changed == (0,)


def test_at_least_one_card_from_hand():
    result = check("manipulation", ["5H 6H 7H 8H 9H 10H"], "2C", ["5H 6H 7H", "8H 9H 10H"])
    assert not result.ok
    assert result.reason == "You must add at least one card from your hand"


def test_split_a_run_to_place_a_card():
    # 5-9 of hearts plus a second 7H: 5H 6H 7H | 7H 8H 9H.
    result = check("manipulation", ["5H 6H 7H 8H 9H"], "7H", ["5H 6H 7H", "7H 8H 9H"])
    assert result.ok and result.needs_rearranging


def test_move_cards_between_groups():
    # Take 7S off a run to complete a set with two hand cards.
    result = check("manipulation", ["4S 5S 6S 7S"], "7H 7D", ["4S 5S 6S", "7S 7H 7D"])
    assert result.ok and result.needs_rearranging


def test_every_group_valid_at_the_end():
    result = check("manipulation", ["9S 9H 9D"], "7H 8H", ["9S 9H 9D", "7H 8H"])
    assert not result.ok and "Group B" in result.reason
    bad = check("manipulation", ["7H 8H 9H"], "7H", ["7H 7H 8H 9H"])
    assert bad.reason == "Group A is not a set or a run: 7H 7H 8H 9H"


def test_a_table_card_never_goes_into_a_hand():
    result = check("manipulation", ["9S 9H 9D 9C"], "5H 6H 7H", ["9S 9H 9D", "5H 6H 7H"])
    assert not result.ok and "never go back into a hand" in result.reason


def test_cards_you_do_not_have():
    result = check("manipulation", [], "5H 6H", ["5H 6H 7H"])
    assert not result.ok and result.reason == "You have no 7H in your hand"


def test_both_copies_of_a_card():
    # Two decks: 7H twice is fine in two groups, never in one run.
    result = check("manipulation", ["7H 8H 9H"], "7H 7S 7D", ["7H 8H 9H", "7H 7S 7D"])
    assert result.ok


def test_ace_rules_are_the_rulebooks():
    assert check("manipulation", [], "QH KH AH", ["QH KH AH"]).ok
    bad = check("manipulation", [], "AH 2H 3H", ["AH 2H 3H"])
    assert not bad.ok and "ace is high only" in bad.reason
    assert check("shanghai", [], "AH 2H 3H", ["AH 2H 3H"]).ok
    assert not check("shanghai", [], "QH KH AH", ["QH KH AH"]).ok


# -- Carousel jokers ----------------------------------------------------------------------


def test_carousel_joker_keeps_its_card_when_moved():
    # A joker fixed as 6H may move to another group only as 6H.
    ok = check("carousel", ["5H *6H 7H 8H"], "4H 9H", ["4H 5H *6H 7H 8H 9H"])
    assert ok.ok
    moved = check("carousel", ["*6H 7H 8H 9H"], "10H JH", ["7H 8H 9H 10H JH *QH"])
    assert not moved.ok and "must keep standing for 6H" in moved.reason


def test_carousel_joker_freed_once_the_real_card_is_on_the_table():
    # Lay the real 6H; the joker may then stand for a new card, here 9H.
    result = check("carousel", ["5H *6H 7H"], "6H 8H", ["5H 6H 7H 8H *9H"])
    assert result.ok
    # The real card may also come from another group on the table.
    moved = check("carousel", ["5H *6H 7H", "6H 6S 6D 6C"], "8H", ["5H 6H 7H 8H *9H", "6S 6D 6C"])
    assert moved.ok


def test_carousel_joker_can_never_return_to_a_hand():
    result = check("carousel", ["5H *6H 7H", "9S 9H 9D"], "6H", ["5H 6H 7H", "9S 9H 9D"])
    assert not result.ok and "joker" in result.reason.lower()


# -- Vatican ------------------------------------------------------------------------------


def test_vatican_first_lay_is_a_run_of_three_from_hand():
    assert check("vatican", [], "5H 6H 7H", ["5H 6H 7H"], first_lay_done=False).ok
    as_set = check("vatican", [], "5H 5S 5D", ["5H 5S 5D"], first_lay_done=False)
    assert not as_set.ok and "first lay" in as_set.reason
    with_joker = check("vatican", [], "5H * 7H", ["5H *6H 7H"], first_lay_done=False)
    assert not with_joker.ok
    # After the run, the same turn may add and rearrange freely.
    more = check(
        "vatican", ["9S 9H 9D"], "5H 6H 7H 9C", ["5H 6H 7H", "9S 9H 9D 9C"], first_lay_done=False
    )
    assert more.ok
    assert check("vatican", [], "5H 5S 5D", ["5H 5S 5D"], first_lay_done=True).ok


def test_vatican_joker_cannot_move_to_another_group():
    result = check(
        "vatican", ["5H *6H 7H 8H", "4S 5S 6S"], "9H", ["5H *6H 7H", "8H 9H *10H", "4S 5S 6S"]
    )
    assert not result.ok


def test_vatican_joker_stays_when_its_group_grows_or_splits_beside_a_neighbour():
    grow = check("vatican", ["5H *6H 7H"], "4H", ["4H 5H *6H 7H"])
    assert grow.ok
    # Split 3H..9H with the joker as 6H: the joker stays beside 5H.
    split = check("vatican", ["3H 4H 5H *6H 7H 8H 9H"], "7H", ["3H 4H 5H *6H", "7H 8H 9H"])
    assert not split.ok  # no hand card added: the split alone is not a lay
    split_add = check("vatican", ["3H 4H 5H *6H 7H 8H 9H"], "7H", ["3H 4H 5H *6H 7H", "7H 8H 9H"])
    assert split_add.ok


def test_vatican_joker_loses_its_neighbours():
    # The joker as 6H ends up next to none of 5H/7H: not allowed (§4.10).
    result = check(
        "vatican",
        ["5H *6H 7H 8H", "6S 6D 6C"],
        "9H 5S 5D",
        ["7H 8H 9H", "6S 6D *6H 6C", "5H 5S 5D"],
    )
    assert not result.ok and "beside it" in result.reason
    # In Carousel the same move is fine: the joker moves as the same card.
    assert check(
        "carousel",
        ["5H *6H 7H 8H", "6S 6D 6C"],
        "9H 5S 5D",
        ["7H 8H 9H", "6S 6D *6H 6C", "5H 5S 5D"],
    ).ok


# -- Tahiti -------------------------------------------------------------------------------


def test_tahiti_singles_may_be_used_or_left():
    singles = P("5H KS")
    table = [[c] for c in singles]
    rules = get_rulebook("tahiti")
    use = check_move(rules, table, P("6H 7H"), [P("5H 6H 7H"), P("KS")], singles=singles)
    assert use.ok
    leave = check_move(
        rules, table, P("9C 9D 9S"), [P("5H"), P("KS"), P("9C 9D 9S")], singles=singles
    )
    assert leave.ok
    # A hand card can't stand alone like a single.
    alone = check_move(
        rules, table, P("9C 9D 9S 2H"), [P("5H"), P("KS"), P("9C 9D 9S"), P("2H")], singles=singles
    )
    assert not alone.ok


def test_tahiti_locked_group_only_takes_hand_cards():
    add = check("tahiti", ["5H *6H 7H"], "8H", ["5H *6H 7H 8H"])
    assert add.ok
    move_out = check(
        "tahiti", ["5H *6H 7H 8H", "8S 8D 8C"], "9H", ["5H *6H 7H", "8H 9H 10H", "8S 8D 8C"]
    )
    assert not move_out.ok
    table_card_in = check(
        "tahiti", ["5H *6H 7H", "8S 8D 8C 8H"], "2C", ["5H *6H 7H 8H", "8S 8D 8C"]
    )
    assert not table_card_in.ok


def test_tahiti_freeing_needs_the_real_card_from_hand():
    vanished = check("tahiti", ["5H *6H 7H"], "6H 8H", ["5H 6H 7H 8H"])
    assert not vanished.ok and "joker" in vanished.reason.lower()
    ok = check("tahiti", ["5H *6H 7H", "9S 9D 9C"], "6H", ["5H 6H 7H", "9S 9D 9C *9H"])
    assert ok.ok
    # A 6H already on the table does not free it.
    from_table = check("tahiti", ["5H *6H 7H", "6H 6S 6D 6C"], "2C", ["5H 6H 7H", "6S 6D 6C *6H"])
    assert not from_table.ok


def test_tahiti_one_joker_per_group():
    result = check("tahiti", [], "5H * * 8H", ["5H *6H *7H 8H"])
    assert not result.ok and "only one" in result.reason


@pytest.mark.parametrize("name", ["manipulation", "machiavelli", "shanghai", "guadeloupe"])
def test_no_jokers_rulebooks_still_check(name):
    assert check(name, ["9S 9H 9D"], "9C", ["9S 9H 9D 9C"]).ok


def test_tahiti_locked_group_found_whatever_the_group_order():
    # The locked [*5S 6S 7S] stays as it was; an unlocked run holding the same faces comes first
    # in the new table and must not be taken for it.
    old = ["5S 6S 7S 8S", "*5S 6S 7S"]
    new = ["5S 6S 7S 8S", "*5S 6S 7S", "9H 9D 9C"]
    assert check("tahiti", old, "9H 9D 9C", new).ok
    assert check("tahiti", old, "9H 9D 9C", [new[1], new[0], new[2]]).ok


def test_vatican_jokers_each_keep_a_neighbour_whatever_the_group_order():
    # Two jokers stand for 6H: the first was between 5H and 7H, the second beside 7H. Afterwards
    # one sits beside 7H only and the other beside 5H only: each kept a neighbour.
    old = ["5H *6H 7H", "*6H 7H 8H"]
    new = ["*6H 7H 8H 9H", "4H 5H *6H", "7H 7S 7D"]
    assert check("vatican", old, "4H 9H 7S 7D", new).ok
    assert check("vatican", old, "4H 9H 7S 7D", [new[1], new[0], new[2]]).ok
    lost = check("vatican", old, "6S 6D 9H", ["5H *6H 7H", "7H 8H 9H", "6S 6D *6H"])
    assert not lost.ok and "beside it" in lost.reason


# -- the ace note: said only when the ace is the reason (issue 44) ------------------------


def check_pieces(name, group):
    """`group` laid from the hand on an empty table (its cards, or tiles in Rummikub)."""
    rules = get_rulebook(name)
    pieces = parse_cards(group, rules)
    return check_move(rules, [], pieces, [pieces])


@pytest.mark.parametrize(
    ("name", "group"),
    [
        ("manipulation", "AH 2H 3D"),  # mixed suits: no ace rule would make it a run
        ("manipulation", "AS 3S 7S"),  # gaps
        ("machiavelli", "AH 2H 3D"),
        ("shanghai", "AS 3S 7S"),
        ("carousel", "AS 2S 4S"),
        ("manipulation", "AS AH 2S"),  # neither a set nor a run under any ace rule
        ("rummikub", "1R 3R 5R"),
    ],
)
def test_an_invalid_group_with_an_ace_for_another_reason_gets_no_ace_note(name, group):
    result = check_pieces(name, group)
    assert result.code == "group_invalid", (result.code, result.reason)
    assert "ace" not in result.reason and "lowest" not in result.reason, result.reason


@pytest.mark.parametrize(
    ("name", "group", "note"),
    [  # RULES.md §2: each rulebook's ace; §5: Rummikub's 1 is low unless `wrap` is on
        ("manipulation", "AH 2H 3H", "the ace is high only"),
        ("shanghai", "QH KH AH", "the ace is low only"),
        ("machiavelli", "KH AH 2H", "never both"),
        ("guadeloupe", "KH AH 2H", "never both"),
        ("tahiti", "KH AH 2H", "never both"),
        ("carousel", "KH AH 2H", "never in the middle"),
        ("vatican", "KH AH 2H", "never in the middle"),
        ("rummikub", "12R 13R 1R", "1 is always lowest"),
    ],
)
def test_an_ace_where_the_rulebook_forbids_it_gets_the_note(name, group, note):
    result = check_pieces(name, group)
    assert result.code == "group_invalid_with_ace", (result.code, result.reason)
    assert note in result.reason, result.reason
