"""Guided lessons of the rummy family (UX.md §5) as a variant of the hosted rummy game
(bot/core/hosting.py `played_variants`): `RummyLesson` is RummyGame's own definition with the
methods a lesson plays otherwise overridden, and a script of steps (lessons/content/, data) that
the pure runner (lessons/runner.py) judges with the real engine. The platform hosts a lesson row
through it like any game (`unit.game_of` finds the variant by the row's `rulebook`):
`service.press` -> fair use -> the unit of work (row lock or version, idempotency keys) ->
`RummyLesson.press`/`typed`/`select`, the press already typed by `buttons.parse`.

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


class _Reply(Exception):
    """Stop and answer the learner (nothing is saved)."""

    def __init__(self, text: str, *, alert: bool = True, screen: bool = False) -> None:
        super().__init__(text)
        self.text, self.alert, self.screen = text, alert, screen


@dataclass(frozen=True)
class _Ctx:
    """Who pressed, in which lesson row: what a screen and an outcome need."""

    user: str
    game_id: int

    def outcome(self, lesson: LessonSeat | None = None, *, new: bool = False) -> Outcome:
        out = Outcome()
        if lesson is not None:
            out.private[self.user] = lesson_screen(self.game_id, lesson)
            if new:
                out.private_new.add(self.user)
        return out


Change = Callable[[_Ctx, LessonSeat], tuple[Outcome, str | None]]
# the one-word actions, the engine's (a lesson's 💡 Show me stands for the game's hint)
SIMPLE: dict[str, type[Action]] = {k: v for k, v in TYPED_WORDS.items() if k != "hint"}
# a turn's buttons the game's own mapping reads (rummy/turns.py): placing, taking, a joker's
# meaning and the one-word actions of a turn
TURN_VERBS = frozenset({"new", "add", "tc", "jk", *(v for v in WORD_ACTIONS if v != "hint")})
# what a closed lesson (stopped, or finished) still answers: its menus and its hand-offs
CLOSED_OK = ("s0", "s1", "noop", "cancel", "addm", "takem", "splm", "take", "spl", "more",
             "go", "play")


# -- the variant ---------------------------------------------------------------------------------


class RummyLesson(RummyGame):
    """The rummy game as a lesson: one seat, no turn timer, no computer on move, no score; its
    one screen is the step's; its presses, typed moves and menus are judged by the script."""

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
        lesson = LessonSeat.load(table.record)
        _TILES.set(lesson_game(lesson.progress).rules.tiles)
        return lesson_screen(table.game_id, lesson)

    def review(self, table: Table, seat: int, round: int | None) -> Screen:
        raise Refusal(_("This is a lesson: /quit stops it."))

    def web_view(self, record: Record, seat: int | None) -> dict[str, Any]:
        raise Refusal(_("This is a lesson: /quit stops it."))  # it lives in its chat only

    def web_edit(self, table: Table, seat: int, user: str, edit: Any) -> Outcome:
        raise Refusal(_("This is a lesson: /quit stops it."))

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        """A button of a lesson screen (an ordinary game button: game:version:action)."""
        record = table.record
        head = press.verb
        if head in ("go", "play") and seat != LEARNER:  # the learner's hand-offs only
            raise Refusal(_("These buttons belong to the learner."))
        _mine(record, seat)
        if head == "go":  # another lesson, in this row
            try:
                return _begin(table, self.lesson_options(press.str()))
            except ValueError as error:  # (a forged name: the menu offers only ours)
                raise Refusal(str(error)) from None
        if head == "play":  # [Play a real game]: the platform starts it once this is saved
            if not self.is_over(record.state or {}):
                record.ended = True  # the chat must be free for the real game
            return Outcome(play_next=LessonSeat.load(record).progress.lesson)
        if _is_closed(record) and head not in CLOSED_OK:
            raise Refusal(_("This lesson is over. Send /lesson to start another."))
        return _change(table, user, lambda ctx, les: _press(ctx, les, press))

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        """Typed in the lesson's chat: /lay 5H 6H 7H, /done, /skip, /quit…"""
        _mine(table.record, seat)
        if verb not in VERBS:
            raise Refusal(t("Unknown command /{verb} in a lesson.", verb=verb))
        if _is_closed(table.record):
            raise Refusal(_("This lesson is over. Send /lesson to start another."))
        out = _change(table, user, lambda ctx, les: _typed(ctx, les, verb, args.strip()))
        if out.private:  # a typed move scrolled the lesson up: post it again below (the answer)
            out.private_new.add(user)
        return out

    def select(self, table: Table, seat: int, user: str, version: int,
               items: Sequence[str]) -> Outcome:
        """A card menu (Discord): exactly these cards selected, as one change."""
        _mine(table.record, seat)
        lesson = LessonSeat.load(table.record)
        tokens = {c.token for c in selectable(lesson.progress)}
        lesson.ui.selected = [x for x in dict.fromkeys(items) if x in tokens]
        lesson.save(table.record)
        return _Ctx(user, table.game_id).outcome(lesson)


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
    record.log = []
    record.ui = {}
    lesson = LessonSeat(start_lesson(name), record.seat_ui(LEARNER), int(before) + 1)
    lesson.ui.notice = lesson_words._(get_lesson(name).intro)
    _TILES.set(lesson_game(lesson.progress).rules.tiles)
    lesson.save(record)
    return _Ctx(_learner(record), table.game_id).outcome(lesson, new=True)


