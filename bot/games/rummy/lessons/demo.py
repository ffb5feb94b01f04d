"""A step's demo played for checking a lesson (its tests, a lesson author): move by move, and a
demo that does not reach the next step raises instead of leaving the lesson where it was (a
loop over the steps would meet the same step for ever)."""

from __future__ import annotations

from .runner import Feedback, LessonState, lesson_act, lesson_step, parse_move


class BrokenDemo(AssertionError):
    """A step's demo does not do what the step asks, from where the lesson is."""


def play_demo(state: LessonState) -> tuple[LessonState, Feedback]:
    """The current step's demo played from `state`: the progress at the next step (or the
    lesson's end) and the last move's feedback. BrokenDemo names the lesson, the step and the
    move when a move is refused or taken back, or when the demo ends short of the goal."""
    step = lesson_step(state)
    index = state.step
    where = f"{state.lesson} step {index + 1} ({step.id})"
    if state.finished:
        raise BrokenDemo(f"{where}: the lesson is over, there is no demo to play")
    for line in step.demo:
        try:
            action = parse_move(line)
        except (ValueError, IndexError) as error:
            raise BrokenDemo(f"{where}: the demo move {line!r} is not a move: {error}") from None
        state, feedback = lesson_act(state, action)
        if feedback.result == "wrong":
            raise BrokenDemo(f"{where}: the demo move {line!r} failed: {feedback.text}")
        if state.finished or state.step != index:
            return state, feedback
    raise BrokenDemo(f"{where}: the demo {' · '.join(step.demo) or '(none)'} ends short of "
                     f"the step's goal ({step.goal.kind})")
