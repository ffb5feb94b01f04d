"""Guided lessons of the rummy family (UX.md §5) as a variant of the hosted rummy game: the
pure runner of lessons/runner.py judges every move with the real engine; this module keeps its
progress in the hosted state and shows it as screens. The platform reaches it through the rummy
host (host.py) like any game: `service.press` -> fair use -> the unit of work (row lock or
version, idempotency keys) -> `RummyGame.press`/`typed`/`select`, which hand a lesson's to here.

A lesson is a rummy game row in the learner's private chat: `rulebook` "lesson", `options`
{"lesson": <lesson name>}, `lesson` {"form": 2} (the platform's mark: never rated, kept
`lesson_retention_days`), one seat (the learner), and the hosted state
{"progress": LessonState dict, "ver": n, "last": {result, key}}; the selection, menu and notice
are the seat's UI (record.ui). `ver` goes into the buttons; it changes whenever the lesson or its
menu does (not on card selection, which is idempotent: s1 selects, s0 deselects), so a stale
button gets a fresh screen instead of acting twice.
"""

from __future__ import annotations

import contextvars
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.core.buttons import Press
from bot.core.cut import CAPTION_UNITS, cut
from bot.core.hosting import Refusal, Table
from bot.core.record import Record
from bot.core.titles import key_named
from bot.core.views import (
    PRIMARY,
    ActionRow,
    Button,
    Choice,
    ChoiceGroup,
    HandPicker,
    Outcome,
    Part,
    Screen,
)
from bot.i18n import N_, _, current, fill, isolate, ngettext, t
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
    JOKER_MEANS,
    action_rows,
    card_label,
    group_choices,
    groups_text,
    joker_face,
    picker_menu,
    private_picture,
)
from .typed import TypedError, parse_typed
from .vocabulary import LESSON_ONLY
from .words import TITLES

KIND = "lesson"  # a lesson's variant (record.rulebook): never a rulebook's name
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


ONLY = frozenset(LESSON_ONLY)  # button verbs no real game's screen has


def is_lesson(record: Record) -> bool:
    """A lesson hosted as a rummy game (its state the lesson's progress)."""
    return record.rulebook == KIND


def lesson_options(words: str | None) -> dict[str, Any] | None:
    """The lesson `words` name in any language (`/lesson רמיקוב`) as the row's options; None
    for no words; ValueError with a sentence for a lesson we don't have."""
    if not (words or "").strip():
        return None
    wanted = key_named(str(words), TITLES) or str(words)
    return {"lesson": get_lesson(wanted).name}


class _Reply(Exception):
    """Stop and answer the learner (nothing is saved)."""

    def __init__(self, text: str, *, alert: bool = True, screen: bool = False) -> None:
        super().__init__(text)
        self.text, self.alert, self.screen = text, alert, screen


@dataclass
class _Lesson:
    """A lesson's part of the record, decoded: its hosted state and the learner's UI."""

    progress: LessonState
    selected: list[str] = field(default_factory=list)  # card tokens
    mode: str = "main"  # main | add | take | take:<g> | split | split:<g> | more
    notice: str = ""
    ver: int = 1
    last: dict[str, str] = field(default_factory=dict)  # the last feedback: result and key

    @classmethod
    def load(cls, record: Record) -> _Lesson:
        state = record.state or {}
        if "progress" not in state:
            raise Refusal(_("That lesson no longer exists. Send /lesson."))
        ui = record.seat_ui(LEARNER)
        return cls(
            LessonState.from_dict(state["progress"]),
            list(ui.selected),
            ui.mode,
            ui.notice,
            int(state.get("ver", 1)),
            dict(state.get("last", {})),
        )

    def save(self, record: Record) -> None:
        """Into the record: a new state (the core replaces it, never edits it) and the UI."""
        record.state = {"progress": self.progress.to_dict(), "ver": self.ver, "last": self.last}
        ui = record.seat_ui(LEARNER)
        ui.selected, ui.mode, ui.notice = list(self.selected), self.mode, self.notice


@dataclass(frozen=True)
class _Ctx:
    """Who pressed, in which lesson row: what a screen and an outcome need."""

    user: str
    game_id: int

    def outcome(self, lesson: _Lesson | None = None, *, new: bool = False) -> Outcome:
        out = Outcome()
        if lesson is not None:
            out.private[self.user] = lesson_screen(self.game_id, lesson)
            if new:
                out.private_new.add(self.user)
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
# what a closed lesson (stopped, or finished) still answers: its menus and its hand-offs
CLOSED_OK = ("s0", "s1", "noop", "cancel", "addm", "takem", "splm", "take", "spl", "more",
             "go", "play")


# -- what the host hands over (run in the unit of work's thread) -------------------------------


def is_closed(record: Record) -> bool:
    """Stopped (/quit, idle) or finished: only its menus and hand-offs answer."""
    state = record.state or {}
    return record.ended or bool(state.get("progress", {}).get("finished"))


