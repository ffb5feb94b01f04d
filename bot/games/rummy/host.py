"""The rummy family as a game the platform hosts (bot/core/hosting.py): seven rulebooks, one
game. Rules come from the engine; screens.py, typed.py and narrate.py are its chat parts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.buttons import Press
from bot.core.hosting import LessonTerminal, Refusal, Settings, Table, Variant
from bot.core.narrate import log_said, said_in
from bot.core.record import TIMEOUTS_BEFORE_COMPUTER, Record, SeatInfo
from bot.core.turns import Refused, ToPlay, TurnFlow
from bot.core.views import Outcome, Screen
from bot.i18n import _, t, tn, using
from engine.cards import Card
from engine.rummy import (
    ALL_RULEBOOKS,
    Finish,
    GameState,
    IllegalAction,
    JokerChoiceNeeded,
    NextRound,
    get_rulebook,
    new_game,
    player_view,
)
from engine.rummy.actions import Action
from engine.rummy.ai import LEVELS
from engine.rummy.contract import RummyRules
from engine.rummy.rulebooks import option_choices

from . import narrate, screens, texts, web, words
from .lessons import LESSONS
from .records import SeatAsk, rules_of
from .refusals import refusal
from .texts import help_text, rules_text, terminal_help
from .turns import turn_action
from .typed import TYPED_VERBS, TypedError, cards_arg, parse_typed
from .vocabulary import LESSON, LESSON_ONLY, LESSON_VERBS, RUMMY_VERBS

MAX_TIMEOUT_ACTIONS = 60  # a computer finishing a turn takes a few actions; this bounds a loop


def _state(record: Record) -> GameState:
    if record.state is None:
        raise Refusal(_("The game hasn't started yet."))
    return GameState.from_dict(record.state)


def _unknown_settings(name: str) -> str:
    """A rulebook or option the engine doesn't have, in the reader's words (never the
    engine's own sentence)."""
    key = name.lower()
    if key not in ALL_RULEBOOKS:
        return t("Unknown rulebook '{name}'. Rulebooks: {names}", name=name[:40],
                 names=", ".join(words.title(key) for key in ALL_RULEBOOKS))
    choices = option_choices(key)
    if not choices:
        return t("{title} has no options", title=words.title(key))
    have = " · ".join(words.option(k, v) for k, values in choices.items() for v in values)
    return t("{title} has no such option. Its options: {options}", title=words.title(key),
             options=have)


def _labels(record: Record) -> dict[int, str]:
    return {i: screens.seat_label(record, i) for i in range(len(record.seats))}


class RummyGame(TurnFlow):
    name = "rummy"
    title = "Rummy"
    min_seats = 2
    max_seats = screens.MAX_SEATS
    levels = LEVELS
    default_level = "medium"
    default_variant = "manipulation"
    # (with /hint: a one-word action; `auto 5H 6H`: select exactly these, then Auto-place)
    typed_verbs = TYPED_VERBS | {"auto"} | LESSON_VERBS  # (its lesson's: the variant reads them)
    vocabulary = RUMMY_VERBS
    rules = RummyRules()
    max_timeout_actions = MAX_TIMEOUT_ACTIONS
    example_variant = "rummikub"  # named in the platform's examples (/newgame rummikub)
    offers_review = True
    offers_puzzles = True
    offers_lessons = True

    # -- rules ------------------------------------------------------------------------

    def variants(self) -> Sequence[Variant]:
        return tuple(Variant(name, words.title(name), option_choices(name), name in LESSONS)
                     for name in ALL_RULEBOOKS)

    def seats_for(self, variant: str | None) -> int:
        """The seats a rulebook takes (Rummikub: 4), for the lobby."""
        try:
            return min(self.max_seats, get_rulebook(variant or self.default_variant).max_players)
        except ValueError:
            return self.max_seats

    def settings(self, variant: str | None, options: Mapping[str, Any]) -> Settings:
        name = variant or self.default_variant
        try:
            rules = get_rulebook(name, **dict(options))
        except (TypeError, ValueError):  # an unknown rulebook, option or value
            raise ValueError(_unknown_settings(name)) from None
        labels = {k: words.option(k, v) for k, v in rules.options.items()}
        choices = {k: words.choice(k, v) for k, v in rules.options.items()}
        return Settings(rules.name, words.title(rules.name), dict(rules.options), labels,
                        picture={"tiles": True} if rules.tiles else {}, choices=choices)

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        return state["turn"] if state["phase"] == "play" else None

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return state["phase"] == "game_over"

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        return [r["points"] for r in state["rounds"]]

    # -- lessons: a variant of this game (bot/games/rummy/lesson_host.py) --------------------

    def lesson_options(self, words: str | None) -> dict[str, Any] | None:
        """The lesson `words` name as a lesson row's options (None: no words); ValueError
        with a sentence for a lesson we don't have."""
        return self.played_variants[LESSON].lesson_options(words)

    def lesson(self, table: Table, options: dict[str, Any] | None) -> Outcome:
        """Begin the lesson `options` name in this row (None: resume the one it holds)."""
        return self.played_variants[LESSON].lesson(table, options)

    def lesson_terminal(self) -> LessonTerminal:
        return self.played_variants[LESSON].lesson_terminal()

    # -- a game in a chat ---------------------------------------------------------------

    def start(self, table: Table) -> Outcome:
        record = table.record
        most = rules_of(record).max_players
        if len(record.seats) > most:  # the lobby seats up to five; Rummikub is for four
            raise Refusal(tn(
                "{title} is for at most {n} player: a seat must leave before Start.",
                "{title} is for at most {n} players: a seat must leave before Start.",
                most, title=words.title(record.rulebook),
            ))
        if rules_of(record).turn_seconds:  # Rummikub's 1-minute timer is a rule: it is the turn's
            record.turn_seconds = rules_of(record).turn_seconds
        state = new_game(rules_of(record), len(record.seats), record.seed)
        record.state = state.to_dict()
        log_said(record, lambda: narrate.started(words.title(record.rulebook), len(record.seats)))
        last = state.last or {}
        if last.get("kind") == "starting_draw":  # who starts, and why (RULES.md §5)
            log_said(record, lambda: narrate.starting_draw(last["draws"], {
                i: screens.seat_label(record, i) for i in range(len(record.seats))}, last["seat"]))
        table.turn_started(self.to_move(record.state))
        return self._everything(table, state, reply=_("The game starts!"), new=True)

    def screens(self, table: Table, *, new: bool = False) -> Outcome:
        return self._everything(table, _state(table.record), new=new)

    def table_screen(self, table: Table) -> Screen:
        return screens.table_screen(table.game_id, table.record, _state(table.record))

    def private_screen(self, table: Table, seat: int) -> Screen:
        return screens.private_screen(table.game_id, table.record, _state(table.record), seat)

    def review(self, table: Table, seat: int, round: int | None) -> Screen:
        from .review import review_screen  # the solver's analysis: loaded when first asked

        return review_screen(table.game_id, table.record, seat, round)

    # -- the puzzle of the day (puzzle.py: loaded when first asked, as the review) ----
    def puzzle_cut(self, record: Record) -> tuple[int, dict[str, Any]] | None:
        from . import puzzle

        return puzzle.cut(record)

    def puzzle_post(self, data: dict[str, Any], day: str) -> Screen:
        from . import puzzle

        return puzzle.post_screen(data, day)

    def puzzle_solution(self, data: dict[str, Any], day: str) -> Screen:
        from . import puzzle

        return puzzle.solution_screen(data, day)

    def puzzle_try(self, table: Table, data: dict[str, Any]) -> Outcome:
        from . import puzzle

        state = puzzle.deal(table, data)
        return self._everything(table, state, reply=None, new=True)

    def puzzle_verdict(self, record: Record) -> tuple[bool, int] | None:
        from . import puzzle

        return puzzle.verdict(record)

    def any_time(self, table: Table, state: GameState, seat: int | None, user: str,
                 press: Press) -> Outcome | None:
        """Going on after a round, and how a seat looks at its hand (no turn's presses)."""
        verb = press.verb
        if verb in LESSON_ONLY:
            raise Refusal(_("Unknown button."))
        if verb in ("next", "finish"):
            if seat is None:
                raise Refusal(_("Only the players can go on."))
            if press.version != state.version:
                raise Refusal(_("That button is out of date."))
            act: Action = NextRound(seat) if verb == "next" else Finish(seat)
            return self.move(table, state, seat, act, user)
        if seat is not None and verb in ("sort", "pg"):  # how I look at my hand, any time
            ui = table.record.seat_ui(seat)
            if verb == "sort":
                ui.sort = "suit" if ui.sort == "rank" else "rank"  # "": by suit
            else:
                ui.page = press.int()
            return self.mine(table, state, seat, user)
        return None

    def turn_press(self, table: Table, state: GameState, seat: int, user: str,
                   press: Press) -> ToPlay | Outcome:
        """A press of a turn's button: its action (an Auto-place that finds no way: the
        engine's IllegalAction), or the seat's screen changed."""
        act = turn_action(state, seat, table.record.seat_ui(seat), press)
        if act is None:
            return self.mine(table, state, seat, user)
        return ToPlay(act, keep_selection=press.verb == "hint")

    def typed_moves(self, table: Table, state: GameState, seat: int, user: str, verb: str,
                    args: str) -> Sequence[Action] | Outcome:
        """`lay 7H 8H 9H`, `take B QS`, `done`…: the engine actions, in order; `auto 5H 6H`
        selects these cards and presses Auto-place."""
        record = table.record
        if verb == "auto":
            return self._auto(table, state, seat, user, args)
        hand = screens.sorted_hand(player_view(state, seat).draft_hand, record.seat_ui(seat).sort)
        try:
            return parse_typed(seat, verb, args, hand, rules_of(record).tiles)
        except TypedError as error:
            raise Refusal(str(error)) from None

    def _auto(self, table: Table, state: GameState, seat: int, user: str, args: str) -> Outcome:
        """`auto 5H 6H` (or card numbers, as the card buttons count): select exactly these
        cards, then Auto-place them, as the buttons do."""
        record = table.record
        ui = record.seat_ui(seat)
        tiles = rules_of(record).tiles
        hand = screens.placeable(player_view(state, seat), ui.sort)  # as the card buttons
        try:
            wanted = cards_arg(args, hand, tiles=tiles)
        except TypedError as error:
            raise Refusal(str(error)) from None
        chosen: list[Card] = []
        for card in wanted:
            match = next((c for c in hand if c.face == card.face and c not in chosen), None)
            if match is None:
                raise Refusal(t("You have no {card}", card=card.pretty()))
            chosen.append(match)
        ui.selected = [c.token for c in chosen]
        return self.play_press(table, state, seat, user,
                               Press(table.game_id, state.version, "auto"))

    def select(
        self, table: Table, seat: int, user: str, version: int, items: Sequence[str]
    ) -> Outcome:
        record = table.record
        state = _state(record)
        if version != state.version or state.turn != seat or state.phase != "play":
            raise Refusal(
                _("That menu is out of date — here is a fresh one."),
                alert=False,
                outcome=self.mine(table, state, seat, user),
            )
        ui = record.seat_ui(seat)
        hand = {c.token for c in screens.placeable(player_view(state, seat), ui.sort)}
        ui.selected = [x for x in items if x in hand]
        ui.notice = ""
        return self.mine(table, state, seat, user)

    def web_view(self, record: Record, seat: int | None) -> dict[str, Any]:
        return web.web_view(record, seat)

    def web_edit(self, table: Table, seat: int, user: str, edit: Any) -> Outcome:
        return web.web_edit(self, table, seat, user, edit)

    def help_text(self) -> str:
        return help_text()

    def rules_text(self, variant: str | None) -> str:
        return rules_text(variant)

    def terminal_help(self, variant: str | None) -> str:
        return terminal_help(variant)

    def discord_help(self) -> str:
        return _(texts.DISCORD)

    # -- the turn flow's hooks (bot/core/turns.py) -------------------------------------------

    def load(self, record: Record) -> GameState:
        return _state(record)

    def time_ran_out(self, record: Record, info: SeatInfo, taken_over: bool,
                     events: Sequence[Any]) -> str:
        # (in the current language: the flow says it to the group, and logs it in each reader's)
        return narrate.time_ran_out(info.name, taken_over, TIMEOUTS_BEFORE_COMPUTER,
                                    ruled=bool(events) and events[0].kind == "time_up")

    # -- inside -------------------------------------------------------------------------

    def seat_screen(self, table: Table, state: GameState, seat: int) -> Screen:
        return screens.private_screen(table.game_id, table.record, state, seat)

    def refused(self, table: Table, seat: int, error: Exception) -> Refused | None:
        """The engine's refusal in the seat's words; a joker's meaning to choose is a question
        (the seat's screen asks it)."""
        if isinstance(error, JokerChoiceNeeded):
            ui = table.record.seat_ui(seat)
            ui.mode = "joker"
            SeatAsk(joker_group=error.group,
                    joker_options=[list(o) for o in error.options]).keep(ui)
            return Refused(refusal(error), alert=False, mark="")
        if isinstance(error, IllegalAction):
            return Refused(refusal(error, rules_of(table.record).tiles))
        return None

    def clear_seat(self, table: Table, seat: int, keep_selection: bool) -> None:
        super().clear_seat(table, seat, keep_selection)
        SeatAsk().keep(table.record.seat_ui(seat))  # a joker's readings asked: answered or gone

    def advance(self, table: Table, old: GameState, new: GameState, events: list,
                acts: Sequence[Any] = ()) -> Outcome:
        """Store the new state and build the screens that changed (the engine's state logs
        its own actions: `acts` is not needed here)."""
        record, game_id = table.record, table.game_id
        record.state = new.to_dict()
        tiles = rules_of(record).tiles
        (lines, more), other = said_in(record, lambda: (  # the group's, and each reader's
            narrate.log_lines(events, _labels(record), tiles),
            narrate.draws_this_turn(events, new.draws, new.turn, _labels(record), tiles)))
        if more is not None and record.log and record.log[-1] == more[0]:
            # "drew 13 cards" once, not "drew 1 card" 13 times
            record.fold_log(more[1], {lang: m[1] for lang, (_l, m) in other.items() if m})
            lines = []
        record.add_logs(lines, {lang: said for lang, (said, _m) in other.items()})
        turn_over = new.turn != old.turn or new.phase != old.phase or new.round != old.round
        if turn_over:
            table.turn_started(self.to_move(record.state))
            return self._everything(table, new, turn=True, events=events, old=old)
        out = Outcome()
        seat = new.turn
        user = record.seats[seat].user
        for event in events:
            with using(record.lang_of(seat)):  # the seat's own line, in its language
                line = narrate.notice(event, rules_of(record))
            if line is not None and (user or event.kind == "give_up_confirm"):
                record.seat_ui(seat).notice = line
        if user:
            out.private[user] = screens.private_screen(game_id, record, new, seat)
        if new.table != old.table or len(new.stock) != len(old.stock):
            out.group = screens.table_screen(game_id, record, new)
        return out

    def _everything(
        self,
        table: Table,
        state: GameState,
        *,
        reply: str | None = None,
        new: bool = False,
        turn: bool = False,
        events: list | None = None,
        old: GameState | None = None,
    ) -> Outcome:
        record, game_id = table.record, table.game_id
        out = Outcome(
            reply=reply,
            alert=False,
            group=screens.table_screen(game_id, record, state),
            group_new=new,
            group_turn=turn,  # a new turn: the delivery decides whether to post it anew
        )
        for i, seat in enumerate(record.seats):
            if seat.user and not seat.is_computer:
                out.private[seat.user] = screens.private_screen(game_id, record, state, i)
                if old is None:
                    out.private_new.add(seat.user)
        round_done = old is not None and (
            len(state.rounds) > len(old.rounds)
            or (state.phase == "game_over" and old.phase != "game_over")
        )
        if round_done or (old is None and state.phase != "play"):
            out.notes.append(screens.score_screen(game_id, record, state))
        for event in events or []:
            if event.kind == "drew" and event.seat is not None:
                info = record.seats[event.seat]
                with using(record.lang_of(event.seat)):
                    line = narrate.notice(event, rules_of(record))
                if info.user and not info.is_computer and line:
                    record.seat_ui(event.seat).notice = line
                    out.private[info.user] = screens.private_screen(
                        game_id, record, state, event.seat
                    )
        return out

