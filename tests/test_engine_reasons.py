"""Every refusal the engine raises carries a code from engine/rummy/reasons.py (checked on the
source
with `ast`), its sentence is unchanged, and the lessons sort refusals by code exactly as they
sorted them by their words before (the old pattern table is kept here as the reference)."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest
from random_player import decide

from bot.games.rummy.lessons import classify
from engine.buildten.reasons import REASONS as BUILDTEN_REASONS
from engine.rummy import (
    RULEBOOKS,
    Commit,
    Draw,
    Finish,
    GiveUp,
    IllegalAction,
    Knock,
    Move,
    NextRound,
    Pass,
    Place,
    Reset,
    Split,
    Take,
    TimeUp,
    apply,
    check_move,
    get_rulebook,
    new_game,
    parse_cards,
)
from engine.rummy.reasons import REASONS
from engine.rummy.scenario import deal_scenario

ENGINE = Path(__file__).resolve().parent.parent / "engine"
# Calls that pass on a code they were given (not a literal): MoveCheck.error forwards the code
# its failed check carries; those codes are checked where the check fails (`_fail`).
FORWARDERS = {("moves.py", "error")}


def _reasons(path: Path) -> dict[str, str]:
    """The codes a module of the engine may raise: its game's (the root's are in both)."""
    return BUILDTEN_REASONS if "buildten" in path.parts else REASONS


def _code_problems(path: Path, tree: ast.AST) -> list[str]:
    problems = []
    reasons = _reasons(path)
    functions = {}
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                functions.setdefault(id(node), fn.name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        where = f"{path.relative_to(ENGINE.parent)}:{node.lineno}"
        if name == "IllegalAction":
            code = next((k.value for k in node.keywords if k.arg == "code"), None)
            if code is None:
                problems.append(f"{where}: IllegalAction without code=")
            elif isinstance(code, ast.Constant):
                if code.value not in reasons:
                    problems.append(f"{where}: code {code.value!r} is not in the reasons")
            elif (path.name, functions.get(id(node))) not in FORWARDERS:
                problems.append(f"{where}: code= is not a literal")
        elif name == "_fail":
            first = node.args[0] if node.args else None
            if not (isinstance(first, ast.Constant) and first.value in reasons):
                problems.append(f"{where}: _fail without a catalogue code")
    return problems


def _engine_trees():
    for path in sorted(ENGINE.rglob("*.py")):
        yield path, ast.parse(path.read_text())


def test_every_refusal_in_the_engine_names_a_catalogued_code():
    problems = []
    for path, tree in _engine_trees():
        problems += _code_problems(path, tree)
    assert problems == []


def test_the_checker_reports_planted_refusals(tmp_path):
    planted = ENGINE / "planted_example.py"  # a path under engine/ for the report's name only
    tree = ast.parse(
        'raise IllegalAction("No code")\n'
        'raise IllegalAction("Made up", code="no_such_code")\n'
        'raise IllegalAction("From a variable", code=some_code)\n'
        'x = _fail("not_catalogued", "text")\n'
        'raise IllegalAction("Fine", code="not_your_turn")\n'
    )
    assert len(_code_problems(planted, tree)) == 4


def test_meld_faults_and_joker_choice_are_catalogued():
    from engine.rummy import melds

    assert set(melds.MeldFault.__args__) <= set(REASONS)
    assert "joker_choice_needed" in REASONS


def test_every_catalogued_code_is_raised_somewhere():
    text = "\n".join(p.read_text() for p in ENGINE.rglob("*.py") if p.name != "reasons.py")
    unused = [c for c in REASONS | BUILDTEN_REASONS if c != "illegal" and f'"{c}"' not in text]
    assert unused == []


def test_a_refusal_keeps_its_sentence_and_gains_code_and_params():
    state = deal_scenario("manipulation", ["5H 6H", "KS KD"])
    with pytest.raises(IllegalAction) as caught:
        apply(state, Draw(1))
    assert str(caught.value) == "It's not your turn" == caught.value.reason
    assert caught.value.code == "not_your_turn" and caught.value.params == {"turn": 0}
    plain = IllegalAction("From the bot")
    assert str(plain) == "From the bot" and plain.code == "illegal" and plain.params == {}
    check = check_move(get_rulebook("manipulation"), [], parse_cards("5S 5D 2C"),
                       [parse_cards("5S 5D")])
    error = check.error()
    assert str(error) == "Group A has only 2 cards (5S 5D): a set or run needs at least 3"
    assert (error.code, error.params) == ("group_too_small", {"group": 0})


# -- the lessons' sorting: by code now, as by the words before ------------------------------

OLD_REASON_PATTERNS: tuple[tuple[str, str], ...] = (  # lessons/runner.py before codes
    (r"has only \d+ card", "too_few"),
    (r"not a set or a run.*\((the|an) ace", "ace"),
    (r"not a set or a run", "not_meld"),
    (r"never go back into a hand|missing from the table", "back_to_hand"),
    (r"at least one card from your hand", "nothing_added"),
    (r"loose cards", "loose"),
    (r"first lay", "first_lay"),
    (r"must keep standing for", "joker_keep"),
    (r"can't leave the cards beside it", "joker_immobile"),
    (r"holds a joker|group that holds a joker", "locked"),
    (r"holds two jokers", "two_jokers"),
    (r"knock only with", "knock_limit"),
    (r"no knocking|knock only after|Nobody may knock", "knock"),
    (r"Draw a card first", "draw_first"),
    (r"pass only when the stock is empty|can't pass while", "pass_stock"),
    (r"stock is empty|stock has run out", "stock_empty"),
    (r"Finish your move with Done, or give up", "give_up_first"),
    (r"Reset becomes Give up", "reset_is_give_up"),
    (r"nothing to give up", "nothing_to_give_up"),
    (r"no Give up", "no_give_up"),
    (r"There is no group", "no_group"),
    (r"split it after", "split"),
    (r"You have (no|only)|There is no |Select the cards|Name the card", "no_card"),
    (r"not your turn", "turn"),
)


def old_classify(reason: str) -> str:
    for pattern, key in OLD_REASON_PATTERNS:
        if re.search(pattern, reason, re.IGNORECASE):
            return key
    return "illegal"


def _random_action(state, rng: random.Random):
    """Anything at all: right or wrong seat, cards from anywhere, groups that may not exist."""
    seat = state.turn if rng.random() < 0.85 else rng.randrange(state.players)
    pool = [c for h in state.hands for c in h] + [c for g in state.table for c in g]
    pool += state.singles + state.stock[-5:]
    groups = len(state.table) + 2

    def cards(k):
        return tuple(rng.sample(pool, min(len(pool), k)))

    def arrangement():
        table = [list(g) for g in state.table]
        for card in rng.sample(state.hands[state.turn], min(3, len(state.hands[state.turn]))):
            if table and rng.random() < 0.6:
                rng.choice(table).append(card)
            else:
                table.append([card])
        if table and rng.random() < 0.3:
            table[0] = table[0][1:]
        if rng.random() < 0.2:
            table.append(list(cards(rng.randrange(1, 4))))
        return tuple(tuple(g) for g in table)

    return rng.choice([
        lambda: Draw(seat), lambda: Pass(seat), lambda: GiveUp(seat), lambda: Reset(seat),
        lambda: NextRound(seat), lambda: Finish(seat), lambda: Commit(seat),
        lambda: Commit(seat, arrangement()), lambda: Knock(seat, arrangement()),
        lambda: Knock(seat), lambda: Place(seat, cards(rng.randrange(0, 3)), None),
        lambda: Place(seat, cards(1), rng.randrange(-1, groups)),
        lambda: Take(seat, rng.randrange(-1, groups), rng.choice([None, *cards(1)])),
        lambda: Move(seat, cards(rng.randrange(0, 2)), rng.randrange(groups), None),
        lambda: Split(seat, rng.randrange(groups), rng.randrange(0, 6)),
    ])()


def _refusals(name: str, seed: int, players: int = 3, tries: int = 12):
    rng = random.Random(seed)
    state = new_game(name, players, seed)
    found = []
    for _ in range(160):
        if state.phase == "game_over":
            break
        for _ in range(tries):  # probe this position with random actions
            try:
                probe, _ = apply(state, _random_action(state, rng))
            except IllegalAction as error:
                found.append(error)
                continue
            if probe.phase == "play" and probe.draft is not None and rng.random() < 0.3:
                try:  # ... and the position after a draft edit
                    apply(probe, _random_action(probe, rng))
                except IllegalAction as error:
                    found.append(error)
        if state.phase == "round_over":
            state, _ = apply(state, Finish(0) if state.rules.game_end.finish_by_choice
                             else NextRound(0))
            continue
        for action in decide(state, rng):
            try:
                state, _ = apply(state, action)
            except IllegalAction:
                continue
            if state.phase != "play":
                break
    return found


@pytest.mark.parametrize("name", RULEBOOKS)
def test_lessons_sort_every_refusal_as_the_words_did(name):
    errors = _refusals(name, seed=3) + _refusals(name, seed=4, players=2)
    assert len(errors) > 200
    wrong = {(e.code, str(e), classify(e), old_classify(str(e))) for e in errors
             if classify(e) != old_classify(str(e))}
    assert wrong == set()
    assert all(e.code in REASONS for e in errors)


def test_the_random_refusals_reach_most_codes():
    codes = {e.code for name in RULEBOOKS for e in _refusals(name, seed=3)}
    assert len(codes) >= 20, sorted(set(REASONS) - codes)  # the scripts below reach all


# -- one scripted refusal per code ------------------------------------------------------------

P = parse_cards
CHECKS = [  # (rulebook, table, hand, new table, first_lay_done, code)
    ("manipulation", ["9S 9H 9D"], "2C 5H", ["2C 5H 9D"], True, "table_card_to_hand"),
    ("manipulation", [], "5H 6H", ["5H 6H 7H"], True, "card_not_in_hand"),
    ("manipulation", [], "5H 6H 7H 8C 9C", ["5H 6H 7H", "8C 9C"], True, "group_too_small"),
    ("manipulation", ["9S 9H 9D"], "2C", ["9S 9H 9D"], True, "nothing_added"),
    ("manipulation", [], "5H 6H 7H", ["5H 6H", "7H"], True, "group_too_small"),
    ("manipulation", [], "5H", ["5H 5H"], True, "card_not_in_hand"),
    ("manipulation", [], "5H 6S 7H", ["5H 6S 7H"], True, "group_invalid"),
    ("manipulation", [], "AS 2S 3S", ["AS 2S 3S"], True, "group_invalid_with_ace"),
    ("tahiti", [], "5H * * 8H", ["5H *6H *7H 8H"], True, "group_two_jokers"),
    ("carousel", ["*6H 7H 8H 9H"], "10H JH", ["7H 8H 9H 10H JH *QH"], True, "joker_keeps_card"),
    ("vatican", ["5H *6H 7H 8H", "6S 6D 6C"], "9H 5S 5D",
     ["7H 8H 9H", "6S 6D *6H 6C", "5H 5S 5D"], True, "joker_immobile"),
    ("tahiti", ["5H *6H 7H 8H", "8S 8D 8C"], "9H", ["5H *6H 7H", "8H 9H 10H", "8S 8D 8C"], True,
     "card_not_in_hand"),
    ("tahiti", ["5H *6H 7H 8H", "8S 8D 8C"], "9H 10H",
     ["5H *6H 7H", "8H 9H 10H", "8S 8D 8C"], True, "group_locked"),
    ("tahiti", ["5H *6H 7H", "8S 8D 8C 8H"], "2C 3C 4C",
     ["5H *6H 7H 8H", "8S 8D 8C", "2C 3C 4C"], True, "locked_group_took_table_card"),
    ("vatican", [], "5H 5S 5D", ["5H 5S 5D"], False, "first_lay_run3"),
    # Rummikub, in tile notation
    ("rummikub", [], "2R 2B 2O 3R 3B 3O", ["2R 2B 2O", "3R 3B 3O"], False,
     "initial_meld_too_low"),
    ("rummikub", ["10B 11B 12B"], "13B 9K 10K 11K", ["10B 11B 12B 13B", "9K 10K 11K"], False,
     "initial_meld_table_touched"),
    ("rummikub", ["*5R 6R 7R"], "8R", ["6R 7R 8R *9R"], True, "joker_needs_rack_tile"),
    ("rummikub", ["8R 9R 10R", "9K *9R 9B"], "7R", ["7R 8R *9R 10R", "9K 9R 9B"], True,
     "joker_left_group"),
    ("rummikub", ["5R 6R *7R", "9K 10K 11K"], "7R", ["5R 6R 7R", "9K 10K 11K *12K"], True,
     "freed_joker_needs_new_group"),
]


@pytest.mark.parametrize(("name", "table", "hand", "new", "done", "code"), CHECKS)
def test_scripted_check_refusals(name, table, hand, new, done, code):
    rules = get_rulebook(name)

    def parse(text: str):
        return parse_cards(text, rules)

    check = check_move(rules, [parse(g) for g in table], parse(hand), [parse(g) for g in new],
                       first_lay_done=done)
    error = check.error()
    assert not check.ok and error.code == code, str(error)
    assert classify(error) == old_classify(str(error))


def _at(name, hands=("5H 6H 7H 2C", "KS KD"), options=None, **kw):
    return deal_scenario(get_rulebook(name, **(options or {})), list(hands), **kw)


def _empty_stock(state):
    state.hands[1] += state.stock
    state.stock = []
    return state


def _phase(state, phase):
    state.phase = phase
    return state


def _final(state, turns=2):
    state.final_turns = turns
    return state


GIVE_BACK = {"unfinished_move": "give_back_draw_3"}
C = P("9S 9H 9D")  # a table group
APPLIED = [  # (position, actions, code)
    (lambda: _at("manipulation"), [Draw(5)], "seat_not_in_game"),
    (lambda: _phase(_at("manipulation"), "game_over"), [Draw(0)], "game_over"),
    (lambda: _phase(_at("manipulation"), "round_over"), [Draw(0)], "round_over"),
    (lambda: _at("manipulation"), [NextRound(0)], "round_in_play"),
    (lambda: _at("manipulation"), [Draw(1)], "not_your_turn"),
    (lambda: _at("manipulation"), [Finish(0)], "finish_not_by_choice"),
    (lambda: _at("shanghai"), [Finish(0)], "finish_before_round_over"),
    (lambda: _empty_stock(_at("manipulation")), [Draw(0)], "stock_empty"),
    (lambda: _empty_stock(_at("carousel")), [Draw(0)], "stock_empty"),
    (lambda: _final(_at("carousel")), [Draw(0)], "final_turns_no_draw"),
    (lambda: _at("carousel"), [Commit(0, ((P("5H 6H 7H")),))], "draw_first"),
    (lambda: _at("manipulation"), [Pass(0)], "pass_needs_empty_stock"),
    (lambda: _at("carousel"), [Draw(0), Pass(0)], "pass_needs_empty_stock"),
    (lambda: _at("machiavelli", options=GIVE_BACK),
     [Place(0, tuple(P("5H 6H 7H")), None), Draw(0)], "give_up_first"),
    (lambda: _at("machiavelli", options=GIVE_BACK),
     [Place(0, tuple(P("5H 6H 7H")), None), Reset(0)], "reset_is_give_up"),
    (lambda: _at("manipulation"), [GiveUp(0)], "no_give_up"),
    (lambda: _at("machiavelli", options=GIVE_BACK), [GiveUp(0)], "nothing_to_give_up"),
    (lambda: _at("manipulation"), [Knock(0)], "no_knocking"),
    (lambda: _final(_at("carousel")), [Knock(0)], "knock_in_final_turns"),
    (lambda: _at("carousel"), [Knock(0)], "knock_after_draw"),
    (lambda: _at("carousel", ("5H 6H 7H KC QC", "KS KD")), [Draw(0), Knock(0)], "knock_limit"),
    (lambda: _at("carousel", ("5H 6H 7H KC QC", "KS KD")),
     [Draw(0), Knock(0, (tuple(P("5H 6H 7H")),))], "knock_limit"),
    (lambda: _at("manipulation"), [Place(0, tuple(P("5H")), 4)], "no_such_group"),
    (lambda: _at("manipulation", table=["9S 9H 9D"]), [Take(0, 0, P("9C")[0])], "no_such_card"),
    (lambda: _at("manipulation"), [Place(0, tuple(P("KS")), None)], "card_not_available"),
    (lambda: _at("manipulation"), [Place(0, (), None)], "nothing_selected"),
    (lambda: _at("manipulation", table=["9S 9H 9D"]), [Take(0, 0, None)], "take_needs_card"),
    (lambda: _at("manipulation", table=["9S 9H 9D"]), [Move(0, (), 0, None)], "move_needs_cards"),
    (lambda: _at("manipulation", table=["9S 9H 9D"]), [Split(0, 0, 3)], "split_out_of_range"),
    (lambda: _at("manipulation", table=["9S 9H 9D 9C"]),
     [Take(0, 0, P("9C")[0]), Commit(0)], "loose_cards"),
    (lambda: _at("manipulation", table=["9S 9H 9D"]),
     [Commit(0, (tuple(P("5H 6H 7H")),))], "table_card_to_hand"),
    (lambda: _at("manipulation"), [Commit(0)], "nothing_added"),
    (lambda: _at("manipulation"), [Commit(0, (tuple(P("5H 6H")),))], "group_too_small"),
    (lambda: _at("carousel", ("9S 9H * 2C", "KS KD")),
     [Draw(0), Commit(0, (tuple(P("9S 9H *")),))], "joker_choice_needed"),
    (lambda: _at("rummikub", ("5R 6R 7R", "9K 9B")), [TimeUp(0)], "no_turn_timer"),
]


@pytest.mark.parametrize(("position", "actions", "code"), APPLIED,
                         ids=[f"{i}-{c}" for i, (_, _, c) in enumerate(APPLIED)])
def test_scripted_refusals(position, actions, code):
    state = position()
    *before, last = actions
    for action in before:
        state, _ = apply(state, action)
    with pytest.raises(IllegalAction) as caught:
        apply(state, last)
    error = caught.value
    assert error.code == code, str(error)
    if code != "joker_choice_needed":  # the lessons ask about the joker instead
        assert classify(error) == old_classify(str(error))


def test_the_scripts_reach_every_code():
    reached = {code for *_, code in CHECKS} | {code for *_, code in APPLIED}
    # Build-to-Ten's own codes (bt_) are reached by tests/test_buildten_rules.py
    rummy = {code for code in REASONS if not code.startswith("bt_")}
    assert rummy - reached == {"unknown_action", "illegal"}
