"""Guided lessons in the real game (RULES.md §3 "Learn while playing"; UX.md §5). Pure: no I/O.

A lesson is a list of steps (lessons/content/). Each step deals a position with
`deal_scenario` (or goes on from the previous step's game) and names a goal. The learner's actions
go through the real engine: an illegal one is answered with the engine's reason plus a nudge
keyed by what went wrong (the refusal's code, sorted by `REASON_KEYS`); a legal one that misses
the goal is taken back and explained; draft edits, reminders and hints are progress; meeting the
goal advances to the next step, optionally after the computer seats reply. `LessonState` is
JSON-safe, so progress survives a restart.

    state = start_lesson("manipulation")
    state, feedback = lesson_act(state, Place(0, tuple(parse_cards("5H 6H 7H")), None))
    state, feedback = lesson_act(state, Commit(0))        # feedback.correct -> next step
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from engine.cards import Card
from engine.rummy import draft as drafts
from engine.rummy.actions import (
    TYPED_WORDS,
    Action,
    Commit,
    Finish,
    IllegalAction,
    JokerChoiceNeeded,
    Move,
    Place,
    Reset,
    Split,
    Take,
)
from engine.rummy.ai import choose_action
from engine.rummy.game import Event, apply, player_view
from engine.rummy.moves import group_index
from engine.rummy.rulebooks import Rulebook, get_rulebook
from engine.rummy.scenario import deal_scenario
from engine.rummy.state import GameState
from engine.rummy.tiles import parse_cards_or_tiles as parse_cards  # a Rummikub lesson's: tiles
from engine.rummy.tiles import piece_from_token

from . import tile_words, words
from .content import LESSONS
from .model import Goal, Lesson, Position, Step
from .words import N_, _, t, tn

LEARNER = 0
MAX_COMPUTER_ACTIONS = 40  # a computer turn is a few actions; this only guards against a loop

Ident = tuple[int, str, int]


@dataclass
class LessonState:
    """Progress through one lesson: JSON-safe (`to_dict` / `from_dict`)."""

    lesson: str
    step: int
    game: dict[str, Any]  # GameState.to_dict() of the step's game
    attempts: int = 0  # wrong tries on this step
    mistakes: int = 0  # wrong tries over the whole lesson
    skipped: list[int] = field(default_factory=list)
    joker: dict[str, Any] | None = None  # Done is waiting: {"group": i, "options": [[face…]…]}
    shown: bool = False  # "Show me" was pressed on this step
    finished: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LessonState:
        return cls(**data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> LessonState:
        return cls.from_dict(json.loads(text))


Result = Literal["correct", "wrong", "progress", "choose", "skipped", "finished"]


@dataclass(frozen=True)
class Feedback:
    """What the lesson says about one action. `key` names what happened or went wrong."""

    result: Result
    text: str
    key: str = ""
    reason: str = ""  # the engine's own sentence, for an illegal action

    @property
    def correct(self) -> bool:
        return self.result in ("correct", "skipped")


# -- lessons, steps, positions ---------------------------------------------------------------


def get_lesson(name: str) -> Lesson:
    key = str(name).strip().lower()
    if key not in LESSONS:
        raise ValueError(
            t("Unknown lesson {name}. Lessons: {names}.", name=repr(name), names=", ".join(LESSONS))
        )
    return LESSONS[key]


def build_position(position: Position) -> GameState:
    """The step's game: a scripted deal, then any moves already made (`setup`)."""
    rules = get_rulebook(position.rulebook, **position.options)
    game = deal_scenario(
        rules,
        list(position.hands),
        table=list(position.table),
        singles=position.singles,
        stock_top=position.stock_top,
        turn=position.turn,
        seed=position.seed,
        first_lay_done=position.first_lay_done,
    )
    if position.empty_stock:  # cards are conserved: the rest of the stock goes to a computer
        game.hands[1] += game.stock
        game.stock = []
    for move in position.setup:
        game, _events = apply(game, parse_move(move))
    return game


