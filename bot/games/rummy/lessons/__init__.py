"""Guided lessons inside a real game: the pure runner (runner.py) judged by the real engine, the
lessons themselves as content (content/, one module per rulebook). Nothing here is a rule: the
engine decides every move; a lesson only picks positions, goals and words."""

from .demo import BrokenDemo, play_demo
from .runner import (
    DEFAULT_NUDGES,
    LEARNER,
    LESSONS,
    Feedback,
    Goal,
    Lesson,
    LessonState,
    Position,
    Step,
    build_position,
    choose_joker,
    classify,
    demo_text,
    event_lines,
    get_lesson,
    lesson_act,
    lesson_game,
    lesson_step,
    outline,
    parse_move,
    restart_step,
    round_text,
    run_computers,
    seat_name,
    show,
    show_me,
    skip_step,
    start_lesson,
    step_label,
)

__all__ = [
    "DEFAULT_NUDGES", "LEARNER", "LESSONS", "BrokenDemo", "Feedback", "Goal", "Lesson",
    "LessonState", "Position", "Step", "build_position", "choose_joker", "classify",
    "demo_text", "event_lines", "get_lesson", "lesson_act", "lesson_game", "lesson_step",
    "outline", "parse_move", "play_demo", "restart_step", "round_text", "run_computers",
    "seat_name", "show", "show_me", "skip_step", "start_lesson", "step_label",
]