def is_over(state: dict[str, Any]) -> bool:
    return bool(state.get("progress", {}).get("finished"))


def begin(table: Table, options: dict[str, Any] | None) -> Outcome:
    """Lesson `options["lesson"]` (None: the default) from its first step in this row, which
    may have held another lesson: a higher `ver`, so that lesson's buttons are out of date."""
    record = table.record
    name = (options or {}).get("lesson") or DEFAULT
    before = (record.state or {}).get("ver", 0) if record.state else 0
    record.options = {"lesson": get_lesson(name).name}
    record.ended = False
    record.log = []
    lesson = _Lesson(start_lesson(name), notice=lesson_words._(get_lesson(name).intro))
    lesson.ver = int(before) + 1
    record.ui = {}
    _TILES.set(lesson_game(lesson.progress).rules.tiles)
    lesson.save(record)
    return _Ctx(_learner(record), table.game_id).outcome(lesson, new=True)


def resume(table: Table) -> Outcome:
    """/lesson again (or with the running lesson's name): where the learner left off, anew."""
    lesson = _Lesson.load(table.record)
    lesson.notice = _(WELCOME_BACK)
    lesson.mode = "main"
    lesson.save(table.record)
    return _Ctx(_learner(table.record), table.game_id).outcome(lesson, new=True)


def press(table: Table, seat: int | None, user: str, pressed: Press) -> Outcome:
    """A button of a lesson screen (an ordinary game button: game:version:action)."""
    record = table.record
    action = pressed.action
    head = pressed.verb
    if head in ("go", "play") and seat != LEARNER:  # the learner's hand-offs only
        raise Refusal(_("These buttons belong to the learner."))
    _mine(record, seat)
    if head == "go":  # another lesson, in this row
        try:
            return begin(table, lesson_options(pressed.str()))
        except ValueError as error:  # (a forged name: the menu offers only ours)
            raise Refusal(str(error)) from None
    if head == "play":  # [Play a real game]: the platform starts it once this is saved
        if not is_over(record.state or {}):
            record.ended = True  # the chat must be free for the real game
        out = Outcome(play_next=_Lesson.load(record).progress.lesson)
        return out
    closed = is_closed(record)
    if closed and head not in CLOSED_OK:
        raise Refusal(_("This lesson is over. Send /lesson to start another."))
    return _change(table, user, lambda ctx, les: _press(ctx, les, pressed.version, action))


