"""Computer players: every decision is legal in every rulebook at every level, the same view
always gives the same action, and no level ever sees a hidden card."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest

from engine.rummy import (
    Commit,
    Draw,
    GameState,
    GiveUp,
    Knock,
    NextRound,
    Place,
    apply,
    check_move,
    conservation_errors,
    get_rulebook,
    legal_actions,
    new_game,
    player_view,
)
from engine.rummy.ai import LEVELS, choose_action
from engine.rummy.ai import hard as ai_hard
from engine.rummy.ai.hard import undercut_chance
from engine.rummy.ai.turn import Turn
from engine.rummy.game import PlayerView
from engine.rummy.playout import table_errors
from engine.rummy.scenario import deal_scenario

CASES = [
    ("manipulation", {"must_lay": "remind"}, ("hard", "easy", "medium")),
    ("manipulation", {"must_lay": "trust", "play_to": 300}, ("easy", "hard")),
    ("machiavelli", {"unfinished_move": "give_back_draw_3"}, ("hard", "medium", "easy")),
    ("shanghai", {"must_lay": "remind"}, ("easy", "hard", "medium")),
    ("shanghai", {"must_lay": "trust"}, ("hard", "easy")),
    ("guadeloupe", {"unfinished_move": "reset"}, ("medium", "hard", "easy")),
    ("guadeloupe", {"unfinished_move": "give_back_draw_3"}, ("hard", "easy")),
    ("carousel", {}, ("hard", "easy")),
    ("carousel", {}, ("easy", "medium", "hard", "medium")),
    ("vatican", {}, ("hard", "medium", "easy")),
    ("tahiti", {"unfinished_move": "give_back_draw_3"}, ("hard", "medium", "easy")),
    ("tahiti", {"unfinished_move": "reset"}, ("easy", "hard")),
]
MAX_ACTIONS = 160


def _play(name: str, options: dict, levels, seed: int, max_actions: int = MAX_ACTIONS,
          on_decision=None) -> GameState:
    """Computer seats play; every decision must be offered by legal_actions and accepted."""
    rules = get_rulebook(name, **options)
    state = new_game(rules, len(levels), seed)
    for _ in range(max_actions):
        if state.phase == "game_over":
            break
        seat = state.turn
        if state.phase == "round_over":
            action = choose_action(player_view(state, seat), levels[seat])
            assert isinstance(action, NextRound)
        else:
            view = player_view(state, seat)
            action = choose_action(view, levels[seat])
            assert action.seat == seat
            # Buttons follow the draft; a Knock carries its own arrangement, and apply() below
            # checks what it leaves in hand against the limit.
            if not isinstance(action, Knock):
                assert action.kind in legal_actions(state, seat), (levels[seat], action.kind)
            else:
                assert state.rules.turn == "carousel" and 1 <= state.draws <= 2
            if on_decision:
                on_decision(state, view, levels[seat], action)
        state, _ = apply(state, action)  # raises IllegalAction on an illegal move
        assert not conservation_errors(state)
        assert not table_errors(state)
    return state


@pytest.mark.parametrize(("name", "options", "levels"), CASES)
def test_every_decision_is_legal(name, options, levels):
    for seed in (11, 12):
        _play(name, options, levels, seed)


@pytest.mark.parametrize("name", ["carousel", "guadeloupe", "tahiti"])
def test_whole_games_end(name):
    """Short rulebooks to the end: round ends, knocks, going out and the game's result."""
    state = _play(name, {}, ("hard", "medium"), 5, max_actions=3000)
    assert state.phase == "game_over"


def test_easy_never_rearranges():
    def check(state, view, level, action):
        if level == "easy" and isinstance(action, (Commit, Knock)) and action.arrangement:
            rules = state.rules
            old = state.table + [[c] for c in state.singles]
            move = check_move(rules, old, state.hands[view.seat], action.arrangement,
                              first_lay_done=view.first_lay_done, singles=state.singles)
            assert move.ok and not move.needs_rearranging

    for name in ("manipulation", "machiavelli", "tahiti", "vatican"):
        _play(name, {}, ("easy", "medium"), 3, max_actions=120, on_decision=check)


# -- determinism --------------------------------------------------------------------------


def _positions(name: str, seed: int, every: int = 7, limit: int = 60) -> list[GameState]:
    """Some mid-game positions of a medium-vs-easy game."""
    out = []

    def keep(state, view, level, action):
        if state.version % every == 0:
            out.append(state)

    _play(name, {}, ("medium", "easy"), seed, max_actions=limit, on_decision=keep)
    return out


