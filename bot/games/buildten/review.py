"""Build-to-Ten's review in a chat (issue 32, UX.md §10): one seat's turns of a finished game,
as text (no picture yet: the text names every card and pile), from engine/buildten/review.py.

The game is replayed from its deal (seed) and its action log; the analysis reads only the
seat's own view at each turn's end (its hand, its face-up stock card, its discard piles, the
build piles), and so does everything here. A game still being played is not reviewed (that
would be a hint). A game begun before the host kept its actions can't be replayed: it says so.
"""

from __future__ import annotations

from typing import Any

from bot.core.cut import MESSAGE_UNITS, cut, utf16_units
from bot.core.hosting import Refusal
from bot.core.record import Record
from bot.core.views import Screen
from bot.i18n import Laid, _, current, t, tn, using
from engine.buildten import BuildState, apply, new_game
from engine.buildten.actions import action_from_dict
from engine.buildten.cards import TOP
from engine.buildten.review import Chance, Decision, RoundReview, TurnReview, review, seat_decisions

from .narrate import card_name, pile_name
from .records import state_of


def replay(record: Record) -> tuple[BuildState, list[dict[str, Any]]]:
    """The deal and the game's actions, checked: replayed, they must give the saved state
    (else the log is not whole — a game begun before it was kept)."""
    state = state_of(record)
    actions = list((record.state or {}).get("actions", []))
    start = new_game(state.players, state.seed)
    end = start
    try:
        for data in actions:
            end, _events = apply(end, action_from_dict(data))
    except Exception:  # a log that doesn't replay is a log we can't use: said, never raised
        end = None
    if end is None or end.to_dict() != state.to_dict():
        raise Refusal(_("This game began before its turns were kept, so it can't be "
                        "reviewed."))
    return start, actions


def review_screen(game_id: int, record: Record, seat: int, round: int | None) -> Screen:
    """`seat`'s review of the game (Build-to-Ten is one round), in the seat's language."""
    state = state_of(record)
    with using(record.lang_of(seat)):
        if not state.over:
            raise Refusal(_("There is nothing to review yet: a game of Build-to-Ten is "
                            "reviewed once it is over."))
        if round not in (None, 1):
            raise Refusal(_("A game of Build-to-Ten is one round: use /review."))
        start, actions = replay(record)
        decisions = seat_decisions(start, actions, seat)
        if not decisions:
            raise Refusal(t("You had no turns to review in round {n}.", n=1))
        text = review_text(review(decisions), decisions, limit=MESSAGE_UNITS)
        return Screen(text, [], game_id=game_id, lang=current())


def summary_line(result: RoundReview) -> str:
    """"9 turns · 3 missed · 5 cards that could have gone onto the build piles"."""
    parts = [tn("{n} turn", "{n} turns", len(result.turns)),
             tn("{n} missed", "{n} missed", result.missed)]
    if result.cards:
        parts.append(tn("{n} card that could have gone onto the build piles",
                        "{n} cards that could have gone onto the build piles", result.cards))
    return " · ".join(parts)


def review_text(result: RoundReview, decisions: list[Decision], limit: int | None = None
                ) -> str:
    """The review, a line a turn; `limit` (UTF-16 units): whole turn lines that fit, then
    "…and 9 more turns"."""
    views = {d.turn: d for d in decisions}
    head = [_("🔎 Your review · Build-to-Ten"), summary_line(result)]
    if result.perfect:
        head.append(_("Every turn was the best move the solver finds. 👏"))
    turns = [turn_line(turn, views[turn.turn]) for turn in result.turns]
    text = "\n".join([*head, *turns])
    if limit is None or utf16_units(text) <= limit:
        return text
    kept, used = list(head), utf16_units("\n".join(head))
    for i, line in enumerate(turns):
        more = tn("…and {n} more turn", "…and {n} more turns", len(turns) - i)
        if used + 2 + utf16_units(line) + utf16_units(more) > limit:
            kept.append(more)
            break
        kept.append(line)
        used += 1 + utf16_units(line)
    return cut("\n".join(kept), limit)


def _did(turn: TurnReview) -> str:
    parts = []
    if turn.played:
        parts.append(tn("you built {n} card", "you built {n} cards", turn.played))
    parts.append(_("you discarded") if turn.did == "discarded" else _("you passed"))
    return " · ".join(parts)


def _plays(chance: Chance, decision: Decision) -> str:
    """"7♥ onto pile 1, 8♠ onto pile 1, A♣ onto a new pile"."""
    needs = [len(b) + 1 if b else 0 for b in decision.view.builds]  # as the search counts
    out = []
    for card, place in chance.plays:
        name = card_name(card)  # (t isolates each value)
        out.append(t("{card} onto {pile}", card=name, pile=pile_name(place)) if needs[place]
                   else t("{card} onto a new pile", card=name))
        need = needs[place] or 1
        needs[place] = 0 if need == TOP else need + 1  # a pile at 10 is set aside
    return ", ".join(out)


def turn_line(turn: TurnReview, decision: Decision) -> str:
    head = t("Turn {n}: {did}", n=turn.turn, did=Laid(_did(turn)))
    chance = turn.missed
    if chance is None:
        return head + " — " + _("the best move ✓")
    text = tn("{n} card could have gone: {cards}", "{n} cards could have gone: {cards}",
              chance.cards, cards=Laid(_plays(chance, decision)))
    if chance.stock:
        text += " · " + _("your face-up stock card among them")
    return head + " — ✗ " + text