def _resume(table: Table) -> Outcome:
    """/lesson again (or with the running lesson's name): where the learner left off, anew."""
    lesson = LessonSeat.load(table.record)
    lesson.ui.notice = _(WELCOME_BACK)
    lesson.ui.mode = "main"
    lesson.save(table.record)
    return _Ctx(_learner(table.record), table.game_id).outcome(lesson, new=True)


def _learner(record: Record) -> str:
    return record.seats[LEARNER].user or record.host


def _mine(record: Record, seat: int | None) -> None:
    if seat != LEARNER:
        raise Refusal(_("This lesson belongs to someone else."))


def _change(table: Table, user: str, change: Change) -> Outcome:
    """`change` on the decoded lesson, saved into the record; a `_Reply` changes nothing."""
    ctx = _Ctx(user, table.game_id)
    lesson = LessonSeat.load(table.record)
    _TILES.set(lesson_game(lesson.progress).rules.tiles)
    try:
        outcome, status = change(ctx, lesson)
    except _Reply as reply:
        fresh = ctx.outcome(lesson) if reply.screen else None
        raise Refusal(reply.text, alert=reply.alert, outcome=fresh) from None
    lesson.save(table.record)
    if status == "ended":
        table.record.ended = True
    return outcome


def _press(ctx: _Ctx, lesson: LessonSeat, press: Press) -> tuple[Outcome, str | None]:
    head = press.verb
    if press.version != lesson.ver and head not in ("s0", "s1", "noop"):
        raise _Reply(
            _("That button is out of date — here is a fresh screen."), alert=False, screen=True
        )
    progress = lesson.progress
    if head in ("s0", "s1"):
        token = press.str()
        tokens = {c.token for c in selectable(progress)}
        if token not in tokens:
            raise _Reply(_("That card is no longer yours to place."), alert=False, screen=True)
        lesson.ui.selected = [t for t in lesson.ui.selected if t in tokens and t != token]
        if head == "s1":
            lesson.ui.selected.append(token)
        return ctx.outcome(lesson), None
    if head == "noop":
        return ctx.outcome(lesson), None
    # A menu change bumps the version too: a button of the old menu can't act afterwards.
    if head == "cancel":
        lesson.ui.mode = "main"
        lesson.progress = replace(progress, joker=None)
    elif head in ("addm", "takem", "splm", "more"):
        if head == "addm" and not lesson.ui.selected:
            lesson.ui.notice = _("Select the cards to add first (tap them).")
        else:
            lesson.ui.mode = {"addm": "add", "takem": "take", "splm": "split", "more": "more"}[head]
    elif head in ("take", "spl"):
        lesson.ui.mode = f"{'take' if head == 'take' else 'split'}:{press.int()}"
    if head in ("cancel", "addm", "takem", "splm", "more", "take", "spl"):
        lesson.ver += 1
        return ctx.outcome(lesson), None
    if head == "show":
        lesson.progress, feedback = show(progress)
        return _after(ctx, lesson, feedback)
    if head == "skip":
        lesson.progress, feedback = skip_step(progress)
        return _after(ctx, lesson, feedback)
    if head == "restart":
        lesson.progress = restart_step(progress)
        return _after(ctx, lesson, Feedback("progress", _("The step starts again."), "restart"))
    if head == "quit":
        lesson.ui.notice = _("Lesson stopped. Send /lesson to start again.")
        lesson.ui.mode = "main"
        lesson.ver += 1
        out = ctx.outcome(lesson)
        out.private[ctx.user].buttons = []
        out.reply, out.alert = _("Lesson stopped."), False
        return out, "ended"
    if head in TURN_VERBS:  # the game's own turn buttons: the game's own press -> action
        # (on a copy: the game clears the notice for a move, a lesson's Show me stays shown)
        scratch = SeatUI(selected=list(lesson.ui.selected), mode=lesson.ui.mode)
        act = turn_action(lesson_game(progress), LEARNER, scratch, press)
        if act is None:  # nothing selected: the game's notice, nothing else changes
            lesson.ui.notice = scratch.notice
            return ctx.outcome(lesson), None
        return _act(ctx, lesson, [act])
    if head == "spa":
        return _act(ctx, lesson, [Split(LEARNER, press.int(0), press.int(1))])
    if head in SIMPLE:
        return _act(ctx, lesson, [SIMPLE[head](LEARNER)])
    raise _Reply(_("Unknown button."), screen=True)


