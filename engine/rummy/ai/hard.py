"""The hard computer player: it plans rather than always laying the most it can.

Where drawing ends the turn (Machiavelli, Guadeloupe, Vatican, Tahiti, Carousel) it holds its
cards back: it draws instead of laying until it can go out in one move, or until another hand
is down to two cards or the stock has run out — then it lays the most it can. Cards laid early
are cards the other players rearrange their own hands into; held back, they stay useless to
them (the Rummikub result in the issue, here 91–97% against `medium`: docs/strength.md).

Where a turn is "draw until you can lay" (Manipulation, Shanghai) holding back would only mean
drawing the whole stock in one turn — legal under Trust the player (it then wins every game),
but no game anybody wants — so there it obeys the must-lay rule and plays exactly as `medium`:
laying less than the most (the smallest lay, or keeping one or two layable cards back) measured
worse, 31–48% against `medium`; looking ahead to the round's end in random deals of the unseen
cards, even (50%); holding back up to a 10–20-card hand, worse (42–47%: docs/strength.md).
Knocking in Carousel weighs the chance of an undercut.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from math import comb

from engine.cards import Card, make_deck

from ..actions import Action, Draw
from ..solver import Move
from .turn import Turn, biggest_lay, biggest_move, fallback, lay, no_lay


@dataclass(frozen=True)
class Plan:
    lay: str = "max"  # "max": the biggest lay; "min": the smallest (keeps the rest in reserve)
    stall: int = 0  # draw instead of laying (unless going out) while the hand is smaller
    stall_stock: int = 0  # ...and the stock holds more cards than this
    dump_opp: int = 0  # lay the most when another hand is down to this many cards
    dump_stock: int = 0  # ...or the stock to this many
    undercut: float = 0.25  # Carousel: knock only when an undercut is at most this likely
    must_lay: bool = True  # where a turn is draw-until-lay, lay the most as the rule says
    # (False only for experiments: scripts/must_lay_experiments.py)


GO_OUT_EFFORT = 300_000  # solver work units (see ai_turn.LAY_EFFORT)

HOLD_BACK = Plan(stall=99, dump_opp=2, dump_stock=0)
PLANS: dict[str, Plan] = {
    name: HOLD_BACK for name in ("machiavelli", "guadeloupe", "vatican", "tahiti", "carousel")
}
# Rummikub: hold back too — the initial meld included: it is made when it goes out or once
# the pressure is on — but not without end: a rack past 30 tiles, another rack down to two,
# or a pool down to 10 tiles starts the biggest lays (a tile left is worth minus its number
# when somebody goes out). Measured against `medium`, 2 seats, 150 games each (win rate):
# holding to the pool's end 45%, a 16-22-tile rack 53-64%, 26-40 tiles with other pressure
# points 55-75%, this one 83%.
PLANS["rummikub"] = Plan(stall=30, dump_opp=2, dump_stock=10)
# With three other racks racing out, a shorter hold: 4 seats against three `medium`, 200 games
# each, 25-31% for racks of 16-26 tiles with other pressure points, this one 36.5%.
CROWDED = {"rummikub": Plan(stall=22, dump_opp=2, dump_stock=10)}  # 3 or more seats


def plan_for(turn: Turn) -> Plan:
    name = turn.rules.name
    if len(turn.view.hand_counts) >= 3 and name in CROWDED:
        return CROWDED[name]
    return PLANS.get(name, PLANS.get("*", Plan()))


def choose_hard(turn: Turn) -> Action:
    plan = plan_for(turn)
    if turn.rules.turn == "draw-until-lay" and plan.must_lay:
        return biggest_lay(turn)  # must lay if it can: nothing to plan (module doc)
    # Can it go out? A hand held back grows to 40 cards and more, where proving "no" can take
    # seconds: the question gets a bounded effort (a way out is found long before).
    out = turn.solve("any", select=turn.hand, effort=GO_OUT_EFFORT)
    if out is not None:
        action = lay(turn, out.new_table, out.placed)
        if action is not None:
            return action
    pressure = (
        turn.view.stock <= plan.dump_stock
        or min(turn.view.hand_counts[i] for i in turn.opponents) <= plan.dump_opp
    )
    if (
        not pressure
        and len(turn.hand) < plan.stall
        and turn.view.stock > plan.stall_stock
        and "draw" in turn.legal
    ):
        return Draw(turn.seat)
    best = biggest_move(turn)
    if best is None:
        return no_lay(turn, knock=_knock_ok(turn, plan, turn.hand))
    left = turn.left_after(best.placed)
    if turn.may_knock_after_lay and _knock_ok(turn, plan, left):
        action = lay(turn, best.new_table, best.placed)  # a safe knock
        if action is not None:
            return action
    moves: list[Move] = []
    if not pressure and plan.lay == "min":
        small = turn.solve("hint")
        if small is not None:
            moves.append(small)
    moves.append(best)
    for move in moves:
        action = lay(
            turn,
            move.new_table,
            move.placed,
            knock=_knock_ok(turn, plan, turn.left_after(move.placed)),
        )
        if action is not None:
            return action
    return fallback(turn)


def _knock_ok(turn: Turn, plan: Plan, left: list[Card]) -> bool:
    value = turn.value(left)
    if not turn.carousel or value > turn.rules.knock_limit:
        return False
    return undercut_chance(turn, value) <= plan.undercut


def unseen(turn: Turn) -> list[Card]:
    """Cards this seat cannot see: the other hands and the stock, as one pool."""
    v = turn.view
    decks, jokers = turn.rules.deck_for(len(v.hand_counts))
    seen = Counter(c.face for c in v.hand)
    seen.update(c.face for g in v.table for c in g)
    seen.update(c.face for c in v.singles)
    out = []
    for card in make_deck(decks, jokers):
        if seen[card.face] > 0:
            seen[card.face] -= 1
        else:
            out.append(card)
    return out


def undercut_chance(turn: Turn, value: int) -> float:
    """How likely some other hand is worth `value` or less, if hands were random cards from
    the unseen pool (counts only: hidden cards stay hidden)."""
    values = [turn.rules.card_value(c) for c in unseen(turn)]
    p_none = 1.0
    for i in turn.opponents:
        p_none *= 1 - _chance_at_most(values, turn.view.hand_counts[i], value)
    return 1 - p_none


def _chance_at_most(values: list[int], count: int, limit: int) -> float:
    """P(the sum of `count` cards drawn from `values` without replacement is <= limit)."""
    if count == 0:
        return 1.0
    if count > len(values) or sum(sorted(values)[:count]) > limit:
        return 0.0
    ways = [[0] * (limit + 1) for _ in range(count + 1)]  # ways[j][s]: j cards summing to s
    ways[0][0] = 1
    for x in values:
        if x > limit:
            continue
        for j in range(count, 0, -1):
            row, prev = ways[j], ways[j - 1]
            for s in range(limit, x - 1, -1):
                row[s] += prev[s - x]
    return sum(ways[count]) / comb(len(values), count)
