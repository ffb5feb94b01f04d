"""Race in a chat: its lobby words, screens, picture and buttons, its lesson, its web table's
part and its terminal help. The turn flow (version and turn checks, computer seats, the turn
timer) is the platform's (bot/core/turns.py); this keeps only what is the race's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.core.buttons import IDX, Press
from bot.core.hosting import Refusal, Settings, Table, Variant
from bot.core.record import Record, SeatInfo
from bot.core.turns import TurnFlow
from bot.core.views import Choice, ChoiceGroup, Outcome, Screen
from bot.i18n import using
from engine.contract import IllegalAction
from engine.contract import Settings as RuleSettings

from . import lesson, web
from .picture import race_png
from .rules import STEPS, TARGETS, Add, RaceRules, RaceState
from .words import say


class RaceGame(TurnFlow):
    """Seats take turns adding 1…step to a total; whoever brings it to the target wins."""

    name = "race"
    title = "Race"
    rules = RaceRules()
    min_seats, max_seats = rules.min_seats, rules.max_seats
    levels = rules.levels
    default_level = "perfect"
    default_variant = "ten"
    example_variant = "twenty"
    typed_verbs = frozenset({"plus"})
    vocabulary: ClassVar = {"plus": (IDX,)}

    def variants(self) -> Sequence[Variant]:
        races = [Variant(v, say("Race to {target}", target=v), {"step": STEPS}) for v in TARGETS]
        return (*races, Variant(lesson.VARIANT, say("Race lesson"), {}))

    def settings(self, variant: str | None, options: Mapping[str, Any]) -> Settings:
        variant = variant or self.default_variant
        if variant == lesson.VARIANT and not options:
            return Settings(variant, say("Race lesson"), {})
        if variant not in TARGETS:
            raise ValueError(f"No race called {variant!r}")
        unknown = set(options) - {"step"}
        if unknown:
            raise ValueError(f"Unknown option {sorted(unknown)[0]!r}")
        step = int(options.get("step", STEPS[0]))
        if step not in STEPS:
            raise ValueError("step is 2 or 3")
        return Settings(variant, say("Race to {target}", target=variant), {"step": step},
                        labels={"step": f"{say('step')}: {step}"})

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        return None if state["winner"] is not None else state["turn"]

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return state["winner"] is not None

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        return []

    # -- the turn flow's hooks ----------------------------------------------------------------
    def load(self, record: Record) -> RaceState:
        if record.state is None:
            raise Refusal(say("The race hasn't started."))
        return self.rules.state_from_json(record.state)

    def advance(self, table: Table, old: RaceState, new: RaceState, events: list,
                acts: Sequence[Any] = ()) -> Outcome:
        record = table.record
        record.state = self.rules.state_to_json(new)
        with using(record.lang):  # the log and the result are the group's
            for e in events:
                record.add_log(say("{name} adds {n}: {total}", name=record.seats[e["seat"]].name,
                                   n=e["n"], total=e["total"]))
            won = say("🏁 {name} wins the race", name=record.seats[new.winner].name) \
                if new.winner is not None else ""
        table.turn_started(self.rules.to_move(new))
        out = self.screens(table)
        if won:  # the result, a message of its own in the group
            out.notes.append(Screen(won, [], game_id=table.game_id, version=new.version,
                                    phase="game_over"))
        return out

    def time_ran_out(self, record: Record, info: SeatInfo, taken_over: bool,
                     events: Sequence[Any]) -> str:
        with using(record.lang):
            return say("time ran out")

    # -- in a chat ----------------------------------------------------------------------------
    def start(self, table: Table) -> Outcome:
        record = table.record
        if record.rulebook == lesson.VARIANT:  # the learner first, against one computer
            seats = record.seats
            if len(seats) != 2 or seats[0].is_computer or not seats[1].is_computer:
                with using(record.lang):
                    raise Refusal(say("The lesson is for one person and one computer: add a "
                                      "computer, then Start."))
            settings = RuleSettings(lesson.TARGET, {"step": lesson.STEP})
            state = self.rules.new_game(settings, 2, 0)  # (seed 0: seat 0 moves first)
        else:
            settings = RuleSettings(record.rulebook, dict(record.options))
            state = self.rules.new_game(settings, len(record.seats), record.seed)
        record.state = self.rules.state_to_json(state)
        table.turn_started(self.rules.to_move(state))
        return self.screens(table, new=True)

    def screens(self, table: Table, *, new: bool = False) -> Outcome:
        out = Outcome(group=self.table_screen(table), group_new=new)
        for i, seat in enumerate(table.record.seats):
            if seat.user and not seat.is_computer:
                out.private[seat.user] = self.private_screen(table, i)
        return out

    def _phase(self, state: RaceState) -> str:
        return "play" if state.winner is None else "game_over"

    def _screen(self, table: Table, state: RaceState, text: str, parts: list) -> Screen:
        return Screen(text, parts, f"race:{state.total}:{state.target}",
                      lambda: race_png(state.total, state.target), table.game_id,
                      state.version, phase=self._phase(state))

    def table_screen(self, table: Table) -> Screen:
        state = self.load(table.record)
        with using(table.record.lang):
            text = say("total {total} of {target}", total=state.total, target=state.target)
            if state.winner is not None:
                text += say(" — {name} wins the race",
                            name=table.record.seats[state.winner].name)
        return self._screen(table, state, text, [])

    def private_screen(self, table: Table, seat: int) -> Screen:
        record = table.record
        state = self.load(record)
        moves = self.rules.legal_actions(state, seat)
        with using(record.lang_of(seat)):
            adds = [Choice(f"+{a.n}", f"plus:{a.n}") for a in moves]  # one question: how many
            lines = [say("total {total} of {target}", total=state.total, target=state.target)]
            step = lesson.step_of(state) if record.rulebook == lesson.VARIANT else None
            notice = record.seat_ui(seat).notice
            if notice:
                lines.append(notice)
            if step is not None and moves:
                lines.append(say(step.text))
            parts = [ChoiceGroup(say("Add…"), adds, len(adds))] if adds else []
        return self._screen(table, state, "\n".join(lines), parts)

    def _add(self, table: Table, state: RaceState, seat: int, n: int) -> Outcome:
        record = table.record
        try:
            new, events = self.rules.apply(state, Add(seat, n))
        except IllegalAction as error:
            raise Refusal(str(error)) from None
        ui = record.seat_ui(seat)
        ui.notice = ""
        if record.rulebook == lesson.VARIANT and seat == lesson.LEARNER:
            step = lesson.step_of(state)
            with using(record.lang_of(seat)):
                if step is not None and not lesson.met(step, new):  # not played: the nudge
                    raise Refusal(say(step.nudge))
                ui.notice = say(step.success) if step is not None else ""
        record.seats[seat].timeouts = 0
        return self.advance(table, state, new, events)

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        state = self.load(table.record)
        if seat is None:
            raise Refusal(say("Only players press here."))
        if press.verb != "plus":
            raise Refusal(say("Not a button of this game."))
        self.check_version(state, press.version, lambda: self.screens(table))
        self.check_turn(state, seat)
        return self._add(table, state, seat, press.int())

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        if not args.isdigit():
            raise Refusal(say("Type /plus 1"))
        state = self.load(table.record)
        self.check_turn(state, seat)
        return self._add(table, state, seat, int(args))

    def select(self, table: Table, seat: int, user: str, version: int,
               items: Sequence[str]) -> Outcome:
        raise Refusal(say("Nothing to select in a race."))

    # -- the web table (bot/web) ----------------------------------------------------------------
    def web_view(self, record: Record, seat: int | None) -> dict[str, Any]:
        return web.web_view(self.rules, record, seat)

    def web_edit(self, table: Table, seat: int, user: str, edit: Any) -> Outcome:
        """A page's "+n": the press its chat button makes (the same checks)."""
        n = web.PLUS.get(edit.name) if edit.op == "act" else None
        if n is None:
            raise Refusal(say("Not a button of this game."))
        return self.press(table, seat, user, Press(table.game_id, edit.version, "plus", (n,)))

    def help_text(self) -> str:
        return say("Race: /newgame ten")

    def rules_text(self, variant: str | None) -> str:
        return say("Add 1 or 2; reach the target to win.")

    def discord_help(self) -> str:
        return self.help_text()

    def terminal_help(self, variant: str | None) -> str:
        return say("Commands: press a button's number, or type plus 1\n"
                   "  table · rules · leaderboard · stats · help · quit (the game is saved)")
