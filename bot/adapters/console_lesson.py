"""`rummy lesson`: a guided lesson in the terminal, on the pure runner of lessons/runner.py.

Reads lines and writes text through the functions it is given, so tests can drive it. Moves are
typed as in the private chat (`lay 5H 6H 7H`, `add A 8H`, `split A 3`, `done`…); cards the step
outlines are shown in [brackets].
"""

from __future__ import annotations

from collections.abc import Callable

from bot.core.typed import TypedError, parse_typed
from engine import Finish, NextRound, group_label, player_view
from engine.actions import Action
from engine.cards import Card, suit_order
from lessons import (
    LEARNER,
    LessonState,
    choose_joker,
    get_lesson,
    lesson_act,
    lesson_game,
    lesson_step,
    outline,
    show,
    skip_step,
    start_lesson,
    step_label,
)

HELP = """Type moves as in the game (cards like 7H 10S QD, * for a joker; or hand numbers 1 2 3):
  lay 5H 6H 7H   new group        add A 8H    add to group A     take A 5S   take a card out
  split A 3      split group A after its 3rd card                 move A:5S B  move a card
  done · reset · draw · pass · knock · giveup · next · finish · choose 9C (a joker's card)
  show   explain this step        skip   do it for me            quit   stop the lesson"""


def run_lesson(
    rulebook: str = "manipulation",
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    *,
    progress: LessonState | None = None,
) -> LessonState:
    """Run a lesson to its end (or until `quit` / end of input); returns the progress."""
    lesson = get_lesson(rulebook)
    state = progress or start_lesson(lesson.name)
    write(f"Rummy Table — {lesson.title} lesson. {lesson.intro}")
    write("Type 'help' for the commands.")
    shown_step = -1
    while not state.finished:
        if state.step != shown_step:
            shown_step = state.step
            write("")
            write(step_label(state))
            write(lesson_step(state).text)
        _show_position(state, write)
        try:
            line = read("> ").strip()
        except EOFError:
            return state
        if not line:
            continue
        verb, _, rest = line.partition(" ")
        verb = verb.lower().lstrip("/")
        if verb in ("quit", "exit", "q"):
            write(f"Bye — 'rummy lesson --rulebook {lesson.name}' starts it again.")
            return state
        if verb in ("help", "h", "?"):
            write(HELP)
            continue
        state = _step(state, verb, rest.strip(), write)
    write(f"Play a real game: rummy play --rulebook {lesson.name}")
    return state


def _step(state: LessonState, verb: str, rest: str, write: Callable[[str], None]) -> LessonState:
    if verb in ("show", "hint"):
        state, feedback = show(state)
        write(feedback.text)
        return state
    if verb == "skip":
        state, feedback = skip_step(state)
        write(feedback.text)
        return state
    try:
        actions = _actions(state, verb, rest)
    except (TypedError, ValueError) as error:
        write(f"✗ {error}")
        return state
    for action in actions:
        state, feedback = lesson_act(state, action)
        if feedback.text:
            write(feedback.text)
        if feedback.result == "choose" and state.joker:
            options = " or ".join(" ".join(o) for o in state.joker["options"])
            write(f"Type: choose {options}")
        if feedback.result != "progress":
            break
    return state


def _actions(state: LessonState, verb: str, rest: str) -> list[Action]:
    if verb in ("next", "finish"):
        return [NextRound(LEARNER) if verb == "next" else Finish(LEARNER)]
    if verb in ("choose", "joker"):
        return [choose_joker(state, rest)]
    hand = sorted(player_view(lesson_game(state), LEARNER).draft_hand, key=suit_order)
    return parse_typed(LEARNER, verb, rest, hand)


def _show_position(state: LessonState, write: Callable[[str], None]) -> None:
    game = lesson_game(state)
    view = player_view(game, LEARNER)
    marked, groups_marked = outline(state)

    def card(c: Card) -> str:
        return f"[{c.pretty()}]" if c.ident in marked else c.pretty()

    draft = view.draft
    groups = draft.groups if draft is not None else [list(g) for g in view.table]
    singles = draft.singles if draft is not None else list(view.singles)
    loose = draft.loose if draft is not None else []
    lines = []
    for i, group in enumerate(groups):
        mark = "*" if i in view.changed else ">" if i in groups_marked else " "
        lines.append(f" {mark}{group_label(i):>2}  {' '.join(card(c) for c in group)}")
    if not groups:
        lines.append("    (the table is empty)")
    if singles:
        lines.append("  singles: " + " ".join(card(c) for c in singles))
    if loose:
        lines.append("  loose (place these before done): " + " ".join(card(c) for c in loose))
    hand = sorted(view.draft_hand, key=suit_order)
    lines.append(
        "Your hand: " + ("  ".join(f"{i + 1}:{card(c)}" for i, c in enumerate(hand)) or "(empty)")
    )
    if game.phase == "play":
        names = {"commit": "done", "give_up": "giveup"}
        actions = [
            names.get(a, a)
            for a in view.legal
            if a in ("commit", "draw", "pass", "knock", "give_up", "reset")
        ]
    else:
        actions = ["next", "finish"] if "finish" in view.legal else ["next"]
    lines.append("Actions: " + " · ".join(actions) + " · show · skip · help · quit")
    write("\n".join(lines))
