"""Rulebooks and their options (RULES.md §1–2) and round scoring (§2, §4.7–4.8)."""

import pytest

from engine.rummy import RULEBOOKS, get_rulebook, parse_cards, score_round
from engine.rummy.rulebooks import option_choices
from engine.rummy.scoring import carousel_final


def test_seven_rulebooks_manipulation_first():
    assert RULEBOOKS == (
        "manipulation",
        "machiavelli",
        "shanghai",
        "guadeloupe",
        "carousel",
        "vatican",
        "tahiti",
    )
    assert get_rulebook().name == "manipulation"


@pytest.mark.parametrize(
    ("name", "hand", "decks", "jokers"),
    [
        ("manipulation", 7, 2, 0),
        ("machiavelli", 13, 2, 0),
        ("shanghai", 10, 2, 0),
        ("guadeloupe", 5, 2, 0),
        ("carousel", 10, 2, 2),
        ("vatican", 13, 2, 2),
        ("tahiti", 5, 2, 4),
    ],
)
def test_deal_sizes_and_decks(name, hand, decks, jokers):
    rules = get_rulebook(name)
    assert rules.hand_size == hand
    assert rules.deck_for(3) == (decks, jokers)


def test_carousel_two_players_one_deck_one_joker():
    assert get_rulebook("carousel").deck_for(2) == (1, 1)
    assert get_rulebook("carousel").deck_for(5) == (2, 2)


def test_shanghai_deals_in_batches():
    assert get_rulebook("shanghai").batches == (3, 3, 3, 1)
    assert get_rulebook("tahiti").singles == 4


def test_option_defaults():
    assert get_rulebook("manipulation").options == {"must_lay": "remind", "play_to": 200}
    assert get_rulebook("shanghai").options == {"must_lay": "remind"}
    for name in ("machiavelli", "guadeloupe", "tahiti"):
        assert get_rulebook(name).options == {"unfinished_move": "reset"}
    for name in ("carousel", "vatican"):
        assert get_rulebook(name).options == {}


def test_option_values():
    rules = get_rulebook("manipulation", must_lay="trust", play_to=300)
    assert not rules.remind and rules.play_to == 300
    assert get_rulebook("manipulation", play_to="300").play_to == 300
    assert get_rulebook("tahiti", unfinished_move="give_back_draw_3").give_back
    assert option_choices("manipulation") == {
        "must_lay": ("remind", "trust"),
        "play_to": (200, 300),
    }


def test_unknown_rulebook_names_the_allowed_ones():
    with pytest.raises(ValueError, match="manipulation, machiavelli"):
        get_rulebook("canasta")


def test_option_the_rulebook_does_not_have():
    with pytest.raises(ValueError, match="must_lay"):
        get_rulebook("shanghai", play_to=300)
    with pytest.raises(ValueError, match="no options"):
        get_rulebook("vatican", must_lay="trust")


def test_bad_option_value_names_the_allowed_values():
    with pytest.raises(ValueError, match=r"200 \| 300"):
        get_rulebook("manipulation", play_to=250)
    with pytest.raises(ValueError, match=r"remind \| trust"):
        get_rulebook("manipulation", must_lay="sometimes")


def hands(*texts):
    return [parse_cards(t) for t in texts]


def test_manipulation_penalties():
    # Ace 15, tens and face cards 10, any other card 5; the player who went out scores 0.
    rules = get_rulebook("manipulation")
    score = score_round(rules, hands("", "AS 10H KD 2C", "5S"), went_out=0)
    assert score.points == (0, 15 + 10 + 10 + 5, 5)
    assert score.winners == (0,)


def test_manipulation_blocked_round_scored_the_same_way():
    score = score_round(get_rulebook("manipulation"), hands("2S", "AS", "3C 4C"))
    assert score.points == (5, 15, 10)
    assert score.winners == (0,)
    assert score.how == "blocked"


