"""Build-to-Ten as a game the platform hosts (bot/core/hosting.py). Rules come from
engine/buildten; screens.py, typed.py, narrate.py and texts.py are its chat parts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.core.buttons import IDX, Kind, Press
from bot.core.hosting import Refusal, Settings, Table, Variant
from bot.core.narrate import log_said, said_in
from bot.core.record import Record, SeatInfo
from bot.core.turns import Refused, ToPlay, TurnFlow
from bot.core.views import ActionRow, Button, Outcome, Screen
from bot.i18n import N_, _, current, t, tn, using
from engine.buildten import (
    Action,
    BuildState,
    Discard,
    Event,
    Joker,
    Pass,
    Play,
    new_game,
    player_view,
    standings,
)
from engine.buildten.actions import NEW_PILE
from engine.buildten.actions import to_dict as action_dict
from engine.buildten.ai import LEVELS, choose_action
from engine.buildten.contract import BuildTenRules
from engine.buildten.state import free_place
from engine.errors import IllegalAction

from . import narrate, screens, texts, web  # (web registers its page ops: loaded with it)
from .narrate import card_name
from .records import HOST_KEYS
from .records import state_of as _state
from .texts import help_text, rules_text, terminal_help
from .typed import TYPED_VERBS, TypedError, parse_typed

NAME = "build-to-ten"  # the game's name: /newgame build-to-ten
VARIANT = "buildten"  # the game (a button word: letters, digits, _), for leaderboards
LESSON = screens.LESSON_VARIANT  # the lesson: the worked example in a real game against a computer
LESSON_WORDS = ("lesson", LESSON)
MAX_TIMEOUT_ACTIONS = 200  # a computer finishing a person's turn: far above a real turn
LESSON_TITLE = N_("Build-to-Ten lesson")


def _save(record: Record, state: BuildState, acts: Sequence[Action] = ()) -> None:
    """The hosted state: the engine's, plus the actions applied since the last save (the
    platform moves them to the game's action log: the review replays them from the deal,
    bot/games/buildten/review.py), plus a variant's own keys as it left them (a lesson's step:
    lesson_host.py)."""
    old = record.state or {}
    record.state = state.to_dict()
    record.state["actions"] = [*old.get("actions", []), *(action_dict(a) for a in acts)]
    record.state.update({k: old[k] for k in HOST_KEYS if k != "actions" and k in old})


def _names(record: Record) -> dict[int, str]:
    return {i: screens.seat_label(record, i) for i in range(len(record.seats))}


def hint_line(action: Action, record: Record) -> str:
    if isinstance(action, Play):
        card = card_name(action.card)
        if action.pile == NEW_PILE:
            return t("💡 Play the {card} onto a new pile.", card=card)
        return t("💡 Play the {card} onto pile {n}.", card=card, n=action.pile + 1)
    if isinstance(action, Joker):
        return t("💡 Play the {card} on {name}.", card=card_name(action.card),
                 name=record.seats[action.target].name)
    if isinstance(action, Discard):
        card = card_name(action.card)
        if action.pile == NEW_PILE:
            return t("💡 Nothing more to build: discard the {card} onto a new discard pile.",
                     card=card)
        return t("💡 Nothing more to build: discard the {card} onto D{n}.", card=card,
                 n=action.pile + 1)
    return _("💡 End your turn.")


def hint_target(action: Action, state: BuildState) -> tuple[str, int] | None:
    """The place a hinted move puts its card (a new pile: the place it opens), outlined in the
    picture: ("b", build place) or ("d", discard place); None for a joker."""
    if isinstance(action, Play):
        place = free_place(state.builds) if action.pile == NEW_PILE else action.pile
        return None if place is None else ("b", place)
    if isinstance(action, Discard):
        piles = state.discards[action.seat]
        place = free_place(piles) if action.pile == NEW_PILE else action.pile
        return None if place is None else ("d", place)
    return None


class BuildTenGame(TurnFlow):
    name = NAME
    title = "Build-to-Ten"  # English: the game's name in /help's list (screens.TITLE: translated)
    min_seats = 2
    max_seats = 4
    levels = LEVELS
    default_level = "medium"
    default_variant = VARIANT
    typed_verbs = TYPED_VERBS
    rules = BuildTenRules()
    max_timeout_actions = MAX_TIMEOUT_ACTIONS
    example_variant = "buildten"  # named in the platform's examples (/newgame buildten)
    offers_review = True  # (no /lesson: TurnFlow's default; its lesson is a lobby variant)
    vocabulary: ClassVar[dict[str, tuple[Kind, ...]]] = {
        "bsrc": (IDX,), "bpile": (IDX,), "bdisc": (IDX,), "bjk": (IDX,), "bpass": (),
        "hint": (), "cancel": (),
    }

    # -- rules ------------------------------------------------------------------------

    def variants(self) -> Sequence[Variant]:
        return (Variant(VARIANT, _(screens.TITLE), {}), Variant(LESSON, _(LESSON_TITLE), {}))

    def settings(self, variant: str | None, options: Mapping[str, Any]) -> Settings:
        if variant not in (None, "", NAME, VARIANT, *LESSON_WORDS):
            raise ValueError(t("Build-to-Ten has no variant {variant} (there is: lesson).",
                               variant=repr(variant)))
        if options:
            raise ValueError(t("Build-to-Ten has no option {option}.",
                               option=repr(sorted(options)[0])))
        if variant in LESSON_WORDS:
            return Settings(LESSON, _(LESSON_TITLE), {})
        return Settings(VARIANT, _(screens.TITLE), {})

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        return None if state["over"] else state["turn"]

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return bool(state["over"])

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        return [[len(s) for s in state["stocks"]]] if state["over"] else []

    # -- a game in a chat ---------------------------------------------------------------

    def start(self, table: Table) -> Outcome:
        record = table.record
        state = new_game(len(record.seats), record.seed)
        _save(record, state)
        first = screens.seat_label(record, state.first)
        log_said(record, lambda: t("Build-to-Ten for {n}: {first} shows the highest card and "
                                   "starts", n=state.players, first=first))
        table.turn_started(self.to_move(record.state))
        return self._everything(table, state, reply=_("The game starts!"), new=True)

    def screens(self, table: Table, *, new: bool = False) -> Outcome:
        return self._everything(table, _state(table.record), new=new)

    def table_screen(self, table: Table) -> Screen:
        return screens.table_screen(table.game_id, table.record, _state(table.record))

    def private_screen(self, table: Table, seat: int) -> Screen:
        return screens.private_screen(table.game_id, table.record, _state(table.record), seat)

    def any_time(self, table: Table, state: BuildState, seat: int | None, user: str,
                 press: Press) -> Outcome | None:
        if seat is not None and press.verb not in self.vocabulary:
            raise Refusal(_("Not a button of this game."))
        return None

    def turn_press(self, table: Table, state: BuildState, seat: int, user: str,
                   press: Press) -> ToPlay | Outcome:
        """The two taps: a card (`bsrc`), then where it goes (a pile, a discard pile, a seat
        for a joker); Pass, Hint and Cancel."""
        ui = table.record.seat_ui(seat)
        ui.notice = ""
        view = player_view(state, seat)
        verb = press.verb
        if verb == "cancel":
            ui.selected, ui.mode = [], "main"
            return self.mine(table, state, seat, user)
        if verb == "hint":
            return self._hint(table, state, seat, user)
        if verb == "bsrc":
            card = screens.source_card(view, press.int())
            if card is None:
                raise Refusal(_("That card isn't there any more."),
                              outcome=self.mine(table, state, seat, user))
            if card not in view.hand and not screens.fitting_piles(view, card):
                needs = ", ".join(t("pile {n} needs {needed}", n=i + 1, needed=len(b) + 1)
                                  for i, b in enumerate(view.builds) if b) or _("no pile yet")
                raise Refusal(t("The {card} fits no build pile now ({needs}).",
                                card=card_name(card), needs=needs))
            ui.selected, ui.mode = [card], "target"
            return self.mine(table, state, seat, user)
        if verb == "bpass":
            return ToPlay(Pass(seat))
        if not ui.selected:
            raise Refusal(_("Tap a card first."), outcome=self.mine(table, state, seat, user))
        card, n = ui.selected[0], press.int()
        pile = NEW_PILE if n == screens.NEW else n
        if verb == "bpile":
            return ToPlay(Play(seat, card, pile))
        if verb == "bdisc":
            return ToPlay(Discard(seat, card, pile))
        return ToPlay(Joker(seat, card, n))

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        if verb not in self.typed_verbs:
            _state(table.record)  # (a game not started says so first)
            raise Refusal(t("/{verb} is not a move of Build-to-Ten: see /help build-to-ten.",
                            verb=verb))
        return super().typed(table, seat, user, verb, args)

    def typed_moves(self, table: Table, state: BuildState, seat: int, user: str, verb: str,
                    args: str) -> Sequence[Action] | Outcome:
        if verb == "hint":
            return self._hint(table, state, seat, user)
        names = [s.name for s in table.record.seats]
        try:
            return [parse_typed(player_view(state, seat), verb, args, names)]
        except TypedError as error:
            raise Refusal(str(error)) from None

    def select(self, table: Table, seat: int, user: str, version: int,
               items: Sequence[str]) -> Outcome:
        raise Refusal(_("Build-to-Ten has no menus: tap a card, then where it goes."))

    def web_view(self, record: Record, seat: int | None) -> dict[str, Any]:
        return web.web_view(record, seat)

    def web_edit(self, table: Table, seat: int, user: str, edit: Any) -> Outcome:
        return web.web_edit(self, table, seat, user, edit)

    def review(self, table: Table, seat: int, round: int | None) -> Screen:
        from .review import review_screen  # the search: loaded when first asked

        return review_screen(table.game_id, table.record, seat, round)

    def help_text(self) -> str:
        return help_text()

    def rules_text(self, variant: str | None) -> str:
        return rules_text(variant)

    def terminal_help(self, variant: str | None) -> str:
        return terminal_help(variant)

    def discord_help(self) -> str:
        return _(texts.DISCORD)

    # -- the turn flow's hooks (bot/core/turns.py) -------------------------------------------

    def load(self, record: Record) -> BuildState:
        return _state(record)

    def time_ran_out(self, record: Record, info: SeatInfo, taken_over: bool,
                     events: Sequence[Event]) -> str:
        # (in the current language: the flow says it to the group, and logs it in each reader's)
        if taken_over:
            return t("⏰ Time ran out for {name}: the computer played the turn and keeps "
                     "the seat.", name=info.name)
        return t("⏰ Time ran out for {name}: the computer played the turn.", name=info.name)

    # -- inside -------------------------------------------------------------------------

    def seat_screen(self, table: Table, state: BuildState, seat: int) -> Screen:
        return screens.private_screen(table.game_id, table.record, state, seat)

    def refused(self, table: Table, seat: int, error: Exception) -> Refused | None:
        return Refused(narrate.refusal(error)) if isinstance(error, IllegalAction) else None

    def clear_seat(self, table: Table, seat: int, keep_selection: bool) -> None:
        ui = table.record.seat_ui(seat)
        ui.selected, ui.mode = [], "main"

    def _hint(self, table: Table, state: BuildState, seat: int, user: str) -> Outcome:
        ui = table.record.seat_ui(seat)
        act = choose_action(player_view(state, seat), "hard")
        ui.notice = hint_line(act, table.record)
        # the hint names a whole move and marks its card in the picture; it never selects it:
        # the buttons keep their meaning and numbering (issue 27)
        card = getattr(act, "card", None)
        ui.selected = []
        ui.mode = screens.hint_mode(card, hint_target(act, state)) if card else "main"
        out = self.mine(table, state, seat, user)
        out.reply, out.alert = ui.notice, False
        return out

    def advance(self, table: Table, old: BuildState, new: BuildState,
                events: list[Event], acts: Sequence[Action] = ()) -> Outcome:
        """Store the new state and build the screens that changed."""
        record, game_id = table.record, table.game_id
        _save(record, new, acts)
        record.add_logs(*said_in(record, lambda: narrate.log_lines(events, _names(record))))
        if new.turn != old.turn or new.over:
            table.turn_started(self.to_move(record.state))
            out = self._everything(table, new, new=True)
            for event in events:  # the new player's draw, on their own screen
                with using(screens.seat_lang(record, event.seat)):
                    line = narrate.notice(event)
                info = record.seats[event.seat] if event.seat is not None else None
                if line and info and info.user and not info.is_computer and event.seat == new.turn:
                    record.seat_ui(event.seat).notice = line
                    out.private[info.user] = screens.private_screen(
                        game_id, record, new, event.seat)
            return out
        seat = new.turn
        user = record.seats[seat].user
        out = Outcome(group=screens.table_screen(game_id, record, new))
        if user and not record.seats[seat].is_computer:
            with using(screens.seat_lang(record, seat)):  # the seat's own lines, in its language
                notes = [n for e in events if (n := narrate.notice(e))]
            record.seat_ui(seat).notice = " ".join(notes)
            out.private[user] = screens.private_screen(game_id, record, new, seat)
        return out

    def _everything(self, table: Table, state: BuildState, *, reply: str | None = None,
                    new: bool = False) -> Outcome:
        record, game_id = table.record, table.game_id
        out = Outcome(reply=reply, alert=False,
                      group=screens.table_screen(game_id, record, state), group_new=new)
        for i, seat in enumerate(record.seats):
            if seat.user and not seat.is_computer:
                out.private[seat.user] = screens.private_screen(game_id, record, state, i)
        if state.over:
            out.notes.append(self._result_screen(table, state))
        return out

    def _result_screen(self, table: Table, state: BuildState) -> Screen:
        with using(screens.group_lang(table.record)):  # said to the group
            return self._results(table, state)

    def _results(self, table: Table, state: BuildState) -> Screen:
        record = table.record
        lines = ["🏁 " + screens.status(record, state)]
        for rank, seat in enumerate(standings(state), 1):
            left = len(state.stocks[seat])
            lines.append(tn("{rank}. {name} — {n} stock card left",
                            "{rank}. {name} — {n} stock cards left", left, rank=rank,
                            name=screens.seat_label(record, seat)))
        if state.stuck:
            lines.append(_("(stuck: nothing left to draw and a full round without a build)"))
        # 🔎 Review: each player's own turns, sent to them alone (issue 32; a lesson: none)
        review = [ActionRow([Button(_("🔎 Review"), "review:1")])]
        return Screen("\n".join(lines), review, game_id=table.game_id, version=state.version,
                      phase="game_over", lang=current())

