"""Guided lessons of the rummy family in a private chat (UX.md §5): the pure runner of
lessons/runner.py, kept in the store and shown as screens. The platform and the adapters reach
it only through the hosting interface (`HostedGame.lesson_service`, `hosting.Lessons`): the
game service builds it from the game that has lessons and hands it to the adapters.

A lesson is a game row in the learner's private chat whose record is a normal `Record` with
`state=None` (so the game service's resume loop ignores it) and the progress in
`record["lesson"]`: {"progress": LessonState dict, "ui": {selected, mode, notice}, "ver": n}.
`ver` goes into the buttons; it changes whenever the lesson or its menu does (not on card
selection, which is idempotent: s1 selects, s0 deselects), so a stale button gets a fresh screen
instead of acting twice.

Buttons carry their whole callback data, `L:<game id>:<ver>:<action>` (≤ 64 bytes), so an
adapter sends `Button.action` as it is and routes presses starting with `L:` to
`LessonService.press`.

    lessons = service.lessons  # LessonService(store, play=service.play_computer), by the host
    out = await lessons.start(actor, "manipulation")      # -> Outcome with the private screen
    out = await lessons.press(actor, "L:7:1:s1:5H#0")     # select 5♥
    out = await lessons.command(actor, "lay", "5H 6H 7H")  # typed moves work too
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import hashlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot.core.buttons import LESSON_PREFIX, pack
from bot.core.buttons import parse as parse_button
from bot.core.cut import CAPTION_UNITS, cut
from bot.core.per_game import GameLocks
from bot.core.persist import GameExists, StaleGame
from bot.core.record import Record, SeatInfo
from bot.core.titles import key_named
from bot.core.views import Button, Outcome, Screen
from bot.i18n import N_, _, current, fill, isolate, ngettext, t, using
from engine.cards import Card, suit_order
from engine.rummy import (
    Action,
    Commit,
    Draw,
    Finish,
    GiveUp,
    Knock,
    NextRound,
    Pass,
    Place,
    Reset,
    Split,
    Take,
    group_label,
    legal_actions,
    player_view,
)
from engine.rummy.tiles import piece_from_token
from render.rummy import render_private

from .lessons import (
    LEARNER,
    LESSONS,
    Feedback,
    LessonState,
    choose_joker,
    get_lesson,
    lesson_act,
    lesson_game,
    lesson_step,
    outline,
    restart_step,
    show,
    skip_step,
    start_lesson,
    step_label,
)
from .lessons import words as lesson_words
from .narrate import hint_line
from .refusals import refusal
from .screens import (
    action_rows,
    card_label,
    groups_text,
    joker_face,
    private_picture,
)
from .typed import TypedError, parse_typed
from .vocabulary import LESSON_VERBS
from .words import TITLES

PREFIX = LESSON_PREFIX
SORRY = N_("Sorry, something went wrong there. The lesson is saved — please try again.")
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
log = logging.getLogger(__name__)
MAX_TYPED = 300
CARDS_PER_ROW = 8
MAX_CARD_BUTTONS = 24
# Typed commands a lesson answers in its private chat (besides /lesson itself).
VERBS = frozenset(
    {
        "lay",
        "add",
        "take",
        "move",
        "split",
        "done",
        "reset",
        "draw",
        "pass",
        "knock",
        "giveup",
        "give",
        "hint",
        "show",
        "skip",
        "quit",
        "next",
        "finish",
        "choose",
        "joker",
        "restart",
    }
)
PlayHandOff = Callable[[Any, str], Awaitable[Outcome]]


def pack_lesson(game_id: int, version: int, action: str) -> str:
    """`L:<game id>:<version>:<action>`."""
    return pack(game_id, version, action, PREFIX)


def unpack_lesson(data: str) -> tuple[int, int, str] | None:
    """(game id, version, action), strictly parsed (LESSON_VERBS); None if not ours."""
    press = parse_button(data, lesson=LESSON_VERBS)
    return None if press is None else (press.game_id, press.version, press.action)


def is_lesson_record(record: dict[str, Any]) -> bool:
    return bool((record.get("lesson") or {}).get("progress"))


class _Reply(Exception):
    """Stop and answer the learner (nothing is saved)."""

    def __init__(self, text: str, *, alert: bool = True, screen: bool = False) -> None:
        super().__init__(text)
        self.text, self.alert, self.screen = text, alert, screen


@dataclass
class _Lesson:
    """The lesson part of a record, decoded."""

    progress: LessonState
    selected: list[str] = field(default_factory=list)  # card tokens
    mode: str = "main"  # main | add | take | take:<g> | split | split:<g> | more
    notice: str = ""
    ver: int = 1
    last: dict[str, str] = field(default_factory=dict)  # the last feedback: result and key

    @classmethod
    def load(cls, record: dict[str, Any]) -> _Lesson:
        data = record["lesson"]
        ui = data.get("ui", {})
        return cls(
            LessonState.from_dict(data["progress"]),
            list(ui.get("selected", [])),
            ui.get("mode", "main"),
            ui.get("notice", ""),
            int(data.get("ver", 1)),
            dict(ui.get("last", {})),
        )

    def dump(self) -> dict[str, Any]:
        return {
            "kind": "lesson",
            "progress": self.progress.to_dict(),
            "ui": {
                "selected": self.selected,
                "mode": self.mode,
                "notice": self.notice,
                "last": self.last,
            },
            "ver": self.ver,
        }


@dataclass(frozen=True)
class _Ctx:
    """Who pressed, in which lesson row: what a screen and an outcome need."""

    actor: Any
    game_id: int

    def outcome(self, lesson: _Lesson | None = None, *, new: bool = False) -> Outcome:
        out = Outcome(
            game_id=self.game_id, platform=self.actor.platform, chat_id=self.actor.chat_id
        )
        if lesson is not None:
            out.private[self.actor.user] = lesson_screen(self.game_id, lesson)
            if new:
                out.private_new.add(self.actor.user)
        return out


Change = Callable[[_Ctx, _Lesson], tuple[Outcome, str | None]]
SIMPLE: dict[str, type[Action]] = {
    "done": Commit,
    "reset": Reset,
    "giveup": GiveUp,
    "draw": Draw,
    "pass": Pass,
    "knock": Knock,
    "next": NextRound,
    "finish": Finish,
}
UI_ONLY = ("s0", "s1", "noop", "cancel", "addm", "takem", "splm", "take", "spl", "more")


def _in_learners_language(
    method: Callable[..., Awaitable[Outcome]],
) -> Callable[..., Awaitable[Outcome]]:
    """A lesson speaks its learner's language: their /language choice, else their client's,
    else what the adapter set. The context is restored afterwards (the adapter's own words)."""

    @functools.wraps(method)
    async def speaking(self: LessonService, actor: Any, *args: Any, **kwargs: Any) -> Outcome:
        with using(await self.language(actor)):
            return await method(self, actor, *args, **kwargs)

    return speaking


# What a learner has done in a lesson: the adapters keep it and hand it back, never look inside.
Progress = LessonState


class LessonService:
    """Lessons for the chat adapters: start, button presses, typed moves; all state in the store.
    Implements the platform's `hosting.Lessons`."""

    prefix = PREFIX  # its buttons' data start with it
    verbs = VERBS  # the typed commands a lesson answers in its private chat

    def __init__(self, store: Any, *, play: PlayHandOff | None = None) -> None:
        self.store = store
        self.play = play  # [Play a real game]: (actor, rulebook) -> Outcome, by the game service
        self._locks = GameLocks()

    @staticmethod
    def unpack(data: str) -> tuple[int, int, str] | None:
        """(game id, version, action) of a lesson button's data; None if not a lesson's."""
        return unpack_lesson(data)

    async def language(self, actor: Any) -> str:
        """The learner's language, as the game service's `speak_to` finds it."""
        chosen = getattr(self.store, "language", None)
        lang = await chosen(actor.platform, actor.user) if chosen is not None else None
        return lang or getattr(actor, "lang", "") or current()

    # -- entry points ---------------------------------------------------------------------

    @_in_learners_language
    async def start(
        self, actor: Any, rulebook: str | None = None, *, progress: LessonState | None = None
    ) -> Outcome:
        """/lesson [rulebook]: resume this chat's lesson, or start one (Manipulation first).
        `progress`: start the lesson there instead (one carried over from the pure runner),
        replacing this chat's lesson."""
        if not actor.private:
            return Outcome(reply=_("Lessons happen in our private chat: send me /lesson there."))
        wanted = progress.lesson if progress is not None else rulebook
        if wanted:  # a rulebook's title in any language: /lesson רמיקוב
            wanted = key_named(wanted, TITLES) or wanted
        try:
            name = get_lesson(wanted).name if wanted else None
        except ValueError as error:
            return Outcome(reply=str(error), alert=True)
        row = await self.store.active_game(actor.platform, actor.chat_id)
        if row is not None and not is_lesson_record(row.record):
            return Outcome(
                reply=_("There is a game running in this chat: finish it first (or /endgame)."),
                alert=True,
            )
        if row is not None:
            current = row.record["lesson"]["progress"]["lesson"]
            if progress is None and (name is None or name == current):
                return await self._change(actor, row.id, _resume)
        else:  # the learner's last lesson here, stopped or finished: its row is reused
            row = await self.store.last_lesson(actor.platform, actor.chat_id)
        if row is not None and row.record.get("host") == actor.user:
            return await self._reuse(actor, row.id, name or "manipulation", progress)
        return await self._create(actor, name or "manipulation", progress)

    async def progress(self, actor: Any, game_id: int) -> LessonState | None:
        """Where this learner's lesson stands (running, finished or stopped): a terminal says
        where it stopped; None if the row is no lesson of theirs."""
        row = await self.store.get_game(game_id)
        if row is None or not is_lesson_record(row.record) or row.record.get("host") != actor.user:
            return None
        return _Lesson.load(row.record).progress

    @_in_learners_language
    async def press(self, actor: Any, data: str) -> Outcome:
        """A button from a lesson screen (`L:<game id>:<ver>:<action>`)."""
        try:
            return await self._press(actor, data)
        except Exception:  # never a traceback in chat, never a spinning button
            log.exception("lesson press %r failed", data)
            return Outcome(reply=_(SORRY), alert=True)

    async def _press(self, actor: Any, data: str) -> Outcome:
        parsed = unpack_lesson(data)
        if parsed is None:
            return Outcome(reply=_("That button is not from this bot."), alert=True)
        game_id, version, action = parsed
        if action.startswith("go:"):
            return await self._go(actor, game_id, action[3:])
        if action == "play":
            return await self._play(actor, game_id)
        head = action.partition(":")[0]
        return await self._change(
            actor,
            game_id,
            lambda ctx, les: _press(ctx, les, version, action),
            closed_ok=head in UI_ONLY,
        )

    @_in_learners_language
    async def select(
        self, actor: Any, game_id: int, version: int, picked: list[str], shown: list[str]
    ) -> Outcome:
        """A card menu changed (Discord): what it `shown` selected becomes what was `picked`,
        as one change and one save, however many cards it changed."""
        actions = [f"s0:{c}" for c in shown if c not in picked]
        actions += [f"s1:{c}" for c in picked if c not in shown]
        presses = [unpack_lesson(pack_lesson(game_id, version, a)) for a in actions]
        if len(actions) > MAX_CARD_BUTTONS or any(p is None for p in presses):
            return Outcome(reply=_("That button is not from this bot."), alert=True)

        def change(ctx: _Ctx, lesson: _Lesson) -> tuple[Outcome, str | None]:
            out = ctx.outcome(lesson)
            for action in actions:
                out, _status = _press(ctx, lesson, version, action)
            return out, None

        try:
            return await self._change(actor, game_id, change, closed_ok=True)
        except Exception:
            log.exception("lesson card menu %s failed", game_id)
            return Outcome(reply=_(SORRY), alert=True)

    @_in_learners_language
    async def command(self, actor: Any, verb: str, args: str = "") -> Outcome:
        """Typed: /lesson [rulebook], and in a lesson /lay 5H 6H 7H, /done, /skip, /quit…"""
        try:
            return await self._command(actor, verb, args)
        except Exception:
            log.exception("lesson command /%s failed", verb[:40])
            return Outcome(reply=_(SORRY), alert=True)

    async def _command(self, actor: Any, verb: str, args: str = "") -> Outcome:
        verb = verb[:64].lower().lstrip("/").split("@")[0]
        if len(args) > MAX_TYPED:
            return Outcome(
                reply=t("That's too long (at most {limit} characters).", limit=MAX_TYPED),
                alert=True,
            )
        if verb == "lesson":
            return await self.start(actor, args.strip() or None)
        game_id = await self.active(actor)
        if game_id is None:
            return Outcome(
                reply=_("No lesson is running here. Send /lesson to start one."), alert=True
            )
        if verb not in VERBS:
            return Outcome(reply=t("Unknown command /{verb} in a lesson.", verb=verb), alert=True)
        out = await self._change(
            actor, game_id, lambda ctx, les: _typed(ctx, les, verb, args.strip())
        )
        if out.private:  # a typed move scrolled the lesson up: post it again below
            out.private_new.add(actor.user)
        return out

    async def active(self, actor: Any) -> int | None:
        """The lesson running in this chat, if any (adapters route typed moves by it)."""
        row = await self.store.active_game(actor.platform, actor.chat_id)
        return row.id if row is not None and is_lesson_record(row.record) else None

    async def handles(self, actor: Any, verb: str) -> bool:
        """Should this typed command go to the lesson (rather than to a game)?"""
        verb = verb.lower().lstrip("/").split("@")[0]
        return verb == "lesson" or (verb in VERBS and await self.active(actor) is not None)

    # -- store ----------------------------------------------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks(game_id)

    async def _create(self, actor: Any, name: str, progress: LessonState | None = None) -> Outcome:
        lesson = _new_lesson(name, progress)
        record = _lesson_record(actor, name, lesson)
        try:
            row = await self.store.create_game(
                actor.platform, actor.chat_id, record, status="playing"
            )
        except GameExists:
            return Outcome(
                reply=_("There is a game running in this chat: finish it first."), alert=True
            )
        return _Ctx(actor, row.id).outcome(lesson, new=True)

    async def _reuse(
        self, actor: Any, game_id: int, name: str, progress: LessonState | None
    ) -> Outcome:
        """Start `name` in the learner's lesson row (one row per learner and chat, however
        often they switch): a higher `ver`, so the old lesson's buttons are out of date."""
        async with self._lock(game_id):
            for _try in range(5):
                row = await self.store.get_game(game_id)
                if row is None or not is_lesson_record(row.record):
                    break
                lesson = _new_lesson(name, progress)
                lesson.ver = _Lesson.load(row.record).ver + 1
                record = _lesson_record(actor, name, lesson)
                try:
                    await self.store.save_game(
                        game_id, record, expected_version=row.version, status="playing"
                    )
                except StaleGame:
                    continue
                except GameExists:
                    return Outcome(
                        reply=_("There is a game running in this chat: finish it first."),
                        alert=True,
                    )
                return _Ctx(actor, game_id).outcome(lesson, new=True)
        return await self._create(actor, name, progress)

    async def _close(self, game_id: int, status: str) -> None:
        for _try in range(5):
            row = await self.store.get_game(game_id)
            if row is None or row.status == status:
                return
            try:
                await self.store.save_game(
                    game_id, row.record, expected_version=row.version, status=status
                )
                return
            except StaleGame:
                continue

    async def _change(
        self, actor: Any, game_id: int, change: Change, *, closed_ok: bool = False
    ) -> Outcome:
        """Load, change, save with the row's version (retrying when the adapter saved its
        message ids meanwhile); `change` returns the outcome and a new row status (or None)."""
        ctx = _Ctx(actor, game_id)
        async with self._lock(game_id):
            for _try in range(5):
                row = await self.store.get_game(game_id)
                if row is None or not is_lesson_record(row.record):
                    return Outcome(
                        reply=_("That lesson no longer exists. Send /lesson."), alert=True
                    )
                if row.record.get("host") != actor.user:
                    return Outcome(reply=_("This lesson belongs to someone else."), alert=True)
                lesson = _Lesson.load(row.record)
                try:
                    if row.status not in ("lobby", "playing") and not closed_ok:
                        raise _Reply(_("This lesson is over. Send /lesson to start another."))
                    outcome, status = await asyncio.to_thread(_in_its_words, change, ctx, lesson)
                except _Reply as reply:
                    out = ctx.outcome(lesson if reply.screen else None)
                    out.reply, out.alert = reply.text, reply.alert
                    return out
                record = dict(row.record)
                record["lesson"] = lesson.dump()
                try:
                    await self.store.save_game(
                        game_id, record, expected_version=row.version, status=status
                    )
                except StaleGame:
                    continue
                return outcome
        return Outcome(reply=_("The lesson is busy — try again."), alert=True)

    # -- hand-offs --------------------------------------------------------------------------

    async def _play(self, actor: Any, game_id: int) -> Outcome:
        row = await self.store.get_game(game_id)
        if row is None or not is_lesson_record(row.record) or row.record.get("host") != actor.user:
            return Outcome(reply=_("That button is not yours."), alert=True)
        name = row.record["lesson"]["progress"]["lesson"]
        if row.status == "playing":
            await self._close(game_id, "finished")  # the chat must be free for the real game
        if self.play is None:
            return Outcome(
                reply=t(
                    "Start a real game with /newgame {rulebook} in a group chat.", rulebook=name
                )
            )
        return await self.play(actor, name)

    async def _go(self, actor: Any, game_id: int, name: str) -> Outcome:
        row = await self.store.get_game(game_id)
        if row is None or row.record.get("host") != actor.user:  # the learner's buttons only
            return Outcome(reply=_("These buttons belong to the learner."), alert=True)
        if row.status == "playing":
            await self._close(game_id, "ended")
        return await self.start(actor, name)


def _new_lesson(name: str, progress: LessonState | None) -> _Lesson:
    """Lesson `name` from its start, or from `progress` (carried over: welcome back)."""
    if progress is None:
        return _Lesson(start_lesson(name), notice=lesson_words._(get_lesson(name).intro))
    return _Lesson(progress, notice=_(WELCOME_BACK))


def _lesson_record(actor: Any, name: str, lesson: _Lesson) -> dict[str, Any]:
    return Record(
        rulebook=name,
        host=actor.user,
        seats=[SeatInfo(actor.name, actor.user)],
        lesson=lesson.dump(),
    ).to_dict()


# -- what a press or a typed command does (run in a worker thread) ----------------------------


def _in_its_words(change: Change, ctx: _Ctx, lesson: _Lesson) -> tuple[Outcome, str | None]:
    """`change`, with the runner's refusals and hints in the lesson's words (tiles or cards);
    the thread's context is a copy, so the setting ends with it."""
    _TILES.set(lesson_game(lesson.progress).rules.tiles)
    return change(ctx, lesson)


def _resume(ctx: _Ctx, lesson: _Lesson) -> tuple[Outcome, str | None]:
    lesson.notice = _(WELCOME_BACK)
    lesson.mode = "main"
    return ctx.outcome(lesson, new=True), None


def _press(ctx: _Ctx, lesson: _Lesson, version: int, action: str) -> tuple[Outcome, str | None]:
    head, _sep, arg = action.partition(":")
    if version != lesson.ver and head not in ("s0", "s1", "noop"):
        raise _Reply(
            _("That button is out of date — here is a fresh screen."), alert=False, screen=True
        )
    progress = lesson.progress
    if head in ("s0", "s1"):
        tokens = {c.token for c in _selectable(progress)}
        if arg not in tokens:
            raise _Reply(_("That card is no longer yours to place."), alert=False, screen=True)
        lesson.selected = [t for t in lesson.selected if t in tokens and t != arg]
        if head == "s1":
            lesson.selected.append(arg)
        return ctx.outcome(lesson), None
    if head == "noop":
        return ctx.outcome(lesson), None
    # A menu change bumps the version too: a button of the old menu can't act afterwards.
    if head == "cancel":
        lesson.mode = "main"
        lesson.progress = replace(progress, joker=None)
    elif head in ("addm", "takem", "splm", "more"):
        if head == "addm" and not lesson.selected:
            lesson.notice = _("Select the cards to add first (tap them).")
        else:
            lesson.mode = {"addm": "add", "takem": "take", "splm": "split", "more": "more"}[head]
    elif head in ("take", "spl"):
        lesson.mode = f"{'take' if head == 'take' else 'split'}:{int(arg)}"
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
        lesson.notice = _("Lesson stopped. Send /lesson to start again.")
        lesson.mode = "main"
        lesson.ver += 1
        out = ctx.outcome(lesson)
        out.private[ctx.actor.user].buttons = []
        out.reply, out.alert = _("Lesson stopped."), False
        return out, "ended"
    act: Action
    selected = _selected_cards(progress, lesson.selected)
    if head in ("new", "add"):
        if not selected:
            lesson.notice = _("Select cards first (tap them).")
            return ctx.outcome(lesson), None
        act = Place(LEARNER, tuple(selected), None if head == "new" else int(arg))
    elif head == "tc":
        group, _sep, token = arg.partition(":")
        act = Take(LEARNER, int(group), piece_from_token(token))
    elif head == "spa":
        group, _sep, at = arg.partition(":")
        act = Split(LEARNER, int(group), int(at))
    elif head == "jk":
        group, _sep, faces = arg.partition(":")
        act = Commit(LEARNER, None, {int(group): tuple(faces.split(","))})
    elif head in SIMPLE:
        act = SIMPLE[head](LEARNER)
    else:
        raise _Reply(_("Unknown button."), screen=True)
    return _act(ctx, lesson, [act])


def _typed(ctx: _Ctx, lesson: _Lesson, verb: str, args: str) -> tuple[Outcome, str | None]:
    progress = lesson.progress
    if verb in ("show", "hint", "skip", "quit", "restart"):
        return _press(ctx, lesson, lesson.ver, "show" if verb == "hint" else verb)
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


def _act(ctx: _Ctx, lesson: _Lesson, actions: list[Action]) -> tuple[Outcome, str | None]:
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


def _after(ctx: _Ctx, lesson: _Lesson, feedback: Feedback) -> tuple[Outcome, str | None]:
    """Update the lesson's UI state after a lesson action, and answer."""
    lesson.ver += 1
    lesson.mode = "main"
    if feedback.result != "wrong":
        lesson.selected = []
    # "Show me" stays on screen while the learner follows it; any other text replaces it.
    if feedback.text or feedback.result != "progress" or lesson.last.get("key") != "show":
        lesson.notice = feedback.text
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


def _selectable(progress: LessonState) -> list[Card]:
    """Cards the learner may select: the hand, loose table cards, and Tahiti's singles."""
    view = player_view(lesson_game(progress), LEARNER)
    loose = view.draft.loose if view.draft else []
    singles = view.draft.singles if view.draft else list(view.singles)
    return [*sorted(view.draft_hand, key=suit_order), *loose, *singles]


def _selected_cards(progress: LessonState, tokens: list[str]) -> list[Card]:
    by_token = {c.token: c for c in _selectable(progress)}
    return [by_token[t] for t in tokens if t in by_token]


def _key(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()


def lesson_screen(game_id: int, lesson: _Lesson) -> Screen:
    """The lesson message: picture (step cards outlined), step and instruction, buttons."""
    progress = lesson.progress
    step = lesson_step(progress)
    game = lesson_game(progress)
    view = player_view(game, LEARNER)
    hint_cards, hint_groups = outline(progress)
    label = (
        t("🎓 {title} — lesson complete", title=_(get_lesson(progress.lesson).title))
        if progress.finished
        else step_label(progress)
    )
    picture = private_picture(view, label, "suit", hint_cards, hint_groups)
    hand, groups, singles, loose = picture.hand, picture.groups, picture.singles, picture.loose
    tiles = game.rules.tiles  # a tile rulebook's screens say rack and tiles, as the game's do
    lines = [label]
    if not progress.finished:
        lines.append(lesson_words._(step.text))
    if lesson.notice:
        lines.append(lesson.notice)
    lines.append(t("Table: {groups}", groups=groups_text(groups, singles)))
    if loose:
        shown = " ".join(c.pretty() for c in loose)
        lines.append(
            t("Loose tiles (place before Done): {tiles}", tiles=shown)
            if tiles
            else t("Loose (place before Done): {cards}", cards=shown)
        )
    numbered = "  ".join(f"{i + 1} {c.pretty()}" for i, c in enumerate(hand)) or _("empty")
    lines.append(
        t("Rack: {tiles}", tiles=numbered) if tiles else t("Hand: {cards}", cards=numbered)
    )
    text = cut("\n".join(lines), CAPTION_UNITS)  # a photo caption's limit

    def button(label_: str, action: str) -> Button:
        return Button(label_, pack_lesson(game_id, lesson.ver, action))

    buttons = _buttons(lesson, game, groups, button)
    return Screen(
        text,
        buttons,
        _key("lesson", picture),
        lambda: render_private(picture),
        game_id,
        lesson.ver,
        detail=_detail(view, picture, hint_cards, hint_groups, tiles),
        notice=lesson.notice,
        lang=current(),
    )


def _detail(
    view: Any,
    picture: Any,
    marked: frozenset[int],
    groups_marked: frozenset[int],
    tiles: bool = False,
) -> str:
    """The position as text, one group a line: the step's cards in [brackets], its groups
    marked >, the changed ones *; the hand (a tile game's rack) numbered as typed moves count
    it (`lay 1 2 3`)."""

    def card(c: Card) -> str:
        return f"[{c.pretty()}]" if c.ident in marked else c.pretty()

    lines = []
    for i, group in enumerate(picture.groups):
        mark = "*" if i in view.changed else ">" if i in groups_marked else " "
        lines.append(f" {mark}{group_label(i):>2}  {' '.join(card(c) for c in group)}")
    if not picture.groups:
        lines.append("    " + _("(the table is empty)"))
    if picture.singles:
        lines.append("  " + t("singles: {cards}", cards=" ".join(card(c) for c in picture.singles)))
    if picture.loose:
        loose = " ".join(card(c) for c in picture.loose)
        lines.append(
            "  "
            + (
                t("loose tiles (place before Done): {tiles}", tiles=loose)
                if tiles
                else t("loose (place these before done): {cards}", cards=loose)
            )
        )
    hand = "  ".join(f"{i + 1}:{card(c)}" for i, c in enumerate(picture.hand)) or _("(empty)")
    lines.append(
        t("Your rack: {tiles}", tiles=hand) if tiles else t("Your hand: {cards}", cards=hand)
    )
    return "\n".join(lines)


def _rows(buttons: list[Button], width: int = CARDS_PER_ROW) -> list[list[Button]]:
    return [buttons[i : i + width] for i in range(0, len(buttons), width)]


def _buttons(
    lesson: _Lesson, game: Any, groups: list[list[Card]], button: Callable[[str, str], Button]
) -> list[list[Button]]:
    progress = lesson.progress
    if progress.finished:
        if lesson.mode == "more":
            return [
                *_rows([button(_(get_lesson(n).title), f"go:{n}") for n in LESSONS], 2),
                [button(_("◀ Back"), "cancel")],
            ]
        return [[button(_("▶ Play a real game"), "play"), button(_("📚 Another lesson"), "more")]]
    step = lesson_step(progress)
    tail = [
        button(_("💡 Show me"), "show"),
        button(_("⏭ Skip"), "skip"),
        button(_("✖ Quit"), "quit"),
    ]
    if progress.joker:
        g = progress.joker["group"]
        options = [
            button(
                isolate(" ".join(joker_face(f) for f in opt)),  # a tile's 7R; a card's 7♥
                f"jk:{g}:{','.join(opt)}",
            )
            for opt in progress.joker["options"]
        ]
        return [
            [button(t("Joker in {group} stands for:", group=group_label(g)), "noop")],
            *_rows(options, 4),
            [button(_("Cancel"), "cancel")],
            tail,
        ]
    legal = legal_actions(game, LEARNER)
    if game.phase == "round_over":
        row = [button(_("▶ Next round"), "next")]
        if "finish" in legal:
            row.append(button(_("■ Finish"), "finish"))
        return [row, tail]
    selected = set(lesson.selected)
    hand = {c.ident for c in game.hands[LEARNER]}
    cards = [
        button(
            ("✓" if c.token in selected else "")
            + (card_label(c) if c.ident in hand else f"({card_label(c)})"),
            f"s{0 if c.token in selected else 1}:{c.token}",
        )
        for c in _selectable(progress)[:MAX_CARD_BUTTONS]
    ]
    rows = _rows(cards)
    letters = range(len(groups))
    if lesson.mode == "add":
        rows += [
            *_rows([button(group_label(i), f"add:{i}") for i in letters]),
            [button(_("Cancel"), "cancel")],
        ]
    elif lesson.mode in ("take", "split"):
        head = "take" if lesson.mode == "take" else "spl"
        rows += [
            *_rows([button(group_label(i), f"{head}:{i}") for i in letters]),
            [button(_("Cancel"), "cancel")],
        ]
    elif lesson.mode.startswith("take:"):
        g = int(lesson.mode.split(":")[1])
        if g < len(groups):
            rows += _rows([button(card_label(c), f"tc:{g}:{c.token}") for c in groups[g]])
        rows.append([button(_("Cancel"), "cancel")])
    elif lesson.mode.startswith("split:"):
        g = int(lesson.mode.split(":")[1])
        if g < len(groups):
            rows += _rows(
                [
                    button(t("after {card}", card=c.pretty()), f"spa:{g}:{i + 1}")
                    for i, c in enumerate(groups[g][:-1])
                ],
                3,  # "после 10♠": uncut on a phone
            )
        rows.append([button(_("Cancel"), "cancel")])
    else:
        tools = {
            "new": (_("New group"), "new"),
            "add": (_("Add to ▸"), "addm"),
            "take": (_("Take from ▸"), "takem"),
            "split": (_("✂ Split ▸"), "splm"),
        }
        shown = list(step.tools)
        if groups and "add" not in shown:  # a half-built group can always be finished
            shown.insert(1, "add")
        rows += _rows([button(*tools[t]) for t in shown], 2)  # uncut on a phone
    _table, turn = action_rows(tiles=game.rules.tiles, legal=legal,
                               give_up_draw=game.rules.give_up_draw, hint=False)
    rows += [[button(b.label, b.action) for b in row] for row in turn]
    return [*rows, tail]


__all__ = [
    "PREFIX",
    "VERBS",
    "LessonService",
    "is_lesson_record",
    "lesson_screen",
    "pack_lesson",
    "unpack_lesson",
]
