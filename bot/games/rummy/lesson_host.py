"""Guided lessons of the rummy family (UX.md §5) as a variant of the hosted rummy game
(bot/core/hosting.py `played_variants`): `RummyLesson` is RummyGame's own definition with the
hooks a lesson plays otherwise overridden, and a script of steps (lessons/content/, data) that
the pure runner (lessons/runner.py) judges with the real engine. The platform hosts a lesson row
through it like any game (`unit.game_of` finds the variant by the row's `rulebook`):
`service.press` -> fair use -> the unit of work (row lock or version, idempotency keys) -> the
turn flow every game's moves take (bot/core/turns.py `press`/`typed`; and `select`). The lesson
gives the flow only hooks: its state (`load`, `version`), the hand-offs, the closed lesson's
check and the card selection (`any_time`), the move a press or a typed line stands for
(`turn_press`, `typed_moves`), the script as the judge of a move (`judge`: a wrong move is no
refusal, it is counted) and its word after it (`moved`).

A lesson is a rummy game row in the learner's private chat: `rulebook` "lesson" (the variant),
`options` {"lesson": <lesson name>}, `lesson` {"form": 2} (the platform's mark: never rated, kept
`lesson_retention_days`), one seat (the learner), and the hosted state
{"progress": LessonState dict, "ver": n, "last": {result, key}}; the selection, menu and notice
are the seat's UI (record.ui). `ver` goes into the buttons; it changes whenever the lesson or its
menu does (not on card selection, which is idempotent: s1 selects, s0 deselects), so a stale
button gets a fresh screen instead of acting twice.
"""
from __future__ import annotations

import contextvars
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.core.buttons import Press
from bot.core.hosting import LessonTerminal, Refusal, Results, Table
from bot.core.record import Record, SeatUI
from bot.core.titles import key_named
from bot.core.turns import ToPlay
from bot.core.views import Outcome, Screen
from bot.i18n import N_, _, fill, ngettext, t
from engine.cards import suit_order
from engine.rummy import Action, Split, player_view
from engine.rummy.actions import TYPED_WORDS, WORD_ACTIONS

from .host import RummyGame
from .lesson_view import LessonSeat, lesson_screen, selectable
from .lessons import (
    LEARNER,
    Feedback,
    LessonState,
    choose_joker,
    get_lesson,
    lesson_act,
    lesson_game,
    restart_step,
    show,
    skip_step,
    start_lesson,
)
from .lessons import words as lesson_words
from .narrate import hint_line
from .refusals import refusal
from .turns import turn_action
from .typed import TypedError, parse_typed
from .vocabulary import LESSON, LESSON_VERBS
from .words import TITLES

KIND = LESSON  # a lesson's variant (record.rulebook): never a rulebook's name
MARK = {"form": 2}  # record.lesson of a lesson hosted as a game (the old form kept "progress")
DEFAULT = "manipulation"  # /lesson with no name and no lesson to resume
WELCOME_BACK = N_("Welcome back — here is where you left off.")
# Whether the lesson being changed is a tile rulebook's (set for each change, in its thread):
# its refusals and hints then speak of tiles and the rack, as the game's do.
_TILES: contextvars.ContextVar[bool] = contextvars.ContextVar("lesson_tiles", default=False)
# The pure runner (lessons/) says its sentences through these: the catalogs, the game's own
# refusals and hints, Hebrew's bidi isolation — all in the current language.
lesson_words.install(
    _,
    ngettext,
    lambda error: refusal(error, _TILES.get()),
    lambda hint: hint_line(hint, _TILES.get()),
    fill,
)
VERBS = LESSON_VERBS  # typed commands a lesson answers in its private chat
# The terminal's lesson (bot/adapters/console_lesson.py): the typed moves' help, and the screen
# lines its position shows too (a tile lesson's loose tiles and rack too).
TERMINAL = LessonTerminal(
    N_("""Type moves as in the game (cards like 7H 10S QD, * for a joker; or hand numbers 1 2 3):
  lay 5H 6H 7H   new group        add A 8H    add to group A     take A 5S   take a card out
  split A 3      split group A after its 3rd card                 move A:5S B  move a card
  done · reset · draw · pass · knock · giveup · next · finish · choose 9C (a joker's card)
  show   explain this step        skip   do it for me            restart  the step again
  quit   stop here (the lesson is saved)"""),
    (
        "Table: {groups}",
        "Loose (place before Done): {cards}",
        "Loose tiles (place before Done): {tiles}",
        "Hand: {cards}",
        "Rack: {tiles}",
    ),
)