@pytest.mark.parametrize("name", ["manipulation", "carousel", "tahiti", "vatican", "guadeloupe"])
def test_same_view_same_action(name):
    for state in _positions(name, 21):
        for level in LEVELS:
            seat = state.turn
            first = choose_action(player_view(state, seat), level)
            again = choose_action(player_view(state, seat), level)
            restored = GameState.from_json(state.to_json())  # a replayed or reloaded game
            assert first == again == choose_action(player_view(restored, seat), level)


# -- hidden information ---------------------------------------------------------------------


def test_choose_action_gets_only_the_view():
    params = list(inspect.signature(choose_action).parameters)
    assert params == ["view", "level"]
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert "hands" not in names and "stock" in names  # the stock is a count, not cards
    state = new_game("tahiti", 3, 1)
    view = player_view(state, 1)
    assert isinstance(view.stock, int)
    assert view.hand == tuple(state.hands[1])
    assert view.hand_counts == tuple(len(h) for h in state.hands)
    hidden = {c.ident for i in (0, 2) for c in state.hands[i]} | {c.ident for c in state.stock}
    for f in dataclasses.fields(PlayerView):
        assert not _cards_in(getattr(view, f.name)) & hidden, f.name


def _cards_in(value) -> set:
    from engine.rummy import Card

    if isinstance(value, Card):
        return {value.ident}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return set().union(*(_cards_in(v) for v in value)) if value else set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _cards_in([getattr(value, f.name) for f in dataclasses.fields(value)])
    return set()