def start_lesson(name: str) -> LessonState:
    lesson = get_lesson(name)
    first = lesson.steps[0]
    if first.position is None:
        raise ValueError(f"The first step of {lesson.title} needs a position")
    return LessonState(lesson.name, 0, build_position(first.position).to_dict())


def lesson_step(state: LessonState) -> Step:
    return get_lesson(state.lesson).steps[state.step]


def lesson_game(state: LessonState) -> GameState:
    return GameState.from_dict(state.game)


def step_label(state: LessonState) -> str:
    """`Lesson 1/12 · Sets and runs`."""
    lesson = get_lesson(state.lesson)
    return t(
        "Lesson {n}/{total} · {title}",
        n=state.step + 1,
        total=len(lesson.steps),
        title=_(lesson_step(state).title),
    )


# -- the demo notation (the same words as typed moves) -----------------------------------------

_SIMPLE: dict[str, type[Action]] = TYPED_WORDS


def parse_move(text: str, seat: int = LEARNER) -> Action:
    """`lay 5H 6H 7H`, `add A 8H`, `take A 5S`, `move A:5S B`, `split A 3`, `choose A 9C`,
    `done`, `reset`, `draw`, `pass`, `knock`, `giveup`, `hint`, `next`, `finish`."""
    verb, _sep, rest = text.strip().partition(" ")
    verb, rest = verb.lower(), rest.strip()
    if verb in _SIMPLE:
        return _SIMPLE[verb](seat)
    label, _sep, tail = rest.partition(" ")
    if verb == "lay":
        return Place(seat, tuple(parse_cards(rest)), None)
    if verb == "add":
        return Place(seat, tuple(parse_cards(tail)), group_index(label))
    if verb == "take":
        return Take(seat, group_index(label), parse_cards(tail)[0])
    if verb == "split":
        return Split(seat, group_index(label), int(tail))
    if verb == "choose":
        return Commit(seat, None, {group_index(label): tuple(tail.upper().split())})
    if verb == "move":
        source, _sep, cards = label.partition(":")
        target = None if tail.lower() == "new" else group_index(tail)
        return Move(seat, tuple(parse_cards(cards)), group_index(source), target)
    raise ValueError(f"Unknown move {text!r}")


def choose_joker(state: LessonState, text: str) -> Commit:
    """Done with the waiting joker's card: `9C` (or `A 9C`, naming its group as in demos)."""
    if not state.joker:
        raise ValueError(_("No joker is waiting for a choice."))
    faces = tuple(t for t in text.upper().replace(",", " ").split() if len(t) > 1)
    return Commit(LEARNER, None, {state.joker["group"]: faces})


def _pretty_faces(text: str) -> str:
    return " ".join(c.pretty() for c in parse_cards(text))


# The buttons a demo presses, as the screens label them (bot/games/rummy/lesson_host.py).
BUTTONS: dict[str, str] = {
    "done": N_("✔ Done"),
    "reset": N_("↺ Reset"),
    "draw": N_("Draw"),
    "pass": N_("Pass"),
    "knock": N_("✊ Knock"),
    "giveup": N_("Give up (+3)"),
    "next": N_("▶ Next round"),
    "finish": N_("■ Finish"),
}


def _button(verb: str, rules: Rulebook | None) -> str:
    """A demo's button as the screen labels it: a tile game's Draw a tile and Give up (+1)."""
    if rules is not None and rules.tiles and verb in tile_words.TILE_BUTTONS:
        return _(tile_words.TILE_BUTTONS[verb])
    if rules is not None and verb == "giveup" and rules.give_up_draw == 1:
        return _(tile_words.GIVE_UP_ONE)
    return _(BUTTONS[verb]) if verb in BUTTONS else verb


