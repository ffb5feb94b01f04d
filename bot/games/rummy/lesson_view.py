"""A rummy lesson row as its variant reads it, and its one screen: the hosted state and the
learner's UI decoded (`LessonSeat`), and the step's picture, words and buttons by meaning — each
adapter lays them out (bot/core/views.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core.cut import CAPTION_UNITS, cut
from bot.core.hosting import Refusal
from bot.core.record import Record, SeatUI
from bot.core.views import (
    PRIMARY,
    ActionRow,
    Button,
    Choice,
    ChoiceGroup,
    HandPicker,
    Part,
    Screen,
)
from bot.i18n import N_, _, current, isolate, t
from engine.cards import Card
from engine.rummy import group_label, legal_actions, player_view
from render.rummy import render_private

from .lessons import (
    LEARNER,
    LESSONS,
    LessonState,
    get_lesson,
    lesson_game,
    lesson_step,
    outline,
    step_label,
)
from .lessons import words as lesson_words
from .screens import (
    JOKER_MEANS,
    action_rows,
    card_label,
    group_choices,
    groups_text,
    joker_face,
    picker_menu,
    placeable,
    private_picture,
)

CARDS_PER_ROW = 8
MAX_CARD_BUTTONS = 24


@dataclass
class LessonSeat:
    """A lesson's part of the record, decoded: its hosted state, and the learner's UI — the
    record's own (selection, menu, notice), as a game's seat has it."""

    progress: LessonState
    ui: SeatUI = field(default_factory=SeatUI)  # mode: main | add | take[:<g>] | split[:<g>] | more
    ver: int = 1
    last: dict[str, str] = field(default_factory=dict)  # the last feedback: result and key

    @classmethod
    def load(cls, record: Record) -> LessonSeat:
        state = record.state or {}
        if "progress" not in state:
            raise Refusal(_("That lesson no longer exists. Send /lesson."))
        return cls(LessonState.from_dict(state["progress"]), record.seat_ui(LEARNER),
                   int(state.get("ver", 1)), dict(state.get("last", {})))

    def save(self, record: Record) -> None:
        """Into the record: a new state (the core replaces it, never edits it); the UI is the
        record's already."""
        record.state = {"progress": self.progress.to_dict(), "ver": self.ver, "last": self.last}


def selectable(progress: LessonState) -> list[Card]:
    """Cards the learner may select, as the game's screen has them: the hand (by suit), loose
    table cards, and Tahiti's singles."""
    return placeable(player_view(lesson_game(progress), LEARNER), "suit")


def _key(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()


def lesson_screen(game_id: int, lesson: LessonSeat) -> Screen:
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
    if lesson.ui.notice:
        lines.append(lesson.ui.notice)
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
        detail=_detail(view, picture, hint_cards, hint_groups, tiles, set(lesson.ui.selected)),
        notice=lesson.ui.notice,
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
    lesson: LessonSeat, game: Any, groups: list[list[Card]], button: Callable[[str, str], Button]
) -> list[Part]:
    """What a lesson's screen offers, by meaning (bot/core/views.py): its hand picker, the
    question of the moment (which group, which card, where to split, the joker's meaning, the
    next lesson) and its actions; each adapter lays them out."""
    progress = lesson.progress
    if progress.finished:
        return _finished_parts(lesson, button)
    step = lesson_step(progress)
    tail = ActionRow([
        button(_("💡 Show me"), "show"),
        button(_("⏭ Skip"), "skip"),
        button(_("✖ Quit"), "quit"),
    ])
    cancel = ActionRow([button(_("Cancel"), "cancel")])
    if progress.joker:
        return [*_joker_parts(progress.joker, cancel), tail]
    legal = legal_actions(game, LEARNER)
    if game.phase == "round_over":
        row = [Button(_("▶ Next round"), "next", PRIMARY)]
        if "finish" in legal:
            row.append(button(_("■ Finish"), "finish"))
        return [ActionRow(row), tail]
    selected = set(lesson.ui.selected)
    hand = {c.ident for c in game.hands[LEARNER]}
    pieces = [
        Choice(
            card_label(c) if c.ident in hand else f"({card_label(c)})",
            f"s{0 if c.token in selected else 1}:{c.token}",
            c.token in selected,
            c.token,
        )
        for c in selectable(progress)[:MAX_CARD_BUTTONS]
    ]
    parts: list[Part] = [HandPicker(pieces, per_row=CARDS_PER_ROW,
                                    rows=-(-MAX_CARD_BUTTONS // CARDS_PER_ROW),
                                    menu=picker_menu(game.rules.tiles))]
    parts += _mode_parts(lesson.ui.mode, groups, step, cancel)
    _table, turn = action_rows(tiles=game.rules.tiles, legal=legal,
                               give_up_draw=game.rules.give_up_draw, hint=False)
    parts += [ActionRow(row) for row in turn]
    return [*parts, tail]


def _finished_parts(lesson: LessonSeat, button: Callable[[str, str], Button]) -> list[Part]:
    """A finished lesson: a real game, or another lesson (its menu)."""
    if lesson.ui.mode == "more":
        return [
            ChoiceGroup(_(CHOOSE), [Choice(_(get_lesson(n).title), f"go:{n}")
                                    for n in LESSONS], 2),
            ActionRow([button(_("◀ Back"), "cancel")]),
        ]
    return [ActionRow([Button(_("▶ Play a real game"), "play", PRIMARY),
                       button(_("📚 Another lesson"), "more")])]


def _joker_parts(joker: dict[str, Any], cancel: ActionRow) -> list[Part]:
    """What the joker just placed stands for (its options)."""
    g = joker["group"]
    options = [
        Choice(
            isolate(" ".join(joker_face(f) for f in opt)),  # a tile's 7R; a card's 7♥
            f"jk:{g}:{','.join(opt)}",
        )
        for opt in joker["options"]
    ]
    return [ChoiceGroup(_(JOKER_MEANS), options, 4,
                        heading=t("Joker in {group} stands for:", group=group_label(g))),
            cancel]


def _mode_parts(mode: str, groups: list[list[Card]], step: Any, cancel: ActionRow
                ) -> list[Part]:
    """The question of the moment (which group, where to split) or the step's draft tools."""
    asked = group_choices(mode, groups, cancel)
    if asked is not None:
        return list(asked)
    if mode == "split":
        return [ChoiceGroup(_(CHOOSE), [Choice(group_label(i), f"spl:{i}")
                                        for i in range(len(groups))], CARDS_PER_ROW), cancel]
    if mode.startswith("split:"):
        g = int(mode.split(":")[1])
        parts: list[Part] = []
        if g < len(groups):
            parts.append(ChoiceGroup(
                _(CHOOSE),
                [Choice(t("after {card}", card=c.pretty()), f"spa:{g}:{i + 1}")
                 for i, c in enumerate(groups[g][:-1])],
                3,  # "после 10♠": uncut on a phone
            ))
        return [*parts, cancel]
    tools = {
        "new": Button(_("New group"), "new", PRIMARY),
        "add": Button(_("Add to ▸"), "addm"),
        "take": Button(_("Take from ▸"), "takem"),
        "split": Button(_("✂ Split ▸"), "splm"),
    }
    shown = list(step.tools)
    if groups and "add" not in shown:  # a half-built group can always be finished
        shown.insert(1, "add")
    return [ActionRow([tools[t] for t in shown], 2)]  # uncut on a phone