def _reshuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position for `seat`, with everything it cannot see dealt afresh: the other
    hands and the stock swap cards at random (their sizes stay)."""
    for _ in range(20):  # late in a round few cards are hidden: a shuffle may change nothing
        s = state.copy()
        others = [i for i in range(s.players) if i != seat]
        pool = [c for i in others for c in s.hands[i]] + list(s.stock)
        rng.shuffle(pool)
        for i in others:
            n = len(s.hands[i])
            s.hands[i], pool = pool[:n], pool[n:]
        s.stock = pool
        assert not conservation_errors(s)
        if s.hands != state.hands or s.stock != state.stock:
            break
    return s


@pytest.mark.parametrize("name", ["manipulation", "shanghai", "carousel", "tahiti", "vatican",
                                  "machiavelli", "guadeloupe"])
def test_decisions_ignore_hidden_cards(name):
    rng = random.Random(name)
    positions = _positions(name, 31, every=5, limit=80)
    assert positions
    for state in positions:
        seat = state.turn
        for level in LEVELS:
            expected = choose_action(player_view(state, seat), level)
            for _ in range(2):
                other = _reshuffle_hidden(state, seat, rng)
                assert other.hands != state.hands or other.stock != state.stock
                assert choose_action(player_view(other, seat), level) == expected


# -- situations -----------------------------------------------------------------------------


def test_unknown_level_and_wrong_turn():
    state = new_game("manipulation", 2, 1)
    with pytest.raises(ValueError, match="level"):
        choose_action(player_view(state, 0), "expert")
    with pytest.raises(ValueError, match="turn"):
        choose_action(player_view(state, 1), "medium")


@pytest.mark.parametrize("level", LEVELS)
def test_round_over_starts_next_round(level):
    state = deal_scenario("manipulation", ["5H 6H 7H", "KS KD 2C"], table=["9S 9H 9D"])
    state, _ = apply(state, Commit(0, (*[tuple(g) for g in state.table],
                                       tuple(state.hands[0]))))
    assert state.phase == "round_over"
    assert isinstance(choose_action(player_view(state, 1), level), NextRound)


@pytest.mark.parametrize("level", LEVELS)
def test_finishes_a_persons_half_built_move(level):
    """On a time-out the computer plays for a person who left a draft; under Give back it
    gives up rather than draw (Draw isn't offered), else it lays over the draft."""
    rules = get_rulebook("machiavelli", unfinished_move="give_back_draw_3")
    state = deal_scenario(rules, ["KS QD", "2C 3C"], table=["9S 9H 9D"])
    state, _ = apply(state, Place(0, (state.hands[0][0],), 0))  # an invalid draft: KS on 9s
    for _ in range(4):
        if state.turn != 0:
            break
        action = choose_action(player_view(state, 0), level)
        assert action.kind in legal_actions(state, 0)
        state, _ = apply(state, action)
    assert state.turn == 1 and len(state.hands[0]) == 5  # gave up: drew three
    assert isinstance(action, GiveUp)


@pytest.mark.parametrize("level", LEVELS)
def test_lays_over_a_draft_and_goes_out(level):
    rules = get_rulebook("tahiti", unfinished_move="give_back_draw_3")
    state = deal_scenario(rules, ["7H 8H 9H", "2C 3C"], table=["9S 9D 9C"])
    state, _ = apply(state, Place(0, (state.hands[0][2],), 0))  # 9H onto the set: valid
    action = choose_action(player_view(state, 0), level)
    state, _ = apply(state, action)
    assert state.phase == "game_over"  # 7H 8H 9H: out, whatever the draft held


def test_must_lay_remind_easy_draws_twice():
    """Easy doesn't see a lay that needs rearranging; with Remind its first Draw only shows the
    hint, the second draws."""
    state = deal_scenario("manipulation", ["7H 2C", "KS KD"], table=["5H 6H 7H 8H 9H"],
                          stock_top="3D")
    action = choose_action(player_view(state, 0), "easy")
    assert isinstance(action, Draw)
    state, events = apply(state, action)
    assert events[0].kind == "reminder" and len(state.hands[0]) == 2
    state, events = apply(state, choose_action(player_view(state, 0), "easy"))
    assert len(state.hands[0]) == 3
    assert isinstance(choose_action(player_view(state, 0), "medium"), Commit)


def test_tahiti_joker_dealt_as_a_single():
    state = deal_scenario("tahiti", ["JC 5C 3S 10H 10D", "2C 3C 4D 5S 6S"], singles="8H * KC 8S")
    for level in LEVELS:
        action = choose_action(player_view(state, 0), level)
        assert action.kind in legal_actions(state, 0)
        apply(state, action)


def test_carousel_undercut_estimate():
    # The other hand holds one card: an ace (1 point) or a two would undercut a knock on 2.
    state = deal_scenario("carousel", ["2S 3S", "5D"], table=["4H 5H 6H"])
    turn = Turn(player_view(state, 0))
    assert 0 < undercut_chance(turn, 2) < undercut_chance(turn, 5) < 1
    state = deal_scenario("carousel", ["2S 3S", "5D 9C 10C KD"], table=["4H 5H 6H"])
    assert undercut_chance(Turn(player_view(state, 0)), 5) < 0.01  # four cards: 5 points or
    # fewer only as A A A 2 of different suits: very unlikely


# -- the hard level's plan --------------------------------------------------------------------


def test_hard_holds_back_until_it_can_go_out():
    """Machiavelli: a lay that doesn't empty the hand waits (a draw); going out doesn't."""
    state = deal_scenario("machiavelli", ["5H 6H 7H 2C", "KS KD 9C 4D"], table=["9S 9H 9D"])
    assert isinstance(choose_action(player_view(state, 0), "hard"), Draw)
    assert isinstance(choose_action(player_view(state, 0), "medium"), Commit)
    out = deal_scenario("machiavelli", ["5H 6H 7H 9C", "KS KD 9C 4D"], table=["9S 9H 9D"])
    action = choose_action(player_view(out, 0), "hard")
    assert isinstance(action, Commit)
    assert apply(out, action)[0].phase == "game_over"


def test_hard_lays_when_another_hand_is_nearly_out():
    state = deal_scenario("machiavelli", ["5H 6H 7H 2C", "KS KD"], table=["9S 9H 9D"])
    action = choose_action(player_view(state, 0), "hard")
    assert isinstance(action, Commit)
    assert {c.face for g in action.arrangement for c in g} >= {"5H", "6H", "7H"}


def test_hard_obeys_must_lay_in_manipulation(monkeypatch):
    state = deal_scenario("manipulation", ["5H 6H 7H 2C", "KS KD 9C 4D"], table=["9S 9H 9D"])
    assert isinstance(choose_action(player_view(state, 0), "hard"), Commit)
    # Only a plan made for experiments (scripts/must_lay_experiments.py) draws instead.
    monkeypatch.setitem(ai_hard.PLANS, "manipulation", ai_hard.Plan(stall=99, must_lay=False))
    assert isinstance(choose_action(player_view(state, 0), "hard"), Draw)


@pytest.mark.parametrize("name", ["manipulation", "shanghai"])
def test_hard_plays_as_medium_where_it_must_lay(name):
    positions = _positions(name, 41, every=3, limit=60)
    assert positions
    for state in positions:
        view = player_view(state, state.turn)
        assert choose_action(view, "hard") == choose_action(view, "medium")