def demo_text(step: Step, rules: Rulebook | None = None) -> str:
    """The demo as button presses: `select 5♥ 6♥ 7♥ → New group → ✔ Done` (`rules`: the
    lesson's, whose tile game says tiles)."""
    tiles = rules is not None and rules.tiles
    out = []
    for line in step.demo:
        verb, _sep, rest = line.partition(" ")
        label, _sep, tail = rest.partition(" ")
        match verb:
            case "lay":
                out.append(t("select {cards} → New group", cards=_pretty_faces(rest)))
            case "add":
                out.append(
                    t("select {cards} → Add to ▸ {group}", cards=_pretty_faces(tail), group=label)
                )
            case "take":
                out.append(t("Take from ▸ {group} ▸ {card}", group=label, card=_pretty_faces(tail)))
            case "split":
                out.append(t(tile_words.SPLIT_AFTER_TILE if tiles
                             else "✂ Split ▸ {group} after card {n}", group=label, n=tail))
            case "choose":
                out.append(t("the joker is {card}", card=_pretty_faces(tail)))
            case "move":
                out.append(t("move {what}", what=rest))
            case _:
                out.append(_button(verb, rules))
    return _(" → ").join(out)  # (Hebrew points the other way: ←)


def show_me(state: LessonState) -> str:
    """What "Show me" says: the step's own words, then the moves that do it."""
    step = lesson_step(state)
    parts = [_(step.show)] if step.show else []
    if step.demo:
        parts.append(t("Do this: {moves}.", moves=demo_text(step, lesson_game(state).rules)))
        parts.append(t("Or type: {moves}", moves=" · ".join("/" + d for d in step.demo)))
    return "\n".join(parts)


def outline(
    state: LessonState, *, shown: bool | None = None
) -> tuple[frozenset[Ident], frozenset[int]]:
    """(card idents, group indices) to outline on the picture: the step's cards, the engine's
    must-lay reminder or hint, and — once "Show me" was pressed — the step's groups."""
    step = lesson_step(state)
    game = lesson_game(state)
    view = player_view(game, LEARNER)
    groups = view.draft.groups if view.draft else [list(g) for g in view.table]
    loose = view.draft.loose if view.draft else []
    singles = view.draft.singles if view.draft else list(view.singles)
    pool = [*view.draft_hand, *loose, *singles, *(c for g in groups for c in g)]
    cards: set[Ident] = set()
    for wanted in parse_cards(step.outline) if step.outline else []:
        for card in pool:
            if card.ident in cards:
                continue
            if (wanted.is_joker and card.is_joker) or (
                not card.is_joker and card.face == wanted.face
            ):
                cards.add(card.ident)
                break
    marked: set[int] = set()
    if view.hint:
        cards.add(piece_from_token(view.hint["card"]).ident)
        marked |= set(view.hint.get("groups", []))
    if state.shown if shown is None else shown:
        marked |= {g for g in step.outline_groups if g < len(groups)}
    return frozenset(cards), frozenset(marked)


# -- judging ---------------------------------------------------------------------------------

# The engine's refusals (IllegalAction.code, engine/rummy/reasons.py), sorted into what went wrong;
# a code not named here is "illegal" (the engine's sentence alone, no nudge).
REASON_KEYS: dict[str, str] = {
    "group_too_small": "too_few",
    "group_invalid_with_ace": "ace",
    "group_invalid": "not_meld",
    "table_card_to_hand": "back_to_hand",
    "nothing_added": "nothing_added",
    "loose_cards": "loose",
    "first_lay_run3": "first_lay",
    "joker_keeps_card": "joker_keep",
    "joker_immobile": "joker_immobile",
    "group_locked": "locked",
    "locked_group_took_table_card": "locked",
    "group_two_jokers": "two_jokers",
    "knock_limit": "knock_limit",
    "no_knocking": "knock",
    "knock_after_draw": "knock",
    "knock_in_final_turns": "knock",
    "draw_first": "draw_first",
    "pass_needs_empty_stock": "pass_stock",
    "stock_empty": "stock_empty",
    "final_turns_no_draw": "stock_empty",
    "give_up_first": "give_up_first",
    "reset_is_give_up": "reset_is_give_up",
    "nothing_to_give_up": "nothing_to_give_up",
    "no_give_up": "no_give_up",
    "no_such_group": "no_group",
    "split_out_of_range": "split",
    "card_not_in_hand": "no_card",
    "no_such_card": "no_card",
    "card_not_available": "no_card",
    "nothing_selected": "no_card",
    "take_needs_card": "no_card",
    "move_needs_cards": "no_card",
    "not_your_turn": "turn",
}

