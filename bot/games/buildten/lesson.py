"""Build-to-Ten's lesson: the worked example of RULES.md §6 played inside a real game against
one computer (the learner is seat 0). Pure content and judging: the real engine decides every
move (legal or not, and what happens); a step only says what to try, which kinds of move it
takes, and when its goal is met. After the last step the game simply goes on.

    state = lesson_position(seed)
    step = STEPS[i]; step.allows(action); met(step, state_after, events)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.buildten import BuildState, Event, joker_kind, number, player_view, scripted
from engine.buildten.actions import Action
from engine.buildten.ai.moves import chain_to, stock_fits


def N_(msgid: str) -> str:
    """Marks a msgid for extraction (`make locale`); it is translated where it is shown."""
    return msgid


LEARNER = 0
TITLE = N_("Build-to-Ten lesson")
INTRO = (N_("📘 The lesson plays a real game against one computer. Empty your personal stock "
         "first: its face-up card is the one to play."))
DONE = (N_("🎓 That's the game! From here it is a real game: empty your stock before the "
        "computer does. 💡 Hint shows a whole move you can make any time."))


@dataclass(frozen=True)
class Step:
    id: str
    text: str  # the instruction on the learner's screen
    kinds: frozenset[str]  # the moves the step takes (play, joker, discard, pass)
    goal: str  # stock_played | stock_fits | discarded | shifted_self
    success: str
    nudge: str  # a move of another kind: what to do instead

    def allows(self, action: Action) -> bool:
        return action.kind in self.kinds


STEPS: tuple[Step, ...] = (
    Step("stock", N_("The pile in the middle stands at A and needs a 2 — your face-up stock "
                     "card is the {2H}. Tap ⬆ {2H}, then ▶ pile 1."),
         frozenset({"play"}), "stock_played",
         N_("✓ One stock card gone, and the next one turned up at once: the {6S}."),
         N_("First play your {2H} from the stock: tap ⬆ {2H}, then ▶ pile 1.")),
    Step("chain", N_("The pile needs a 3, your {6S} waits. Build up to it from your hand: the "
                     "{3D}, then the {KC} (Q and K are wild: it stands for the 4), then the "
                     "{5H}."),
         frozenset({"play"}), "stock_fits",
         N_("✓ The pile needs a 6 now — just what your stock shows."),
         N_("Build the pile up to 6 from your hand: {3D}, {KC}, {5H}.")),
    Step("stock_again", N_("Now the {6S} fits: play it from your stock (⬆ {6S}, then the pile)."),
         frozenset({"play"}), "stock_played",
         N_("✓ Two stock cards gone in one turn. The {10C} turned up: it needs a pile at 9."),
         N_("Play the {6S} from your stock: ⬆ {6S}, then ▶ pile 1.")),
    Step("discard", N_("Nothing more fits. End your turn with a discard: tap the {9C}, then ⤵ "
                       "new discard pile. Tip: keep each discard pile running downward (a 9, "
                       "later an 8 on it): its top is playable, so they come back in order."),
         frozenset({"discard"}),
         "discarded", N_("✓ Your turn is over; the computer plays now."),
         N_("A turn ends with a discard: tap the {9C}, then ⤵ new discard pile.")),
    Step("shift", N_("You drew a colour joker (shift). Your {10C} is stuck: tap 🃏🌈, then "
                     "yourself — the {10C} goes under your stock and the next card turns up. (A "
                     "black joker (swap) trades your face-up card for another player's.)"),
         frozenset({"joker"}), "shifted_self",
         N_("✓ A new card turned up. Jokers never end the turn: play on!"),
         N_("Use the colour joker (shift) on yourself: tap 🃏🌈, then your own name.")),
)


def lesson_position(seed: int) -> BuildState:
    """The worked example for two: a pile at A; the learner shows 2♥ over 6♠ and 10♣, holds
    3♦ K♣ 5♥ 9♣ 8♦; the computer can only discard on its first turn; the learner then draws
    a colour joker (shift)."""
    return scripted(
        stocks=[["2H", "6S", "10C", "4D", "8H", "3C", "5S", "9D", "7C", "2S"],
                ["9S", "6H", "3H", "AC", "8S", "4S", "10H", "2C", "7D", "5D"]],
        hands=[["3D", "KC", "5H", "9C", "8D"], ["9H", "10S", "8C", "10D", "9C"]],
        builds=[["AS"]],
        general_top=["SHIFT", "4C", "6D", "7S"],
        turn=LEARNER,
        seed=seed,
    )


def met(step: Step, state: BuildState, events: Sequence[Event]) -> bool:
    """Did the learner's move meet the step's goal? (judged on the engine's events and state)"""
    kinds = [(e.kind, e.seat, e.data) for e in events]
    if step.goal == "stock_played":
        return any(k == "played" and s == LEARNER and d["source"] == "stock"
                   for k, s, d in kinds)
    if step.goal == "stock_fits":
        face_up = state.face_up(LEARNER)
        n = number(face_up) if face_up else None
        return n is not None and any(state.needed(i) == n for i in range(len(state.builds)))
    if step.goal == "discarded":
        return any(k == "discarded" and s == LEARNER for k, s, _ in kinds)
    if step.goal == "shifted_self":
        return any(k == "joker" and d["kind"] == "SHIFT" and d["target"] == LEARNER
                   for k, s, d in kinds)
    raise ValueError(f"unknown goal {step.goal!r}")


def reachable(step: Step, state: BuildState) -> bool:
    """Can the learner still meet the step's goal this turn? (the wild card spent elsewhere,
    say: then the lesson moves on instead of waiting for the impossible)"""
    if step.goal in ("stock_played", "stock_fits"):
        view = player_view(state, LEARNER)
        face_up = state.face_up(LEARNER)
        goal = number(face_up) if face_up else None
        return stock_fits(view) is not None or (
            goal is not None and chain_to(view, goal) is not None)
    if step.goal == "shifted_self":
        return any(joker_kind(c) == "SHIFT" for c in state.hands[LEARNER])
    return bool(state.hands[LEARNER])  # a discard


def settle(index: int | None, state: BuildState) -> int | None:
    """The step the lesson is at: on the learner's turn, steps that can't be met any more are
    passed over (None: the lesson is over, the game goes on)."""
    if index is None or state.over:
        return None
    while index < len(STEPS) and state.turn == LEARNER and not reachable(STEPS[index], state):
        index += 1
    return index if index < len(STEPS) else None
