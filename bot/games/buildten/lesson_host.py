"""Build-to-Ten's lesson as a variant of the game (bot/core/hosting.py `played_variants`): the
game's own definition with a script of steps (lesson.py, data judged by the engine's events).
It is the same game, dealt from the worked example against one computer; it overrides only
the deal, a step's word before a person's move (a move of another kind), its judging after
one, and the result without a review. Its step is a key of the hosted state ("lesson", None
once the script is done and the game simply goes on)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from bot.core.hosting import Refusal, Table
from bot.core.narrate import log_said
from bot.core.record import Record
from bot.core.turns import Refused
from bot.core.views import Outcome, Screen
from bot.i18n import _, using
from engine.buildten import Action, BuildState, Event

from . import lesson, screens
from .host import BuildTenGame, _save
from .texts import lesson_text


def _step(record: Record) -> int | None:
    """The lesson step the learner is at (None: it is over)."""
    return record.state.get("lesson") if record.state else None


def _keep(record: Record, step: int | None) -> None:
    """The step into the hosted state (a new dict: the core replaces a state, never edits it);
    the game's save carries it over."""
    record.state = {**(record.state or {}), "lesson": step}


class BuildTenLesson(BuildTenGame):
    """The worked example of RULES.md §6 in a real game (the learner is seat 0)."""

    def start(self, table: Table) -> Outcome:
        record = table.record
        seats = record.seats
        if len(seats) != 2 or seats[0].is_computer or not seats[1].is_computer:
            raise Refusal(_("The lesson is for one person and one computer: add a computer "
                            "(🤖), then Start."))
        state = lesson.lesson_position(record.seed)
        _save(record, state)
        _keep(record, 0)
        with using(record.lang_of(lesson.LEARNER)):  # the notice is the learner's
            record.seat_ui(lesson.LEARNER).notice = lesson_text(lesson.INTRO)
        log_said(record, lambda: _("Build-to-Ten lesson: the worked example, then a real game"))
        table.turn_started(self.to_move(record.state))
        return self._everything(table, state, reply=_("The game starts!"), new=True)

    def gate(self, table: Table, state: BuildState, seat: int,
             action: Action) -> Refused | None:
        """Only the moves the step takes reach the engine; another kind is nudged."""
        step = self._script(table.record, action)
        if step is not None and not step.allows(action):
            return Refused(lesson_text(step.nudge), alert=False, mark="📘 ")
        return None

    def moved(self, table: Table, old: BuildState, new: BuildState, events: list[Event],
              seat: int, action: Action, user: str) -> Outcome:
        """The engine took the learner's move: the step says whether its goal is met."""
        record = table.record
        step = self._script(record, action) if user else None
        if step is None:
            return super().moved(table, old, new, events, seat, action, user)
        done = lesson.met(step, new, events)
        at = _step(record)
        assert at is not None  # (a step: the script is running)
        after = lesson.settle(at + 1 if done else at, new)
        _keep(record, after)
        out = super().moved(table, old, new, events, seat, action, user)
        if done:
            done_line = "\n" + lesson_text(lesson.DONE) if after is None else ""
            record.seat_ui(seat).notice = lesson_text(step.success) + done_line
            out.private[user] = screens.private_screen(table.game_id, record, new, seat)
        return out

    def advance(self, table: Table, old: BuildState, new: BuildState,
                events: list[Event], acts: Sequence[Action] = ()) -> Outcome:
        """Every move (the computer's too): the step passed over where it can't be met any
        more, before the screens show it."""
        _keep(table.record, lesson.settle(_step(table.record), new))
        return super().advance(table, old, new, events, acts)

    def _results(self, table: Table, state: BuildState) -> Screen:
        return dataclasses.replace(super()._results(table, state), parts=[])  # no 🔎 Review

    @staticmethod
    def _script(record: Record, act: Action) -> lesson.Step | None:
        """The step that judges this move (None: not the learner's, or the script is done)."""
        at = _step(record) if act.seat == lesson.LEARNER else None
        return lesson.STEPS[at] if at is not None else None