_ACE_NUDGES = {
    "high": N_("The ace is high only here: Q-K-A is a run, A-2-3 is not."),
    "low": N_("The ace is low only here: A-2-3 is a run, Q-K-A is not."),
    "either": N_("An ace goes at one end of a run — high or low, never both, never in the middle."),
    "ends": N_("An ace goes at one end of a run — A-2-3 or Q-K-A — never in the middle."),
}

DEFAULT_NUDGES: dict[str, str] = {
    "too_few": N_("A set or a run needs at least 3 cards."),
    "not_meld": N_(
        "Every group must be a set (3–4 cards of one rank, all different suits) or a "
        "run (3 or more cards of one suit in order)."
    ),
    "back_to_hand": N_("A card on the table never goes back into a hand: put it into a group."),
    "nothing_added": N_("Every lay adds at least one card from your hand."),
    "loose": N_("Cards you took out of a group must go into a group before Done."),
    "first_lay": N_("Your first lay needs a run of three cards of one suit from your hand."),
    "joker_keep": N_("A joker keeps its card until the real card is on the table."),
    "joker_immobile": N_("This joker stays beside its cards until the real card is on the table."),
    "locked": N_("A group with a joker only takes cards from your hand."),
    "two_jokers": N_("A group may hold only one joker."),
    "knock_limit": N_("You may knock only when your hand would be worth 5 points or fewer."),
    "draw_first": N_("Every turn starts with a draw."),
    "stock_empty": N_("The stock is empty: pass instead."),
    "pass_stock": N_("You pass only when the stock is empty."),
    "give_up_first": N_("Finish the move with Done, or Give up (+3)."),
    "reset_is_give_up": N_("Once the table changed, Reset has become Give up (+3)."),
    "no_card": N_("Check the cards in your hand and the group letters on the picture."),
    "no_group": N_("The groups are labelled A, B, C… on the picture."),
    "legal_other": N_("Read the step again, or tap 💡 Show me."),
    "drew": N_("You don't need to draw in this step."),
    "passed": N_("You don't need to pass in this step."),
    "gave_up": N_("You don't need to give up in this step."),
    "unchanged": N_("Change your copy first; Reset then puts it back."),
}

_MISS_LEADS = {
    "legal_other": N_("That move is legal, but it isn't what this step asks."),
    "drew": N_("That drew a card."),
    "passed": N_("That passed your turn."),
    "gave_up": N_("That gave up the move."),
    "unchanged": N_("There is nothing to put back yet."),
}


_TAKEN_BACK = frozenset({"legal_other", "drew", "passed", "gave_up"})


def classify(error: IllegalAction | str) -> str:
    """What went wrong (`"too_few"`, `"ace"`, …) for an engine refusal or its code (sorted by
    `IllegalAction.code`, never by its words), or `"illegal"`."""
    code = error.code if isinstance(error, IllegalAction) else error
    return REASON_KEYS.get(code, "illegal")


def _faces(text: str) -> Counter[str]:
    return Counter(c.face for c in parse_cards(text)) if text else Counter()


def _group_faces(group: Iterable[Card]) -> Counter[str]:
    return Counter("*" if c.is_joker else c.face for c in group)


def _goal_met(
    goal: Goal, before: GameState, after: GameState, action: Action, events: list[Event]
) -> bool:
    kinds = {e.kind for e in events}
    laid = next((e for e in events if e.kind == "laid" and e.seat == LEARNER), None)
    if goal.kind == "lay":
        return laid is not None and _lay_ok(goal, after, laid)
    if goal.kind == "knock":
        return "knocked" in kinds and (laid is None or _lay_ok(goal, after, laid))
    if goal.kind == "draw":
        return "drew" in kinds and laid is None
    if goal.kind == "reset":
        return isinstance(action, Reset) and drafts.draft_differs(before)
    if goal.kind == "turn_over":
        return after.phase != "play" or after.turn != LEARNER
    if goal.kind == "finish":
        return isinstance(action, Finish) and "game_over" in kinds
    return {"pass": "passed", "give_up": "gave_up"}[goal.kind] in kinds


