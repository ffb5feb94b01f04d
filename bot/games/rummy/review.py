"""The post-round review in a chat (issue 32, UX.md §10): one seat's round, turn by turn, as
text and as a picture, from the engine's analysis (engine/rummy/review.py).

The analysis reads only the seat's own views at the time, and so does everything here: the
text and the picture are made from the `RoundReview` and the seat's decisions (its views),
never from the game state. A round still being played is not reviewed (that would be a hint).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.cut import MESSAGE_UNITS, cut, utf16_units
from bot.core.hosting import Refusal
from bot.core.record import Record
from bot.core.views import Screen
from bot.i18n import Laid, _, current, isolate, t, tn, using
from engine.rummy import GameState, group_label
from engine.rummy.review import (
    COULD_GO_OUT,
    COULD_LAY,
    KNOCK_WINS,
    Chance,
    Decision,
    RoundReview,
    Step,
    TurnReview,
    game_decisions,
    review,
)
from render.rummy.review import ReviewStrip, ReviewView, render_review

from . import words
from .narrate import pretty
from .records import rules_of

MAX_STRIPS = 6  # missed turns drawn in one picture (the text lists them all)


def finished_rounds(state: GameState) -> int:
    """The last round that is over (0: none yet): only those may be reviewed."""
    return state.round if state.phase != "play" else state.round - 1


def review_screen(game_id: int, record: Record, seat: int, round: int | None) -> Screen:
    """`seat`'s review of `round` (default: the last finished one), in the seat's language."""
    if record.state is None:
        raise Refusal(_("The game hasn't started yet."))
    state = GameState.from_dict(record.state)
    last = finished_rounds(state)
    with using(record.lang_of(seat)):
        if last < 1:
            raise Refusal(_("There is nothing to review yet: a round is reviewed once it is "
                            "over."))
        round = last if round is None else round
        if not 1 <= round <= last:
            raise Refusal(t("Rounds over so far: 1–{last}.", last=last))
        decisions = game_decisions(state, seat, round)
        if not decisions:
            raise Refusal(t("You had no turns to review in round {n}.", n=round))
        result = review(decisions)
        return _screen(game_id, record, seat, result, decisions)


def _screen(game_id: int, record: Record, seat: int, result: RoundReview,
            decisions: Sequence[Decision]) -> Screen:
    rules = rules_of(record)
    tiles = rules.tiles
    text = review_text(result, tiles, points=rules.values != "count", limit=MESSAGE_UNITS)
    view = review_view(result, decisions, tiles)
    return Screen(text, [], None, lambda: render_review(view), game_id, lang=current())


def summary_line(result: RoundReview, tiles: bool = False) -> str:
    """"9 turns · 3 missed · 11 cards left in hand that could have gone"."""
    parts = [tn("{n} turn", "{n} turns", len(result.turns)),
             tn("{n} missed", "{n} missed", result.missed)]
    if result.cards:
        parts.append(tn("{n} tile left on the rack that could have gone",
                        "{n} tiles left on the rack that could have gone", result.cards)
                     if tiles else
                     tn("{n} card left in hand that could have gone",
                        "{n} cards left in hand that could have gone", result.cards))
    return " · ".join(parts)


def review_text(result: RoundReview, tiles: bool = False, points: bool = True,
                limit: int | None = None) -> str:
    """The review as text, a line a turn. `points`: the rulebook's cards have values (where
    every card counts 1, points say nothing cards don't). `limit` (UTF-16 units, as Telegram
    counts): whole turn lines that fit, then "…and 9 more turns" (a line is never cut
    mid-card, unless one alone is too long)."""
    lines = [t("🔎 Your review · {title} · round {n}", title=words.title(result.rulebook),
               n=result.round),
             summary_line(result, tiles)]
    if result.perfect:
        lines.append(_("Every turn was the best move the computer finds. 👏"))
    for turn in result.turns:
        lines.append(turn_line(turn, tiles, points))
    if not result.exact:
        lines.append(_("(On some turns the search with jokers stopped early: a better lay "
                       "may exist.)"))
    text = "\n".join(lines)
    if limit is None or utf16_units(text) <= limit:
        return text
    head = 3 if result.perfect else 2
    kept, used = lines[:head], utf16_units("\n".join(lines[:head]))
    turns = lines[head : head + len(result.turns)]
    for i, line in enumerate(turns):
        more = tn("…and {n} more turn", "…and {n} more turns", len(turns) - i)
        if used + 2 + utf16_units(line) + utf16_units(more) > limit:
            kept.append(more)
            break
        kept.append(line)
        used += 1 + utf16_units(line)
    return cut("\n".join(kept), limit)


def _did(step: Step, tiles: bool) -> str:
    if step.did in ("laid", "knocked"):
        text = t("you laid {cards}", cards=Laid(isolate(pretty(step.placed))))
        return text + (" " + _("and knocked") if step.did == "knocked" else "")
    return {"drew": _("you drew"), "passed": _("you passed"), "gave_up": _("you gave up"),
            "timed_out": _("your time ran out")}.get(step.did, step.did)


def _dids(steps: Sequence[Step], tiles: bool) -> list[str]:
    """What the seat did in a turn, a run of the same no-lay move said once ("you drew ×12":
    Manipulation's draws until a lay)."""
    out: list[tuple[str, int]] = []
    for s in steps:
        said = _did(s, tiles)
        if out and out[-1][0] == said and s.did not in ("laid", "knocked"):
            out[-1] = (said, out[-1][1] + 1)
        else:
            out.append((said, 1))
    return [said if n == 1 else f"{said} ×{n}" for said, n in out]


def _where(chance: Chance) -> str:
    """The groups a lay changes and the new ones: "onto B, D · 1 new group"."""
    parts = []
    if chance.groups:
        parts.append(t("onto {groups}",
                       groups=Laid(", ".join(isolate(group_label(g)) for g in chance.groups))))
    new = len(chance.new) - len(chance.groups)
    if new > 0:
        parts.append(tn("{n} new group", "{n} new groups", new))
    if chance.singles:
        parts.append(t("with the singles {cards}", cards=Laid(isolate(pretty(chance.singles)))))
    return " · ".join(parts)


def _chance_text(chance: Chance, tiles: bool, points: bool) -> str:
    cards = Laid(isolate(pretty(chance.placed)))
    text = (tn("{n} tile could have gone: {cards}", "{n} tiles could have gone: {cards}",
               chance.cards, cards=cards) if tiles else
            tn("{n} card could have gone: {cards}", "{n} cards could have gone: {cards}",
               chance.cards, cards=cards))
    if points:
        text += " " + tn("({n} point)", "({n} points)", chance.points)
    if chance.meld:
        text += " · " + t("an initial meld of {n}", n=chance.meld)
    where = _where(chance)
    return text + (" · " + where if where else "")


def best_chance(turn: TurnReview) -> tuple[Step, Chance | None]:
    """The step of a turn to tell, and the chance it missed: the missed step whose better lay
    takes the most cards (a turn without a miss: its last step, no chance)."""
    missed = [s for s in turn.steps if s.codes]
    if not missed:
        return turn.steps[-1], None
    step = max(missed, key=lambda s: (s.most_cards.cards if s.most_cards else -1))
    chance = step.most_cards
    if chance is None or (step.most_points is not None and "more_points" in step.codes
                          and "more_cards" not in step.codes):
        chance = step.most_points
    return step, chance


def turn_line(turn: TurnReview, tiles: bool = False, points: bool = True) -> str:
    did = " · ".join(_dids(turn.steps, tiles))
    head = t("Turn {n}: {did}", n=turn.turn, did=Laid(did))
    if not turn.missed:
        return head + " — " + _("the best move ✓")
    step, chance = best_chance(turn)
    parts = []
    if chance is not None and chance.cards:
        parts.append(_chance_text(chance, tiles, points))
    if COULD_GO_OUT in step.codes:
        parts.append(_("you could have gone out"))
    if KNOCK_WINS in step.codes:
        parts.append(t("a knock leaving {n} would have won", n=chance.left if chance else 0))
    if not parts and COULD_LAY in step.codes:
        parts.append(_("a lay was open"))
    return head + " — ✗ " + "; ".join(parts)


def review_view(result: RoundReview, decisions: Sequence[Decision], tiles: bool) -> ReviewView:
    """The picture's data: a strip per missed turn (at most MAX_STRIPS), built from the seat's
    own decisions (its views) and the analysis — nothing else is passed to the renderer."""
    by_turn: dict[int, list[Decision]] = {}
    for d in decisions:
        by_turn.setdefault(d.turn, []).append(d)
    strips = []
    for turn in result.turns:
        if not turn.missed:
            continue
        if len(strips) == MAX_STRIPS:
            break
        step, chance = best_chance(turn)
        if chance is None:
            continue
        # the cards laid are drawn under the title: named once, with their colours
        did = _("you laid") if step.did in ("laid", "knocked") else _did(step, tiles)
        head = t("Turn {n}: {did}", n=turn.turn, did=did)
        better = tn("{n} could have gone", "{n} could have gone", chance.cards)
        strips.append(ReviewStrip(
            title=head,
            better=better,
            placed=step.placed,
            lay=tuple(chance.lay[i] for i in chance.new),
            labels=tuple(group_label(i) for i in chance.new),
            mine=chance.placed,
        ))
    more = sum(t.missed for t in result.turns) - len(strips)
    return ReviewView(
        title=t("Your review · round {n}", n=result.round),
        summary=summary_line(result, tiles),
        strips=tuple(strips),
        perfect=_("Every turn was the best move ✓") if result.perfect else "",
        more=tn("…and {n} more missed turn in the text", "…and {n} more missed turns in the text",
                more) if more > 0 else "",
        you_laid=_("you laid"),
        rtl=current() == "he",
        tiles=tiles,
    )
