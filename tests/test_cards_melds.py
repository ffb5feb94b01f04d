"""Cards, notation, and sets and runs under each ace policy (RULES.md §1, §2, §4.1–4.2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import Card, make_deck
from engine.rummy import RULEBOOKS, format_cards, get_rulebook, meld_kind, parse_cards
from engine.rummy.melds import readings


def kind(name: str, text: str):
    return meld_kind(get_rulebook(name), parse_cards(text))


def test_notation_round_trip_and_aliases():
    cards = parse_cards("QH 10S * *7H TH ah")
    assert format_cards(cards) == "QH 10S * *7H 10H AH"
    assert cards[3].is_joker and cards[3].designated and cards[3].play_face == "7H"
    assert cards[2].is_joker and not cards[2].designated


def test_two_copies_are_distinct_physical_cards_equal_for_play():
    a, b = parse_cards("7H 7H")
    assert a != b and a.ident != b.ident
    assert a.face == b.face == "7H"


@pytest.mark.parametrize("bad", ["1H", "11S", "7X", "H7", "", "**"])
def test_bad_notation_names_the_token(bad):
    with pytest.raises(ValueError):
        parse_cards([bad]) if bad else parse_cards([""])


def test_decks():
    assert len(make_deck(2, 0)) == 104
    assert len(make_deck(1, 1)) == 53
    assert len(make_deck(2, 2)) == 106
    assert len(make_deck(2, 4)) == 108
    assert len({c.ident for c in make_deck(2, 4)}) == 108


@given(st.sampled_from(make_deck(2, 4)))
def test_token_round_trip(card: Card):
    assert Card.from_token(card.token) == card
    if card.is_joker:
        fixed = card.designate(7, "H")
        assert Card.from_token(fixed.token) == fixed


# §1: a set is 3–4 cards of the same rank, each of a different suit; a run is 3+ of one suit.
@pytest.mark.parametrize("name", RULEBOOKS)
def test_sets_and_runs_common(name):
    assert kind(name, "9S 9H 9D") == "set"
    assert kind(name, "9S 9H 9D 9C") == "set"
    assert kind(name, "5H 6H 7H") == "run"
    assert kind(name, "5H 6H 7H 8H 9H 10H JH") == "run"
    assert kind(name, "7H 7H 8H") is None  # the example: neither
    assert kind(name, "9S 9S 9H") is None  # §4.2: a set never holds two cards of one suit
    assert kind(name, "9S 9H") is None
    assert kind(name, "5H 6H 8H") is None
    assert kind(name, "5H 6S 7H") is None
    assert kind(name, "KH AH 2H") is None  # §4.1: never wraps


def test_runs_may_be_given_in_any_order():
    assert kind("manipulation", "9H 7H 8H") == "run"


def test_manipulation_ace_high_only():
    assert kind("manipulation", "QH KH AH") == "run"
    assert kind("manipulation", "AH 2H 3H") is None
    assert kind("manipulation", "KH AH 2H") is None


def test_shanghai_ace_low_only():
    assert kind("shanghai", "AH 2H 3H") == "run"
    assert kind("shanghai", "QH KH AH") is None
    assert kind("shanghai", "KH AH 2H") is None


@pytest.mark.parametrize("name", ["machiavelli", "guadeloupe", "tahiti"])
def test_ace_high_or_low_never_both(name):
    assert kind(name, "AH 2H 3H") == "run"
    assert kind(name, "QH KH AH") == "run"
    assert kind(name, "KH AH 2H") is None
    # §4.1: a run may not contain two aces.
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert kind(name, full) is None
    assert kind(name, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH") == "run"


@pytest.mark.parametrize("name", ["carousel", "vatican"])
def test_ace_never_in_the_middle(name):
    assert kind(name, "AH 2H 3H") == "run"
    assert kind(name, "QH KH AH") == "run"
    assert kind(name, "KH AH 2H") is None
    # Aces at both ends are not in the middle.
    assert kind(name, "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH") == "run"


def test_joker_readings():
    # §4.9: forced by its group, or several cards fit.
    assert [r.joker_faces for r in readings(parse_cards("5H * 7H"), "ends")] == [((6, "H"),)]
    set_options = {r.joker_faces for r in readings(parse_cards("9S 9H *"), "ends")}
    assert set_options == {((9, "D"),), ((9, "C"),)}
    run_end = {r.joker_faces for r in readings(parse_cards("6H 7H 8H *"), "ends")}
    assert run_end == {((5, "H"),), ((9, "H"),)}
    # §4.2: a joker in a set takes a suit not already present.
    assert kind("carousel", "9S 9H 9D 9C *") is None


def test_designated_jokers_play_as_their_card():
    assert kind("carousel", "5H *6H 7H") == "run"
    assert kind("carousel", "5H *8H 7H") is None
    assert kind("carousel", "9S 9H *9H") is None


def test_tahiti_one_joker_per_group():
    assert kind("tahiti", "5H * 7H") == "run"
    assert kind("tahiti", "5H * * 8H") is None
    assert kind("carousel", "5H * * 8H") == "run"


def test_readings_are_cached_but_each_caller_gets_its_own_list():
    group = parse_cards("9S 9H *")
    first = readings(group, "high")
    assert {r.joker_faces for r in first} == {((9, "D"),), ((9, "C"),)}
    first.clear()
    assert len(readings(group, "high")) == 2
    assert readings(parse_cards("9S * *"), "high", max_jokers=1) == []