@dataclass(frozen=True)
class Move:
    """A learner's move for the flow to play (`RummyLesson.judge`): the engine's actions of one
    press or typed line, judged in turn until one is more than progress; or the lesson's own
    (`own`: show, skip, restart)."""

    actions: tuple[Action, ...] = ()
    own: str = ""


def _restart(progress: LessonState) -> tuple[LessonState, Feedback]:
    return restart_step(progress), Feedback("progress", _("The step starts again."), "restart")


# the lesson's own moves, judged as the engine's are: the new progress and the word on it
OWN: dict[str, Callable[[LessonState], tuple[LessonState, Feedback]]] = {
    "show": show, "skip": skip_step, "restart": _restart,
}
# the one-word actions, the engine's (a lesson's 💡 Show me stands for the game's hint)
SIMPLE: dict[str, type[Action]] = {k: v for k, v in TYPED_WORDS.items() if k != "hint"}
# a turn's buttons the game's own mapping reads (rummy/turns.py): placing, taking, a joker's
# meaning and the one-word actions of a turn
TURN_VERBS = frozenset({"new", "add", "tc", "jk", *(v for v in WORD_ACTIONS if v != "hint")})
# the menus a button opens (a group's own: take:<g>, split:<g>)
MENUS = {"addm": "add", "takem": "take", "splm": "split", "more": "more"}
# what a closed lesson (stopped, or finished) still answers: its menus and its hand-offs
CLOSED_OK = ("s0", "s1", "noop", "cancel", "addm", "takem", "splm", "take", "spl", "more",
             "go", "play")


# -- the variant ---------------------------------------------------------------------------------


