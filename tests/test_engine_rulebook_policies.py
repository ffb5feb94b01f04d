"""The rule book reads as data: turn styles, scoring and game ends are policies reached from the
Rulebook (engine/rummy/styles.py), the deal is an input (engine/rummy/deal.py), and the game loop
never
compares a preset's name."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from engine.cards import make_deck, parse_cards
from engine.rummy import RULEBOOKS, apply, conservation_errors, get_rulebook, new_game
from engine.rummy.actions import NextRound
from engine.rummy.deal import deck_order, start_game, start_position
from engine.rummy.scenario import deal_scenario
from engine.rummy.styles import GAME_ENDS, SCORE_STYLES, TURN_STYLES

ENGINE = Path(__file__).resolve().parent.parent / "engine" / "rummy"
PRESET_NAMES = set(TURN_STYLES) | set(SCORE_STYLES) | set(GAME_ENDS)


@pytest.mark.parametrize("name", RULEBOOKS)
def test_every_rulebook_reaches_its_policies(name):
    rules = get_rulebook(name)
    assert rules.turn_style.name == rules.turn
    assert rules.score_style.name == rules.scoring
    assert rules.game_end.name == rules.length
    assert rules.higher_is_better == (name == "carousel")  # RULES.md: Carousel counts points won


def test_what_the_styles_say():
    assert {n: s.draw_count for n, s in TURN_STYLES.items()}["draw-two-or-play+1"] == 2
    carousel = get_rulebook("carousel").turn_style
    assert carousel.draw_first and carousel.knock and carousel.draw_limit == 3
    assert carousel.stock_out == "final_turns"
    assert not get_rulebook("manipulation").turn_style.draw_ends_turn
    assert get_rulebook("guadeloupe").turn_style.draw_after_lay == 1
    assert get_rulebook("shanghai").game_end.finish_by_choice
    assert get_rulebook("manipulation").best([30, 10, 10]) == [1, 2]
    assert get_rulebook("carousel").best([30, 10, 30]) == [0, 2]


NAME_FIELDS = {"turn", "scoring", "length", "name", "rulebook"}  # Rulebook/GameState fields


def _string_comparisons(path: Path) -> list[str]:
    """`rules.turn == "carousel"`-style comparisons (a rulebook's name, or the name of one of
    its presets, against a string or strings) in one module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.Compare):
            continue
        parts = [node.left, *node.comparators]
        named = any(isinstance(p, ast.Attribute) and p.attr in NAME_FIELDS for p in parts)
        for part in parts:
            values = part.elts if isinstance(part, (ast.Tuple, ast.List, ast.Set)) else [part]
            for value in values:
                if named and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    found.append(f"{path.name}:{node.lineno} {value.value!r}")
    return found


def test_the_game_loop_asks_the_policies_never_the_names():
    hits = []
    for name in ("game.py", "scoring.py", "moves.py", "draft.py", "playout.py", "rulebooks.py"):
        hits += _string_comparisons(ENGINE / name)
    lessons = ENGINE.parent.parent / "bot" / "games" / "rummy" / "lessons" / "runner.py"
    hits += _string_comparisons(lessons)
    assert hits == []


def test_the_comparison_finder_finds_a_planted_one(tmp_path):
    planted = tmp_path / "x.py"
    planted.write_text(
        'if rules.turn == "carousel" or rules.scoring in ("penalty",):\n  pass\n'
        'if end.rounds == "open" or state.rulebook != "tahiti":\n  pass\n'
    )
    assert len(_string_comparisons(planted)) == 3


# -- the deal -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", RULEBOOKS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_deck_order_is_the_shuffle_new_game_deals_from(name, players):
    rules = get_rulebook(name)
    decks, jokers = rules.deck_for(players)
    expected = make_deck(decks, jokers)
    random.Random("rummy:7:1").shuffle(expected)  # the order the engine has always used
    assert deck_order(rules, players, 7) == expected
    state = new_game(rules, players, 7)
    dealt = [c for h in state.hands for c in h] + state.singles + state.stock
    assert sorted(c.ident for c in dealt) == sorted(c.ident for c in expected)
    assert state.stock == expected[: len(state.stock)]  # the undealt bottom of the deck
    assert start_game(rules, players, 7).to_json() == state.to_json()


def test_next_round_is_dealt_from_that_rounds_order():
    state = new_game("manipulation", 2, 4)
    state.phase = "round_over"
    after, _ = apply(state, NextRound(0))
    order = deck_order(get_rulebook("manipulation"), 2, 4, round=2)
    assert after.stock == order[: len(after.stock)]
    assert after.turn == 1  # the next seat starts round 2


def test_a_game_from_a_given_deck():
    rules = get_rulebook("machiavelli")
    deck = make_deck(2, 0)  # unshuffled: the top (end) is the king of clubs, copy 1
    state = start_game(rules, 2, seed=1, deck=deck)
    assert state.hands[0][0] == deck[-1] and len(state.hands[0]) == 13
    assert not conservation_errors(state)
    assert deck == make_deck(2, 0)  # the given deck is not changed


def test_a_position_and_the_scenario_built_on_it():
    rules = get_rulebook("vatican")
    hands = [parse_cards("5H 6H 7H"), parse_cards("KS KD")]
    state = start_position(rules, hands, table=[parse_cards("9S 9H 9D")], turn=1)
    assert state.turn == 1 and state.first_lay_done == [False, False]
    assert state.table == [parse_cards("9S 9H 9D")] and state.draft is None
    scripted = deal_scenario("vatican", ["5H 6H 7H", "KS KD"], stock_top="4C 2D")
    assert [c.face for c in scripted.stock[-2:]] == ["2D", "4C"]  # 4C is drawn first
    assert not conservation_errors(scripted)


def test_no_engine_module_imports_a_private_name_of_another():
    private = []
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                private += [f"{path.name}: {a.name}" for a in node.names
                            if a.name.startswith("_") and not a.name.startswith("__")]
    assert [p for p in private if p.startswith("scenario.py")] == []