def _typed(ctx: _Ctx, lesson: LessonSeat, verb: str, args: str) -> tuple[Outcome, str | None]:
    progress = lesson.progress
    if verb in ("show", "hint", "skip", "quit", "restart"):
        said = Press(ctx.game_id, lesson.ver, "show" if verb == "hint" else verb)
        return _press(ctx, lesson, said)
    if verb in ("next", "finish"):
        return _act(ctx, lesson, [SIMPLE[verb](LEARNER)])
    if verb in ("choose", "joker"):
        try:
            return _act(ctx, lesson, [choose_joker(progress, args)])
        except ValueError as error:
            raise _Reply(str(error)) from None
    hand = sorted(player_view(lesson_game(progress), LEARNER).draft_hand, key=suit_order)
    try:
        actions = parse_typed(LEARNER, verb, args, hand)
    except TypedError as error:
        raise _Reply(str(error)) from None
    return _act(ctx, lesson, actions)


def _act(ctx: _Ctx, lesson: LessonSeat, actions: list[Action]) -> tuple[Outcome, str | None]:
    feedback = Feedback("progress", "")
    texts: list[str] = []
    for act in actions:
        lesson.progress, feedback = lesson_act(lesson.progress, act)
        if feedback.text:
            texts.append(feedback.text)
        if feedback.result != "progress":
            break
    if len(texts) > 1:
        feedback = replace(feedback, text="\n".join(texts))
    return _after(ctx, lesson, feedback)


def _after(ctx: _Ctx, lesson: LessonSeat, feedback: Feedback) -> tuple[Outcome, str | None]:
    """Update the lesson's UI state after a lesson action, and answer."""
    lesson.ver += 1
    lesson.ui.mode = "main"
    if feedback.result != "wrong":
        lesson.ui.selected = []
    # "Show me" stays on screen while the learner follows it; any other text replaces it.
    if feedback.text or feedback.result != "progress" or lesson.last.get("key") != "show":
        lesson.ui.notice = feedback.text
        lesson.last = {"result": feedback.result, "key": feedback.key}
    out = ctx.outcome(lesson)
    short = feedback.text.split("\n", 1)[0]
    if feedback.result == "wrong":
        out.reply, out.alert = short, True
    elif feedback.correct:
        out.reply = _("✓ Correct!") if feedback.result == "correct" else _("Skipped.")
    elif feedback.result == "choose":
        out.reply = short
    return out, "finished" if lesson.progress.finished else None


__all__ = ["KIND", "MARK", "VERBS", "RummyLesson", "lesson_screen"]
