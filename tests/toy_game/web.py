"""Race's part of the web table: a seat's view as JSON (the total, the target, the additions
it may make now) and a page's "+n" made into the engine's Add, the same action its chat
buttons make. Its page words are its own (words.py), registered with its page actions."""

from __future__ import annotations

from typing import Any

from bot.core.record import Record
from bot.web import protocol
from bot.web import words as page_words

from .rules import STEPS, RaceRules
from .words import say

NAME = "toy_game"  # the board module's name: the wing's folder (board.js beside host.py)
PLUS = {f"plus{n}": n for n in range(1, max(STEPS) + 1)}  # the page's actions: add n
protocol.register(PLUS, {})
page_words.register(NAME, {**{a: f"+{n}" for a, n in PLUS.items()}, "hand": "Your move",
                           "total": "total {total} of {target}"}, say)


def web_view(rules: RaceRules, record: Record, seat: int | None) -> dict[str, Any]:
    """What the page of `seat` (None: a watcher) shows: nothing in a race is hidden."""
    state = rules.state_from_json(record.state or {})
    names = [s.name for s in record.seats]
    mine = seat is not None and rules.to_move(state) == seat and not record.seats[seat].is_computer
    adds = [f"plus{a.n}" for a in rules.legal_actions(state, seat)] if mine else []
    over = state.winner is not None
    if over:
        status = say("🏁 {name} wins the race", name=names[state.winner])
    elif mine:
        status = say("Your turn: add 1 to {step}", step=state.step)
    else:
        status = say("Waiting for {name}…", name=names[state.turn])
    return {
        "game": NAME, "version": state.version, "seat": seat, "turn": state.turn,
        "phase": "game_over" if over else "play", "mine": mine, "round": 1,
        "total": state.total, "target": state.target, "log": list(record.log[-20:]),
        "seats": [{"name": s.name, "cards": 0, "computer": s.is_computer} for s in record.seats],
        "hand": [] if seat is not None else None, "actions": adds, "can_done": False,
        "why": "", "status": status, "title": "",
        "notice": record.seat_ui(seat).notice if seat is not None else "",
        "result": {"final": True, "winners": [state.winner], "lines": [status],
                   "columns": [say("Player"), say("Won")],
                   "rows": [[n, int(i == state.winner)] for i, n in enumerate(names)],
                   "target": ""} if over else None,
    }