@pytest.mark.parametrize("name", ["machiavelli", "shanghai", "guadeloupe"])
def test_one_point_a_card(name):
    score = score_round(get_rulebook(name), hands("", "AS KD", "5S 6S 7S"), went_out=0)
    assert score.points == (0, 2, 3)


@pytest.mark.parametrize("name", ["machiavelli", "vatican"])
def test_blocked_single_round_fewest_cards_wins_or_draw(name):
    rules = get_rulebook(name)
    assert score_round(rules, hands("AS", "2S 3S", "4S 5S")).winners == (0,)
    assert score_round(rules, hands("AS 2D", "2S 3S", "4S 5S 6S")).winners == (0, 1)


def test_vatican_no_scoring():
    assert score_round(get_rulebook("vatican"), hands("", "AS KD"), went_out=0).points == (0, 0)


def test_tahiti_penalties_and_blocked():
    # joker 30, ace 11, face card 10, other cards face value.
    rules = get_rulebook("tahiti")
    score = score_round(rules, hands("", "* AS KD 7C"), went_out=0)
    assert score.points == (0, 30 + 11 + 10 + 7)
    blocked = score_round(rules, hands("KS", "2S 3S", "AS"))
    assert blocked.winners == (1,)  # fewest points, not fewest cards
    assert score_round(rules, hands("KS", "5S 5D", "AS")).winners == (0, 1)


def test_carousel_values():
    rules = get_rulebook("carousel")
    assert rules.hand_value(parse_cards("* KS QD JC AS 10H 7C")) == 25 + 10 + 10 + 10 + 1 + 10 + 7


def test_carousel_going_out_scores_others_plus_25():
    score = score_round(get_rulebook("carousel"), hands("", "5S 6S", "KS"), went_out=0)
    assert score.points == (11 + 10 + 25, 0, 0)


def test_carousel_knock_wins_sum_of_differences():
    # Knocker holds 3, others 10 and 20: scores (10-3) + (20-3).
    score = score_round(get_rulebook("carousel"), hands("3S", "10S", "KS QS"), knocker=0)
    assert score.winners == (0,)
    assert score.points == (7 + 17, 0, 0)


def test_carousel_undercut_scores_ten_more():
    score = score_round(get_rulebook("carousel"), hands("4S", "2S", "KS"), knocker=0)
    assert score.winners == (1,)
    assert score.points == (0, 2 + 8 + 10, 0)


def test_carousel_knocker_tie_goes_to_the_other_player_with_bonus():
    score = score_round(get_rulebook("carousel"), hands("4S", "4D", "KS"), knocker=0)
    assert score.winners == (1,)
    assert score.points == (0, 0 + 6 + 10, 0)


def test_carousel_two_others_tie_both_win():
    score = score_round(get_rulebook("carousel"), hands("5S", "2S", "2D", "KS"), knocker=0)
    assert score.winners == (1, 2)
    assert score.points == (0, 3 + 0 + 8 + 10, 3 + 0 + 8 + 10, 0)


def test_carousel_stock_exhausted_no_bonus_ties_both_win():
    score = score_round(get_rulebook("carousel"), hands("3S", "3D", "KS"))
    assert score.winners == (0, 1)
    assert score.points == (0 + 7, 0 + 7, 0)


def test_carousel_two_players_winner_scores_the_difference():
    score = score_round(get_rulebook("carousel"), hands("3S", "9S"), knocker=0)
    assert score.points == (6, 0)


def test_carousel_game_end_bonuses():
    # Reaching 150 scores 100 more; 25 more per round won.
    assert carousel_final([160, 90], [3, 2], 150) == [160 + 100 + 75, 90 + 50]


def test_the_rulebook_says_which_way_totals_rank():
    from engine.rummy import RULEBOOKS, get_rulebook

    better = {name: get_rulebook(name).higher_is_better for name in RULEBOOKS}
    assert better == {name: name == "carousel" for name in RULEBOOKS}  # RULES.md: Carousel
