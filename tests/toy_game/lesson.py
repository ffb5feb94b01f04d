"""Race's lesson, a variant of the game: Race to ten by 1 or 2, the learner (seat 0) first
against one easy computer. Its steps are data; the engine's state after a move judges them
(what is left to the target, who won): a move that does not meet the step is not played, the
step's nudge says what to do instead."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RaceState

VARIANT = "lesson"
TARGET, STEP = "ten", 2
LEARNER = 0


@dataclass(frozen=True)
class Step:
    text: str  # on the learner's screen (msgids: words.py)
    goal: str  # "leave": a multiple of step + 1 left to the target; "win": the learner won
    success: str
    nudge: str = "📘 Not that one: after your move, what is left to 10 should be 9, 6 or 3."


STEPS = {
    "first": Step("📘 Leave the computer a multiple of 3 to go: 10 − 1 = 9. Add 1.", "leave",
                  "✓ Whatever the computer adds, you can leave a multiple of 3 again."),
    "again": Step("📘 Again: leave a multiple of 3 to go.", "leave",
                  "✓ Whatever the computer adds, you can leave a multiple of 3 again."),
    "win": Step("📘 Now reach 10: add what is left.", "win",
                "🎓 You won: always leave a multiple of (step + 1) to go."),
}


def step_of(state: RaceState) -> Step | None:
    """The step the learner is at (None: the race is over)."""
    if state.winner is not None:
        return None
    if state.target - state.total <= state.step:
        return STEPS["win"]
    return STEPS["first"] if state.total == 0 else STEPS["again"]


def met(step: Step, after: RaceState) -> bool:
    if step.goal == "win":
        return after.winner == LEARNER
    return (after.target - after.total) % (after.step + 1) == 0