def typed(table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
    """Typed in the lesson's chat: /lay 5H 6H 7H, /done, /skip, /quit…"""
    _mine(table.record, seat)
    if verb not in VERBS:
        raise Refusal(t("Unknown command /{verb} in a lesson.", verb=verb))
    if is_closed(table.record):
        raise Refusal(_("This lesson is over. Send /lesson to start another."))
    out = _change(table, user, lambda ctx, les: _typed(ctx, les, verb, args.strip()))
    if out.private:  # a typed move scrolled the lesson up: post it again below (the answer)
        out.private_new.add(user)
    return out


def select(table: Table, seat: int, user: str, version: int, items: Sequence[str]) -> Outcome:
    """A card menu (Discord): exactly these cards selected, as one change."""
    _mine(table.record, seat)
    lesson = _Lesson.load(table.record)
    tokens = {c.token for c in _selectable(lesson.progress)}
    lesson.selected = [x for x in dict.fromkeys(items) if x in tokens]
    lesson.save(table.record)
    return _Ctx(user, table.game_id).outcome(lesson)


def screen(table: Table) -> Screen:
    """The learner's lesson screen as it is now."""
    lesson = _Lesson.load(table.record)
    _TILES.set(lesson_game(lesson.progress).rules.tiles)
    return lesson_screen(table.game_id, lesson)


def screens(table: Table, *, new: bool = False) -> Outcome:
    """The learner's screen as it is now, as an outcome (/table, a redelivery)."""
    user = _learner(table.record)
    out = Outcome(private={user: screen(table)})
    if new:
        out.private_new.add(user)
    return out


def _learner(record: Record) -> str:
    return record.seats[LEARNER].user or record.host


def _mine(record: Record, seat: int | None) -> None:
    if seat != LEARNER:
        raise Refusal(_("This lesson belongs to someone else."))


def _change(table: Table, user: str, change: Change) -> Outcome:
    """`change` on the decoded lesson, saved into the record; a `_Reply` changes nothing."""
    ctx = _Ctx(user, table.game_id)
    lesson = _Lesson.load(table.record)
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
        out.private[ctx.user].buttons = []
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
        return Button(label_, action)

    buttons = _buttons(lesson, game, groups, button)
    return Screen(
        text,
        buttons,
        _key("lesson", picture),
        lambda: render_private(picture),
        game_id,
        lesson.ver,
        detail=_detail(view, picture, hint_cards, hint_groups, tiles, set(lesson.selected)),
        notice=lesson.notice,
        lang=current(),
        phase="game_over" if progress.finished else "",  # a client can tell it is over
    )


def _detail(
    view: Any,
    picture: Any,
    marked: frozenset[int],
    groups_marked: frozenset[int],
    tiles: bool = False,
    selected: frozenset[str] | set[str] = frozenset(),
) -> str:
    """The position as text, one group a line: the step's cards in [brackets], its groups
    marked >, the changed ones *; the hand (a tile game's rack) numbered as typed moves count
    it (`lay 1 2 3`), a selected card ticked as its button is (✓)."""

    def card(c: Card) -> str:
        name = c.marked()  # no picture beside it: a tile's colour mark (7🟥), as the log
        face = f"[{name}]" if c.ident in marked else name
        return "✓" + face if c.token in selected else face

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


CHOOSE = N_("Choose…")


def _buttons(
    lesson: _Lesson, game: Any, groups: list[list[Card]], button: Callable[[str, str], Button]
) -> list[Part]:
    """What a lesson's screen offers, by meaning (bot/core/views.py): its hand picker, the
    question of the moment (which group, which card, where to split, the joker's meaning, the
    next lesson) and its actions; each adapter lays them out."""
    progress = lesson.progress
    if progress.finished:
        if lesson.mode == "more":
            return [
                ChoiceGroup(_(CHOOSE), [Choice(_(get_lesson(n).title), f"go:{n}")
                                        for n in LESSONS], 2),
                ActionRow([button(_("◀ Back"), "cancel")]),
            ]
        return [ActionRow([Button(_("▶ Play a real game"), "play", PRIMARY),
                           button(_("📚 Another lesson"), "more")])]
    step = lesson_step(progress)
    tail = ActionRow([
        button(_("💡 Show me"), "show"),
        button(_("⏭ Skip"), "skip"),
        button(_("✖ Quit"), "quit"),
    ])
    cancel = ActionRow([button(_("Cancel"), "cancel")])
    if progress.joker:
        g = progress.joker["group"]
        options = [
            Choice(
                isolate(" ".join(joker_face(f) for f in opt)),  # a tile's 7R; a card's 7♥
                f"jk:{g}:{','.join(opt)}",
            )
            for opt in progress.joker["options"]
        ]
        return [
            ChoiceGroup(_(JOKER_MEANS), options, 4,
                        heading=t("Joker in {group} stands for:", group=group_label(g))),
            cancel,
            tail,
        ]
    legal = legal_actions(game, LEARNER)
    if game.phase == "round_over":
        row = [Button(_("▶ Next round"), "next", PRIMARY)]
        if "finish" in legal:
            row.append(button(_("■ Finish"), "finish"))
        return [ActionRow(row), tail]
    selected = set(lesson.selected)
    hand = {c.ident for c in game.hands[LEARNER]}
    pieces = [
        Choice(
            card_label(c) if c.ident in hand else f"({card_label(c)})",
            f"s{0 if c.token in selected else 1}:{c.token}",
            c.token in selected,
            c.token,
        )
        for c in _selectable(progress)[:MAX_CARD_BUTTONS]
    ]
    parts: list[Part] = [HandPicker(pieces, per_row=CARDS_PER_ROW,
                                    rows=-(-MAX_CARD_BUTTONS // CARDS_PER_ROW),
                                    menu=picker_menu(game.rules.tiles))]
    asked = group_choices(lesson.mode, groups, cancel)
    if asked is not None:
        parts += asked
    elif lesson.mode == "split":
        parts += [ChoiceGroup(_(CHOOSE), [Choice(group_label(i), f"spl:{i}")
                                          for i in range(len(groups))], CARDS_PER_ROW), cancel]
    elif lesson.mode.startswith("split:"):
        g = int(lesson.mode.split(":")[1])
        if g < len(groups):
            parts.append(ChoiceGroup(
                _(CHOOSE),
                [Choice(t("after {card}", card=c.pretty()), f"spa:{g}:{i + 1}")
                 for i, c in enumerate(groups[g][:-1])],
                3,  # "после 10♠": uncut on a phone
            ))
        parts.append(cancel)
    else:
        tools = {
            "new": Button(_("New group"), "new", PRIMARY),
            "add": Button(_("Add to ▸"), "addm"),
            "take": Button(_("Take from ▸"), "takem"),
            "split": Button(_("✂ Split ▸"), "splm"),
        }
        shown = list(step.tools)
        if groups and "add" not in shown:  # a half-built group can always be finished
            shown.insert(1, "add")
        parts.append(ActionRow([tools[t] for t in shown], 2))  # uncut on a phone
    _table, turn = action_rows(tiles=game.rules.tiles, legal=legal,
                               give_up_draw=game.rules.give_up_draw, hint=False)
    parts += [ActionRow(row) for row in turn]
    return [*parts, tail]


__all__ = [
    "KIND", "MARK", "VERBS", "begin", "is_lesson", "lesson_options", "lesson_screen", "press",
    "resume", "screen", "select", "typed",
]
