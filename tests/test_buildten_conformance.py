"""Build-to-Ten conformance playouts (2, 3 and 4 seats, every level): after every action the
100 cards are conserved and the state is valid, the action was one `legal_actions` lists, the
JSON round trip is exact, and no seat's view holds a card it may not see; every game replays
from its seed and actions to the same state. Also `rummy simulate --game build-to-ten`."""

from __future__ import annotations

import dataclasses
import json

import pytest

from bot.cli import main
from engine.buildten import (
    BuildState,
    BuildView,
    apply,
    legal_actions,
    new_game,
    player_view,
    replay,
    state_errors,
)
from engine.buildten.ai import choose_action

SEATINGS = [
    ["hard", "medium"], ["easy", "hard"], ["medium", "easy", "hard"],
    ["hard", "hard", "medium"], ["easy", "medium", "hard", "medium"], ["hard"] * 4,
]


def hidden_from(state: BuildState, seat: int) -> set[str]:
    """The cards `seat` may not see: other hands, face-down stock cards, the general stock and
    the cards set aside (face down until shuffled in)."""
    cards = set(state.general) | set(state.aside)
    for i in range(state.players):
        cards |= set(state.stocks[i][1:])
        if i != seat:
            cards |= set(state.hands[i])
    return cards


def leaks(view: BuildView, state: BuildState) -> set[str]:
    seen = json.dumps(dataclasses.asdict(view))
    return {c for c in hidden_from(state, view.seat) if f'"{c}"' in seen}


@pytest.mark.parametrize("levels", SEATINGS, ids=lambda s: "-".join(s))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_playout(levels, seed):
    state = new_game(len(levels), seed)
    actions = []
    while not state.over:
        assert len(actions) < 5000, "no end"
        views = [player_view(state, s) for s in range(state.players)]
        for view in views:
            assert leaks(view, state) == set()
        action = choose_action(views[state.turn], levels[state.turn])
        assert action in legal_actions(state)
        state, _ = apply(state, action)
        actions.append(action)
        assert state_errors(state) == []
        assert BuildState.from_json(state.to_json()) == state
    assert state.winners and all(0 <= w < len(levels) for w in state.winners)
    assert replay(len(levels), seed, actions).to_json() == state.to_json()
    if not state.stuck:
        assert [len(state.stocks[w]) for w in state.winners] == [0]


def test_the_hidden_check_finds_a_planted_leak():
    state = new_game(3, 5)
    view = player_view(state, 0)
    leaky = dataclasses.replace(view, hand=(*view.hand, state.stocks[1][1]))
    assert leaks(leaky, state) == {state.stocks[1][1]}


def test_the_conservation_check_finds_a_lost_card():
    state = new_game(2, 5)
    state.general.pop()
    assert any("missing" in e for e in state_errors(state))
    state = new_game(2, 5)
    state.hands[1].append(state.general[0])
    assert any("2 places" in e for e in state_errors(state))


def test_simulate_over_many_games_finds_no_violation(capsys):
    code = main(["simulate", "--game", "build-to-ten", "--players", "3", "--games", "20",
                 "--seed", "4", "--json"])
    out = capsys.readouterr().out
    data = json.loads(out.strip().splitlines()[-1])
    assert code == 0 and data["violations"] == 0 and data["games"] == 20
    assert data["rulebook"] == "build-to-ten" and len(data["win_rate"]) == 3
    code = main(["simulate", "--game", "build-to-ten", "--seats", "hard,easy", "--games", "4"])
    assert code == 0 and "hard" in capsys.readouterr().out


def test_simulate_exits_non_zero_on_a_violation(monkeypatch, capsys):
    from engine.buildten import playout

    real = playout.state_errors
    monkeypatch.setattr(playout, "state_errors", lambda s: real(s) or ["planted"])
    assert main(["simulate", "--game", "build-to-ten", "--games", "1"]) == 1
    assert "planted" in capsys.readouterr().out


def _screen_cards(state: BuildState, seat: int | None) -> list[str]:
    """Every card label a seat's screen (None: the group's) may show: face-up cards, discard
    piles, build piles, and the seat's own hand."""
    from engine.buildten import card_label

    cards = [c for c in (state.face_up(i) for i in range(state.players)) if c]
    cards += [c for piles in state.discards for p in piles for c in p]
    cards += [c for b in state.builds for c in b]
    if seat is not None:
        cards += state.hands[seat]
    return sorted(card_label(c) for c in cards)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_screens_show_each_seat_only_what_it_may_see(seed):
    import re

    from bot.core.record import Record, SeatInfo
    from bot.games.buildten import screens

    levels = ["hard", "medium", "easy"]
    record = Record(rulebook="buildten", game_name="build-to-ten",
                    seats=[SeatInfo(n, n.lower()) for n in ("Ann", "Bo", "Cy")])
    state = new_game(3, seed)
    label = re.compile(r"(?:10|[2-9AQK])[♠♥♦♣]|colour joker \(shift\)|black joker \(swap\)")
    while not state.over:
        record.state = state.to_dict()
        for seat in (None, 0, 1, 2):
            screen = (screens.table_screen(1, record, state) if seat is None
                      else screens.private_screen(1, record, state, seat))
            shown = sorted(label.findall(screen.detail))
            allowed = _screen_cards(state, seat)
            assert all(shown.count(c) <= allowed.count(c) for c in shown), (seat, shown)
            picture = screens._picture(record, state, seat)
            assert (picture.hand is None) == (seat is None)
        action = choose_action(player_view(state, state.turn), levels[state.turn])
        state, _ = apply(state, action)


def test_the_screen_check_finds_a_planted_hand_leak(monkeypatch):
    from bot.games.buildten import screens
    from engine.buildten import card_label

    real = screens.table_detail

    def leaky(record, view):  # the group's detail names seat 1's hand
        return real(record, view) + " " + " ".join(
            card_label(c) for c in record.state["hands"][1])

    monkeypatch.setattr(screens, "table_detail", leaky)
    with pytest.raises(AssertionError):
        test_the_screens_show_each_seat_only_what_it_may_see(1)