class RummyLesson(RummyGame):
    """The rummy game as a lesson: one seat, no turn timer, no computer on move, no score; its
    one screen is the step's; its presses and typed moves take the game's turn flow, judged by
    the script."""

    offers_puzzles = False  # a lesson is cut from nothing

    def to_move(self, state: Any) -> int | None:
        return None  # nobody's turn timer, no computer: the runner plays the computers

    def is_over(self, state: Any) -> bool:
        return bool(state.get("progress", {}).get("finished"))

    def rounds(self, state: Any) -> Sequence[Sequence[int]]:
        return []  # a lesson counts in no score

    def results(self, record: Record) -> Results | None:
        return None  # never in scores, ratings, leaderboards or titles

    def lesson_options(self, words: str | None) -> dict[str, Any] | None:
        """The lesson `words` name in any language (`/lesson רמיקוב`) as the row's options;
        None for no words; ValueError with a sentence for a lesson we don't have."""
        if not (words or "").strip():
            return None
        wanted = key_named(str(words), TITLES) or str(words)
        return {"lesson": get_lesson(wanted).name}

    def lesson(self, table: Table, options: dict[str, Any] | None) -> Outcome:
        """Begin the lesson `options` name in this row (None: resume the one it holds)."""
        record = table.record
        if options is None and record.rulebook == KIND and record.state:
            return _resume(table)
        record.rulebook = KIND
        record.lesson = dict(MARK)
        return _begin(table, options)

    def lesson_terminal(self) -> LessonTerminal:
        return TERMINAL

    def screens(self, table: Table, *, new: bool = False) -> Outcome:
        """The learner's screen as it is now, as an outcome (/table, a redelivery)."""
        user = _learner(table.record)
        out = Outcome(private={user: self.private_screen(table, LEARNER)})
        if new:
            out.private_new.add(user)
        return out

    def table_screen(self, table: Table) -> Screen:
        return self.private_screen(table, LEARNER)  # a lesson has no table: its one screen

    def private_screen(self, table: Table, seat: int) -> Screen:
        return self.seat_screen(table, self.load(table.record), seat)

    def review(self, table: Table, seat: int, round: int | None) -> Screen:
        raise Refusal(_("This is a lesson: /quit stops it."))

    def web_view(self, record: Record, seat: int | None) -> dict[str, Any]:
        raise Refusal(_("This is a lesson: /quit stops it."))  # it lives in its chat only

    def web_edit(self, table: Table, seat: int, user: str, edit: Any) -> Outcome:
        raise Refusal(_("This is a lesson: /quit stops it."))

    def select(self, table: Table, seat: int, user: str, version: int,
               items: Sequence[str]) -> Outcome:
        """A card menu (Discord): exactly these cards selected, as one change."""
        _mine(seat)
        lesson = LessonSeat.load(table.record)
        tokens = {c.token for c in selectable(lesson.progress)}
        lesson.ui.selected = [x for x in dict.fromkeys(items) if x in tokens]
        return self._shown(table, lesson, user)

    # -- the turn flow's hooks (bot/core/turns.py): a lesson's presses and typed moves -------

    def load(self, record: Record) -> LessonSeat:
        """The lesson's part of the record (its refusals and hints then speak of tiles for a
        tile rulebook's lesson, as the game's do)."""
        lesson = LessonSeat.load(record)
        _TILES.set(lesson_game(lesson.progress).rules.tiles)
        return lesson

    def version(self, state: LessonSeat) -> int:
        return state.ver  # the lesson's and its menu's (a card's selection is idempotent)

    def check_turn(self, state: LessonSeat, seat: int) -> None:
        _mine(seat)  # the learner is always on move

    def seat_screen(self, table: Table, state: LessonSeat, seat: int) -> Screen:
        return lesson_screen(table.game_id, state)

    def any_time(self, table: Table, state: LessonSeat, seat: int | None, user: str,
                 press: Press) -> Outcome | None:
        """The hand-offs (another lesson, a real game), a closed lesson's check and a card's
        selection (idempotent: any version); None: a press of the step, for the flow."""
        record, verb = table.record, press.verb
        if verb in ("go", "play") and seat != LEARNER:  # the learner's hand-offs only
            raise Refusal(_("These buttons belong to the learner."))
        _mine(seat)
        if verb == "go":  # another lesson, in this row
            try:
                return _begin(table, self.lesson_options(press.str()))
            except ValueError as error:  # (a forged name: the menu offers only ours)
                raise Refusal(str(error)) from None
        if verb == "play":  # [Play a real game]: the platform starts it once this is saved
            if not self.is_over(record.state or {}):
                record.ended = True  # the chat must be free for the real game
            return Outcome(play_next=state.progress.lesson)
        if _is_closed(record) and verb not in CLOSED_OK:
            raise Refusal(_("This lesson is over. Send /lesson to start another."))
        if verb in ("s0", "s1"):
            token = press.str()
            tokens = {c.token for c in selectable(state.progress)}
            if token not in tokens:
                raise Refusal(_("That card is no longer yours to place."), alert=False,
                              outcome=self.mine(table, state, LEARNER, user))
            state.ui.selected = [x for x in state.ui.selected if x in tokens and x != token]
            if verb == "s1":
                state.ui.selected.append(token)
            return self._shown(table, state, user)
        if verb == "noop":
            return self._shown(table, state, user)
        return None

    def turn_press(self, table: Table, state: LessonSeat, seat: int, user: str,
                   press: Press) -> ToPlay | Outcome:
        """A press of the step (its version checked): a menu (a new version too: a button of
        the old menu can't act afterwards), Quit, or the move it stands for."""
        verb, ui = press.verb, state.ui
        if verb == "cancel":
            ui.mode = "main"
            state.progress = replace(state.progress, joker=None)
        elif verb == "addm" and not ui.selected:
            ui.notice = _("Select the cards to add first (tap them).")
        elif verb in MENUS:
            ui.mode = MENUS[verb]
        elif verb in ("take", "spl"):
            ui.mode = f"{'take' if verb == 'take' else 'split'}:{press.int()}"
        if verb in ("cancel", "take", "spl", *MENUS):
            state.ver += 1
            return self._shown(table, state, user)
        if verb == "quit":
            return self._quit(table, state, user)
        if verb in OWN:
            return ToPlay(Move(own=verb))
        if verb in TURN_VERBS:  # the game's own turn buttons: the game's own press -> action
            # (on a copy: the game clears the notice for a move, a lesson's Show me stays shown)
            scratch = SeatUI(selected=list(ui.selected), mode=ui.mode)
            act = turn_action(lesson_game(state.progress), LEARNER, scratch, press)
            if act is None:  # nothing selected: the game's notice, nothing else changes
                ui.notice = scratch.notice
                return self._shown(table, state, user)
            return ToPlay(Move((act,)))
        if verb == "spa":
            return ToPlay(Move((Split(LEARNER, press.int(0), press.int(1)),)))
        if verb in SIMPLE:
            return ToPlay(Move((SIMPLE[verb](LEARNER),)))
        raise Refusal(_("Unknown button."), outcome=self.mine(table, state, LEARNER, user))

    def typed_starts(self, table: Table, state: LessonSeat, seat: int) -> None:
        """The notice stays, as for a button: "Show me" while the learner follows it (the
        judge's word replaces it, `moved`)."""

    def typed_moves(self, table: Table, state: LessonSeat, seat: int, user: str, verb: str,
                    args: str) -> Outcome:
        """Typed in the lesson's chat (/lay 5H 6H 7H, /done, /skip, /quit…): one move, played
        here as its buttons would be; its screen is posted again below it (the answer)."""
        if verb not in VERBS:
            raise Refusal(t("Unknown command /{verb} in a lesson.", verb=verb))
        if _is_closed(table.record):
            raise Refusal(_("This lesson is over. Send /lesson to start another."))
        out = self._typed(table, state, user, verb, args.strip())
        if out.private:  # a typed move scrolled the lesson up: post it again below
            out.private_new.add(user)
        return out

    def judge(self, state: LessonSeat, action: Move) -> tuple[LessonSeat, list[Feedback]]:
        """The script judges the learner's move with the real engine: the lesson as it goes on
        (a wrong move is no refusal: the script counts it), and its word (the one event)."""
        if action.own:
            progress, feedback = OWN[action.own](state.progress)
        else:
            progress, feedback = _judged(state.progress, action.actions)
        return replace(state, progress=progress), [feedback]

    def clear_seat(self, table: Table, seat: int, keep_selection: bool) -> None:
        """The judge's word decides (`moved`): a wrong move keeps the selection."""

    def moved(self, table: Table, old: LessonSeat, new: LessonSeat, events: list[Feedback],
              seat: int, action: Move, user: str) -> Outcome:
        """After the judge: a new version, the main menu, the selection gone unless the move
        was wrong, the judge's word as the notice and the answer."""
        lesson, feedback = new, events[0]
        lesson.ver += 1
        lesson.ui.mode = "main"
        if feedback.result != "wrong":
            lesson.ui.selected = []
        # "Show me" stays on screen while the learner follows it; any other text replaces it.
        if feedback.text or feedback.result != "progress" or lesson.last.get("key") != "show":
            lesson.ui.notice = feedback.text
            lesson.last = {"result": feedback.result, "key": feedback.key}
        out = self._shown(table, lesson, user)
        short = feedback.text.split("\n", 1)[0]
        if feedback.result == "wrong":
            out.reply, out.alert = short, True
        elif feedback.correct:
            out.reply = _("✓ Correct!") if feedback.result == "correct" else _("Skipped.")
        elif feedback.result == "choose":
            out.reply = short
        return out

    # -- inside ----------------------------------------------------------------------------

    def _typed(self, table: Table, lesson: LessonSeat, user: str, verb: str,
               args: str) -> Outcome:
        if verb in ("show", "hint", "skip", "quit", "restart"):  # as its button
            said = Press(table.game_id, lesson.ver, "show" if verb == "hint" else verb)
            return self.play_press(table, lesson, LEARNER, user, said)
        if verb in ("next", "finish"):
            actions = [SIMPLE[verb](LEARNER)]
        elif verb in ("choose", "joker"):
            try:
                actions = [choose_joker(lesson.progress, args)]
            except ValueError as error:
                raise Refusal(str(error)) from None
        else:
            view = player_view(lesson_game(lesson.progress), LEARNER)
            try:
                actions = parse_typed(LEARNER, verb, args, sorted(view.draft_hand, key=suit_order))
            except TypedError as error:
                raise Refusal(str(error)) from None
        return self.move(table, lesson, LEARNER, Move(tuple(actions)), user)

    def _quit(self, table: Table, lesson: LessonSeat, user: str) -> Outcome:
        """✖ Quit: the lesson stops where it is (saved: /lesson resumes it); no buttons."""
        lesson.ui.notice = _("Lesson stopped. Send /lesson to start again.")
        lesson.ui.mode = "main"
        lesson.ver += 1
        out = self._shown(table, lesson, user)
        out.private[user].buttons = []
        out.reply, out.alert = _("Lesson stopped."), False
        table.record.ended = True
        return out

    def _shown(self, table: Table, lesson: LessonSeat, user: str) -> Outcome:
        """The lesson saved into the record; the learner's screen of it."""
        lesson.save(table.record)
        return self.mine(table, lesson, LEARNER, user)