def _lay_ok(goal: Goal, after: GameState, laid: Event) -> bool:
    placed = Counter(piece_from_token(t).face for t in laid.data["placed"])  # from the hand
    if goal.places and _faces(goal.places) - placed:
        return False
    if goal.places_any and not any(placed[f] for f in _faces(goal.places_any)):
        return False
    tables = [_group_faces(g) for g in after.table]
    if goal.group and _faces(goal.group) not in tables:
        return False
    if goal.contains and not any(not (_faces(goal.contains) - t) for t in tables):
        return False
    if goal.rearranged is not None and bool(laid.data.get("rearranged")) != goal.rearranged:
        return False
    return not goal.out or not after.hands[LEARNER]


def _judge(
    step: Step, before: GameState, after: GameState, action: Action, events: list[Event]
) -> tuple[str, str]:
    """("met" | "miss" | "progress", key)."""
    if _goal_met(step.goal, before, after, action, events):
        return "met", "met"
    kinds = [e.kind for e in events]
    for kind in ("reminder", "hint", "give_up_confirm"):
        if kind in kinds:
            return "progress", kind
    if isinstance(action, Reset):
        return ("miss", "unchanged") if step.goal.kind == "reset" else ("progress", "reset")
    if "draft" in kinds:
        return "progress", "draft"
    for kind, key in (
        ("laid", "legal_other"),
        ("knocked", "legal_other"),
        ("round_started", "legal_other"),
        ("game_over", "legal_other"),
        ("gave_up", "gave_up"),
        ("passed", "passed"),
        ("drew", "drew"),
    ):
        if kind in kinds:
            return ("progress", key) if key in step.allow else ("miss", key)
    return "progress", ""


def _nudge(step: Step, key: str, rules: Rulebook) -> str:
    if key in step.nudges:
        return _(step.nudges[key])
    if key == "ace":
        return _(_ACE_NUDGES[rules.ace])
    if rules.tiles and key in tile_words.TILE_NUDGES:
        return _(tile_words.TILE_NUDGES[key])
    return _(DEFAULT_NUDGES.get(key, ""))


def _miss_lead(key: str, rules: Rulebook) -> str:
    if rules.tiles and key in tile_words.TILE_MISS_LEADS:
        return _(tile_words.TILE_MISS_LEADS[key])
    return _(_MISS_LEADS.get(key, ""))


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text[-1] in ".!?:" else text + "."


def _wrong(state: LessonState, step: Step, key: str, reason: str) -> tuple[LessonState, Feedback]:
    rules = get_rulebook(state.game["rulebook"])
    lead = _sentence(reason) if reason else _miss_lead(key, rules)
    if not reason and key in _TAKEN_BACK:  # a legal move that missed the goal is undone
        lead += " " + _("It was taken back.")
    lines = ["✗ " + lead, _nudge(step, key, rules)]
    if state.attempts + 1 >= 2:
        lines.append(_("Tap 💡 Show me to see how."))
    new = replace(state, attempts=state.attempts + 1, mistakes=state.mistakes + 1, joker=None)
    return new, Feedback("wrong", "\n".join(x for x in lines if x), key, reason)


def _progress_text(rules: Rulebook, events: list[Event]) -> str:
    for event in events:
        if event.kind == "reminder":
            return t(
                "You must lay cards if you can. {hint} Tap Draw again to go ahead anyway.",
                hint=words.hint(event.private.get("hint")),
            )
        if event.kind == "hint":
            return words.hint(event.private.get("hint"))
        if event.kind == "give_up_confirm" and rules.tiles:
            return tn(*tile_words.GIVE_UP_CONFIRM, rules.give_up_draw)
        if event.kind == "give_up_confirm":
            return _("Give up puts everything back and you draw 3 cards — tap Give up (+3) again.")
        if event.kind == "drew" and event.seat == LEARNER:
            cards = " ".join(piece_from_token(c).pretty() for c in event.private.get("cards", []))
            if cards:
                return t("You drew {cards}.", cards=cards)
            return _(tile_words.POOL_EMPTY) if rules.tiles else _("The stock is empty.")
    return ""


