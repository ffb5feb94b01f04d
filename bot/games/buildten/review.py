"""Build-to-Ten's review in a chat (issue 32, UX.md §10): one seat's turns of a finished game,
as text and as a picture (render/buildten/review.py), from engine/buildten/review.py.

The game is replayed from its deal (seed) and its action log; the analysis reads only the
seat's own view at each turn's end (its hand, its face-up stock card, its discard piles, the
build piles), and so does everything here: the text and the picture are made from the
`RoundReview` and the seat's decisions (its views and its own moves), never from the game
state. A game still being played is not reviewed (that would be a hint). A game begun before
the host kept its actions can't be replayed: it says so.
"""

from __future__ import annotations

from typing import Any

from bot.core.cut import MESSAGE_UNITS, cut, utf16_units
from bot.core.hosting import Refusal
from bot.core.record import Record
from bot.core.views import Screen
from bot.i18n import Laid, _, current, is_rtl, t, tn, using
from engine.buildten import BuildState, apply, new_game
from engine.buildten.actions import action_from_dict
from engine.buildten.cards import TOP, face
from engine.buildten.review import Chance, Decision, RoundReview, TurnReview, review, seat_decisions
from engine.buildten.view import BuildView
from render.buildten.review import BuildReviewStrip, BuildReviewView, Group, render_review

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
        result = review(decisions)
        text = review_text(result, decisions, limit=MESSAGE_UNITS)
        view = review_view(result, decisions)
        return Screen(text, [], None, lambda: render_review(view), game_id, lang=current())


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
        head.append(_("Every turn was the best move the computer finds. 👏"))
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


MAX_STRIPS = 4  # missed turns drawn in one picture (the text lists them all)


def _after(needs: list[int], place: int) -> None:
    """A card built on `place`: the number it needs next (a pile at 10 is set aside: 0)."""
    need = needs[place] or 1
    needs[place] = 0 if need == TOP else need + 1


def _moves(chance: Chance, view: BuildView) -> tuple[Group, ...]:
    """The better move, a tray per build pile it reaches, by place: the pile's top as seen, then
    the cards that could have gone onto it, in order (a pile that would reach 10 and open again
    there: a second tray)."""
    needs = [len(b) + 1 if b else 0 for b in view.builds]  # as the search counts
    trays: dict[tuple[int, int], list[str]] = {}  # (place, k): its k-th tray's cards
    tops: dict[tuple[int, int], int] = {}  # 1: the tray begins with the pile's top (not moved)
    count: dict[int, int] = {}
    for card, place in chance.plays:
        key = count.get(place, 0)
        if (place, key) not in trays:
            cards = [face(view.builds[place][-1])] if needs[place] and key == 0 else []
            trays[(place, key)] = cards
            tops[(place, key)] = len(cards)
        trays[(place, key)].append(face(card))
        _after(needs, place)
        if needs[place] == 0:  # set aside: a card after this opens the place again
            count[place] = key + 1
    return tuple(Group(pile_name(place), tuple(trays[(place, key)]), "better",
                       tuple(range(tops[(place, key)], len(trays[(place, key)]))))
                 for place, key in sorted(trays))


def _seen(chance: Chance, decision: Decision) -> tuple[tuple[Group, ...], ...]:
    """The build piles and the seat's own cards as it saw them; the cards the better move
    takes from its face-up stock card, its hand and its discard piles outlined (a discard pile:
    its top, then the cards under it the better move reaches, top down)."""
    view = decision.view
    seat = view.seat
    going = {card for card, _place in chance.plays}
    piles = tuple(Group(pile_name(i), (face(b[-1]),) if b else (), needs=len(b) + 1)
                  for i, b in enumerate(view.builds))
    mine = []
    stock = view.face_up[seat]
    if stock is not None:
        mine.append(Group(t("stock {n}", n=view.stock_counts[seat]), (face(stock),),
                          marked=(0,) if stock in going else ()))
    if view.hand:
        mine.append(Group(t("hand {n}", n=len(view.hand)), tuple(face(c) for c in view.hand),
                          marked=tuple(k for k, c in enumerate(view.hand) if c in going)))
    for i, pile in enumerate(view.discards[seat]):
        if pile:  # its top, then (top down) the cards under it the better move reaches
            depth = max((k for k in range(1, len(pile) + 1) if pile[-k] in going), default=1)
            shown = pile[::-1][:depth]
            mine.append(Group(f"D{i + 1}", tuple(face(c) for c in shown),
                              marked=tuple(k for k, c in enumerate(shown) if c in going)))
    return piles, tuple(mine)


def _made(decision: Decision) -> tuple[Group, ...]:
    """What the seat did in the turn: the cards it built, then its discard."""
    out = []
    if decision.plays:
        out.append(Group(tn("you built {n} card", "you built {n} cards", len(decision.plays)),
                         tuple(face(c) for c, _place in decision.plays), "made"))
    if decision.discarded:
        out.append(Group(_("you discarded"), (face(decision.discarded),), "made"))
    return tuple(out)


def review_view(result: RoundReview, decisions: list[Decision]) -> BuildReviewView:
    """The picture's data: a strip per missed turn (at most MAX_STRIPS), built from the seat's
    own decisions (its views and its own moves) and the analysis — nothing else is passed to
    the renderer."""
    views = {d.turn: d for d in decisions}
    strips = []
    for turn in result.turns:
        chance = turn.missed
        if chance is None:
            continue
        if len(strips) == MAX_STRIPS:
            break
        decision = views[turn.turn]
        strips.append(BuildReviewStrip(
            title=t("Turn {n}: {did}", n=turn.turn, did=Laid(_did(turn))),
            made=_made(decision),
            seen=_seen(chance, decision),
            better=tn("{n} could have gone", "{n} could have gone", chance.cards),
            moves=_moves(chance, decision.view),
        ))
    more = result.missed - len(strips)
    return BuildReviewView(
        title=_("Your review · Build-to-Ten"),
        summary=tuple(summary_line(result).split(" · ")),
        strips=tuple(strips),
        perfect=_("Every turn was the best move ✓") if result.perfect else "",
        more=tn("…and {n} more missed turn in the text", "…and {n} more missed turns in the text",
                more) if more > 0 else "",
        rtl=is_rtl(),
    )
