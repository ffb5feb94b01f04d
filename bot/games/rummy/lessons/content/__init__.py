"""The guided lessons as data, one module per rulebook (RULES.md §1–2; UX.md §5).

Manipulation teaches the common rules step by step; the other rulebooks teach only what differs.
Seat 0 is the learner, seat 1 the computer. Every step's `demo` is checked by tests/test_lessons.py
against the real engine, so a position and its instruction cannot drift apart unnoticed.

Every sentence a learner reads (titles, texts, nudges, success lines, intro, outro) is marked
`N_("…")` (lessons/words.py) and translated in bot/i18n's catalogs; tests/test_lessons_i18n.py
plays each lesson in Hebrew and Russian and fails on an English word.
"""

from __future__ import annotations

from ..model import Lesson
from . import carousel, guadeloupe, machiavelli, manipulation, rummikub, shanghai, tahiti, vatican

LESSONS: dict[str, Lesson] = {
    lesson.name: lesson
    for lesson in (
        manipulation.lesson(),
        machiavelli.lesson(),
        shanghai.lesson(),
        guadeloupe.lesson(),
        carousel.lesson(),
        vatican.lesson(),
        tahiti.lesson(),
        rummikub.lesson(),
    )
}