# -- the computer seats and what they did ----------------------------------------------------


def seat_name(seat: int, players: int) -> str:
    if seat == LEARNER:
        return _("You")
    return _("Computer") if players == 2 else t("Computer {number}", number=seat)


def event_lines(game: GameState, events: Iterable[Event]) -> list[str]:
    """What the seats did, one line each: the learner's own lines first-person ("You laid …"),
    a computer's marked 🤖 (`_advance` keeps only those)."""
    lines = []
    for e in events:
        if e.seat is None:
            continue
        mine = e.seat == LEARNER
        who = seat_name(e.seat, game.players)
        if e.kind == "laid":
            cards = " ".join(piece_from_token(c).pretty() for c in e.data["placed"])
            if e.data["rearranged"]:
                line = (
                    t("You laid {cards} (rearranging)", cards=cards)
                    if mine
                    else t("{who} laid {cards} (rearranging)", who=who, cards=cards)
                )
            else:
                line = (
                    t("You laid {cards}", cards=cards)
                    if mine
                    else t("{who} laid {cards}", who=who, cards=cards)
                )
        elif e.kind == "drew" and not mine and game.rules.tiles:
            line = tn(*tile_words.COMPUTER_DREW, e.data["count"], name=who)
        elif e.kind == "drew" and not mine:
            line = tn("{who} drew {n} card", "{who} drew {n} cards", e.data["count"], who=who)
        elif e.kind == "passed":
            line = _("You passed") if mine else t("{who} passed", who=who)
        elif e.kind == "knocked":
            line = _("You knocked") if mine else t("{who} knocked", who=who)
        else:
            continue
        lines.append(line if mine else f"🤖 {line}")
    return lines


def run_computers(game: GameState) -> tuple[GameState, list[str]]:
    """The computer seats play until it is the learner's turn again (or the round ends)."""
    lines: list[str] = []
    for _turn in range(MAX_COMPUTER_ACTIONS):
        if game.phase != "play" or game.turn == LEARNER:
            break
        action = choose_action(player_view(game, game.turn), "medium")
        game, events = apply(game, action)
        lines += event_lines(game, events)
    return game, lines


def round_text(game: GameState) -> str:
    """`Round over — you went out. Points: You 0 · Computer 40.`"""
    last = game.rounds[-1]
    names = [seat_name(i, game.players) for i in range(game.players)]
    mine = LEARNER in last["winners"]
    others = [names[w] for w in last["winners"] if w != LEARNER]
    winners = (
        others[0]
        if len(others) == 1
        else t(
            "{first} and {second}",
            first=", ".join(others[:-1]),
            second=others[-1] if others else "",
        )
    )
    if mine and not others:
        how = {
            "out": _("you went out"),
            "knock": _("after a knock, you won"),
            "blocked": _("blocked, you won"),
            "stock": _("stock ran out, you won"),
        }.get(last["how"], _("you won"))
    else:
        if mine:
            winners = t("you and {others}", others=winners)
        how = {
            "out": t("{winners} went out", winners=winners),
            "knock": t("after a knock, {winners} won", winners=winners),
            "blocked": t("blocked, {winners} won", winners=winners),
            "stock": t("stock ran out, {winners} won", winners=winners),
        }.get(last["how"], winners)
    points = " · ".join(f"{names[i]} {p}" for i, p in enumerate(last["points"]))
    return t("Round over — {how}. Points: {points}.", how=how, points=points)


# -- acting ----------------------------------------------------------------------------------


def lesson_act(state: LessonState, action: Action) -> tuple[LessonState, Feedback]:
    """Apply one of the learner's actions and judge it; the returned state is new."""
    if state.finished:
        return state, Feedback("finished", _("This lesson is complete."))
    if action.seat != LEARNER:
        raise ValueError("In a lesson the learner is seat 0")
    step = lesson_step(state)
    game = lesson_game(state)
    try:
        new, events = apply(game, action)
    except JokerChoiceNeeded as ask:
        options = [list(o) for o in ask.options]
        waiting = replace(state, joker={"group": ask.group, "options": options})
        return waiting, Feedback("choose", words.refusal(ask), "joker")
    except IllegalAction as error:
        return _wrong(state, step, classify(error), words.refusal(error))
    verdict, key = _judge(step, game, new, action, events)
    if verdict == "miss":
        return _wrong(state, step, key, "")
    if verdict == "progress":
        text = _progress_text(game.rules, events)
        return replace(state, game=new.to_dict(), joker=None), Feedback("progress", text, key)
    return _advance(state, game, new, events, "correct")