def _judged(progress: LessonState, actions: Sequence[Action]) -> tuple[LessonState, Feedback]:
    """The engine's actions of one move judged in turn (the first that is more than progress
    stops them), their words as one."""
    feedback = Feedback("progress", "")
    texts: list[str] = []
    for act in actions:
        progress, feedback = lesson_act(progress, act)
        if feedback.text:
            texts.append(feedback.text)
        if feedback.result != "progress":
            break
    if len(texts) > 1:
        feedback = replace(feedback, text="\n".join(texts))
    return progress, feedback


def _is_closed(record: Record) -> bool:
    """Stopped (/quit, idle) or finished: only its menus and hand-offs answer."""
    state = record.state or {}
    return record.ended or bool(state.get("progress", {}).get("finished"))


def _begin(table: Table, options: dict[str, Any] | None) -> Outcome:
    """Lesson `options["lesson"]` (None: the default) from its first step in this row, which
    may have held another lesson: a higher `ver`, so that lesson's buttons are out of date."""
    record = table.record
    name = (options or {}).get("lesson") or DEFAULT
    before = (record.state or {}).get("ver", 0) if record.state else 0
    record.options = {"lesson": get_lesson(name).name}
    record.ended = False
    record.log, record.log_in = [], {}
    record.ui = {}
    lesson = LessonSeat(start_lesson(name), record.seat_ui(LEARNER), int(before) + 1)
    lesson.ui.notice = lesson_words._(get_lesson(name).intro)
    _TILES.set(lesson_game(lesson.progress).rules.tiles)
    return _posted(table, lesson)


def _resume(table: Table) -> Outcome:
    """/lesson again (or with the running lesson's name): where the learner left off, anew."""
    lesson = LessonSeat.load(table.record)
    lesson.ui.notice = _(WELCOME_BACK)
    lesson.ui.mode = "main"
    return _posted(table, lesson)


def _posted(table: Table, lesson: LessonSeat) -> Outcome:
    """The lesson saved into the record, its screen posted anew to the learner."""
    lesson.save(table.record)
    user = _learner(table.record)
    return Outcome(private={user: lesson_screen(table.game_id, lesson)}, private_new={user})


def _learner(record: Record) -> str:
    return record.seats[LEARNER].user or record.host


def _mine(seat: int | None) -> None:
    if seat != LEARNER:
        raise Refusal(_("This lesson belongs to someone else."))


__all__ = ["KIND", "MARK", "VERBS", "RummyLesson", "lesson_screen"]