def _advance(
    state: LessonState, before: GameState, game: GameState, events: list[Event], result: Result
) -> tuple[LessonState, Feedback]:
    lesson = get_lesson(state.lesson)
    step = lesson.steps[state.step]
    lines = ["✓ " + (_(step.success) if step.success else _("Well done."))]
    lines += [line for line in event_lines(game, events) if line.startswith("🤖")]
    rounds = len(before.rounds)
    if step.computers:
        game, log = run_computers(game)
        lines += log
    if len(game.rounds) > rounds:
        lines.append(round_text(game))
    index = state.step + 1
    finished = index >= len(lesson.steps)
    if finished:
        index = state.step
        lines.append("🎓 " + (_(lesson.outro) if lesson.outro else _("Lesson complete!")))
    else:
        following = lesson.steps[index]
        if following.position is not None:
            game = build_position(following.position)
        if game.phase == "play" and game.turn != LEARNER:
            game, log = run_computers(game)
            lines += log
    new = LessonState(
        state.lesson,
        index,
        game.to_dict(),
        0,
        state.mistakes,
        list(state.skipped),
        None,
        False,
        finished,
    )
    return new, Feedback(result, "\n".join(lines), "met")


def skip_step(state: LessonState) -> tuple[LessonState, Feedback]:
    """Skip: the step's demo is played for the learner, so a following step can go on from it."""
    if state.finished:
        return state, Feedback("finished", _("This lesson is complete."))
    step = lesson_step(state)
    index = state.step
    game = lesson_game(state)
    start = _fresh(state) if step.position else lesson_game(state)
    start.draft = None  # whatever was half built goes back, as Reset would
    current = replace(state, game=start.to_dict(), joker=None)
    for line in step.demo:
        current, feedback = lesson_act(current, parse_move(line))
        if current.finished or current.step != index:
            done = replace(current, skipped=[*state.skipped, index], mistakes=state.mistakes)
            return done, Feedback(
                "skipped",
                t("⏭ Skipped: {moves}.", moves=demo_text(step, game.rules)) + "\n" + feedback.text,
                "skipped",
            )
    # The demo could not finish from here (it always can from the step's own position).
    done, feedback = _advance(state, game, game, [], "skipped")
    return replace(done, skipped=[*state.skipped, index]), replace(feedback, key="skipped")


def _fresh(state: LessonState) -> GameState:
    position = lesson_step(state).position
    assert position is not None
    return build_position(position)


def show(state: LessonState) -> tuple[LessonState, Feedback]:
    """Show me: outline the step's groups too, and explain the expected move."""
    return replace(state, shown=True), Feedback("progress", show_me(state), "show")


def restart_step(state: LessonState) -> LessonState:
    """Start the step again: its position dealt anew, or (a step that goes on from the last
    one) the half-built copy put back for free."""
    if lesson_step(state).position is not None:
        game = _fresh(state)
    else:
        game = lesson_game(state)
        game.draft, game.hint, game.reminded, game.give_up_armed = None, None, False, False
    return replace(state, game=game.to_dict(), joker=None, shown=False)


__all__ = [
    "DEFAULT_NUDGES",
    "LEARNER",
    "LESSONS",
    "Feedback",
    "Goal",
    "Lesson",
    "LessonState",
    "Position",
    "Step",
    "build_position",
    "choose_joker",
    "classify",
    "demo_text",
    "event_lines",
    "get_lesson",
    "lesson_act",
    "lesson_game",
    "lesson_step",
    "outline",
    "parse_move",
    "restart_step",
    "round_text",
    "run_computers",
    "seat_name",
    "show",
    "show_me",
    "skip_step",
    "start_lesson",
    "step_label",
]
