"""The adapter-neutral game service: commands and button presses in, outcomes out.

Every command loads the game from the store, changes it, and commits it (optimistic
concurrency on the row's version) before anything is answered, so a restart at any moment
loses nothing. Computer seats and turn timers run here as background tasks that deliver their
outcomes through the adapter registered for the game's platform.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from engine import (
    Commit,
    Draw,
    Finish,
    GameState,
    Hint,
    IllegalAction,
    JokerChoiceNeeded,
    Knock,
    NextRound,
    Pass,
    Place,
    Reset,
    SetDraft,
    Take,
    apply,
    find_move,
    get_rulebook,
    new_game,
    player_view,
)
from engine.actions import Action, GiveUp
from engine.ai import choose_action
from engine.cards import Card
from engine.game import HINT_EFFORT, hint_line

from . import screens
from .per_game import GameLocks
from .persist import new_result, new_rounds, seat_rows
from .record import TIMEOUTS_BEFORE_COMPUTER, Record, SeatInfo
from .texts import help_text, rules_text
from .typed import TYPED_VERBS, TypedError, cannot_place, parse_typed
from .views import Outcome

log = logging.getLogger(__name__)

Deliver = Callable[[Outcome], Awaitable[None]]
LOBBY_ONLY_HOST = ("menu:", "cpu:", "rb:", "opt:", "timer:", "start")


class Reply(Exception):
    """A user-facing answer that stops the command (nothing is saved)."""

    def __init__(self, text: str, *, alert: bool = True, outcome: Outcome | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.alert = alert
        self.outcome = outcome


def pack(game_id: int, version: int, action: str, prefix: str = "") -> str:
    """Callback data: `[prefix]game:version:action` (Telegram allows 64 bytes)."""
    data = f"{prefix}{game_id}:{version}:{action}"
    if len(data.encode()) > 64:
        raise ValueError(f"callback data too long: {data}")
    return data


def unpack(data: str, prefix: str = "") -> tuple[int, int, str] | None:
    if not data.startswith(prefix):
        return None
    parts = data[len(prefix) :].split(":", 2)
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    return int(parts[0]), int(parts[1]), parts[2]


@dataclass
class Actor:
    platform: str
    chat_id: str
    user: str
    name: str
    private: bool = False


class GameService:
    def __init__(
        self,
        store: Any,
        *,
        clock: Callable[[], float] = time.time,
        computer_delay: float = 1.2,
        tick: float = 1.0,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.computer_delay = computer_delay
        self.tick = tick
        self.rng = rng or random.Random()
        self.deliverers: dict[str, Deliver] = {}
        self._locks = GameLocks()
        self._computer_tasks: dict[int, asyncio.Task] = {}
        # game -> (turn deadline, when to send the half-time reminder or None): the ticker
        # reads the store only when one of them is due
        self._deadlines: dict[int, tuple[float, float | None]] = {}
        self._ticker: asyncio.Task | None = None
        self._stopped = False

    # -- life cycle ---------------------------------------------------------------------

    def register(self, platform: str, deliver: Deliver) -> None:
        self.deliverers[platform] = deliver

    async def start(self) -> None:
        """Resume every active game: computer turns and turn timers."""
        self._stopped = False
        for row in await self.store.active_games():
            self._after_save(row.id, Record.from_dict(row.record))
        self._ticker = asyncio.create_task(self._tick_loop())

    async def stop(self) -> None:
        """Stop the computer turns and the timers (first, before the adapters stop: their
        deliveries would fail). Games go on being saved; `start` resumes them."""
        self._stopped = True
        tasks = [*self._computer_tasks.values(), *([self._ticker] if self._ticker else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._computer_tasks.clear()
        self._ticker = None

    def _lock(self, game_id: int) -> asyncio.Lock:
        return self._locks(game_id)

    # -- persistence --------------------------------------------------------------------

    @staticmethod
    def _status(record: Record) -> str:
        if record.refs.get("ended"):
            return "ended"
        if record.state is None:
            return "lobby"
        if record.state.get("phase") == "game_over":
            return "finished"
        return "playing"

    async def _mutate(
        self, game_id: int, change: Callable[[Any, Record], Outcome], *, status: str | None = None
    ) -> Outcome:
        """Load, change, save (retrying on a version race), then schedule background work.

        A change that leaves the record and status as they were is not saved. The outcome
        carries the row version it was built from (`revision`, the commit order adapters show
        screens in) and the record's adapter refs."""
        from bot.store import StaleGame

        async with self._lock(game_id):
            for _attempt in range(3):
                row = await self.store.get_game(game_id)
                if row is None:
                    raise Reply("That game no longer exists.")
                record = Record.from_dict(row.record)
                before = record.state
                seats_before = [(x.user, x.computer) for x in record.seats]
                try:
                    outcome = await asyncio.to_thread(change, row, record)
                except Reply as reply:
                    if reply.outcome is not None:  # a fresh screen of the unchanged game
                        reply.outcome.revision, reply.outcome.refs = row.version, record.refs
                    raise
                data = record.to_dict()
                new_status = status or self._status(record)
                if data == row.record and new_status == row.status:
                    saved = row  # nothing changed: nothing to write
                else:
                    seated = record.state is not None and (
                        before is None
                        or seats_before != [(x.user, x.computer) for x in record.seats]
                    )
                    try:
                        saved = await self.store.save_game(
                            game_id,
                            data,
                            expected_version=row.version,
                            status=new_status,
                            seats=seat_rows(record) if seated else None,
                            rounds=new_rounds(before, record),
                            result=new_result(before, record),
                        )
                    except StaleGame:
                        continue
                outcome.game_id = game_id
                outcome.names = {s.user: s.name for s in record.seats if s.user}
                outcome.platform = saved.platform
                outcome.chat_id = saved.chat_id
                outcome.revision = saved.version
                outcome.refs = record.refs
                self._after_save(game_id, record)
                return outcome
        raise Reply("The game is busy — try again.")

    def _after_save(self, game_id: int, record: Record) -> None:
        state = record.game()
        if state is None or state.phase == "game_over" or not record.humans():
            self._deadlines.pop(game_id, None)
            return
        if state.phase == "play" and record.seats[state.turn].is_computer:
            self._deadlines.pop(game_id, None)
            self._schedule_computers(game_id)
        elif state.phase == "play" and record.deadline is not None:
            warn = None if record.warned else record.deadline - record.turn_seconds / 2
            self._deadlines[game_id] = (record.deadline, warn)
        else:
            self._deadlines.pop(game_id, None)

    async def get_refs(self, game_id: int) -> dict[str, Any]:
        row = await self.store.get_game(game_id)
        return dict(row.record.get("refs", {})) if row else {}

    async def save_refs(self, game_id: int, updates: dict[str, Any]) -> None:
        """Adapters keep their message ids in the record (one live table message per game)."""
        async with self._lock(game_id):
            from bot.store import StaleGame

            for _ in range(5):
                row = await self.store.get_game(game_id)
                if row is None:
                    return
                record = dict(row.record)
                refs = dict(record.get("refs", {}))
                refs.update(updates)
                record["refs"] = refs
                try:
                    await self.store.save_game(game_id, record, expected_version=row.version)
                    return
                except StaleGame:
                    continue

    async def _deliver(self, outcome: Outcome) -> None:
        deliver = self.deliverers.get(outcome.platform)
        if deliver is None:
            return
        try:
            await deliver(outcome)
        except Exception:  # a failed delivery must not stop the game loop
            log.exception("delivery failed for game %s", outcome.game_id)

    # -- commands -----------------------------------------------------------------------

    async def new_game(self, actor: Actor, rulebook: str | None = None) -> Outcome:
        from bot.store import GameExists

        if actor.private:
            return Outcome(
                reply="Start a game in a group chat: add me to a group and send /newgame."
            )
        try:
            rules = get_rulebook(rulebook or "manipulation")
        except ValueError as error:
            return Outcome(reply=str(error), alert=True)
        existing = await self.store.active_game(actor.platform, actor.chat_id)
        if existing is not None:
            return Outcome(
                reply="There is already a game in this chat — see the message above "
                "(or the host can /endgame).",
                alert=True,
            )
        player_id = await self.store.player(actor.platform, actor.user, actor.name)
        record = Record(
            rulebook=rules.name,
            options=dict(rules.options),
            host=actor.user,
            seats=[SeatInfo(actor.name, actor.user, player_id)],
            seed=self.rng.randrange(2**31),
        )
        try:
            row = await self.store.create_game(actor.platform, actor.chat_id, record.to_dict())
        except GameExists:
            return Outcome(reply="There is already a game in this chat.", alert=True)
        out = Outcome(
            game_id=row.id,
            platform=actor.platform,
            chat_id=actor.chat_id,
            group=screens.lobby_screen(row.id, record),
            group_new=True,
            reply=f"New {rules.title} game. Join with the button!",
            revision=row.version,
            refs={},
        )
        return out

    async def press(self, actor: Actor, data: str) -> Outcome:
        """A button press. Answers stale, foreign and unknown buttons clearly."""
        parsed = unpack(data)
        if parsed is None:
            return Outcome(reply="That button is not from this bot.", alert=True)
        game_id, version, action = parsed
        try:
            player_id = None
            if action == "join":
                player_id = await self.store.player(actor.platform, actor.user, actor.name)
            return await self._mutate(
                game_id, lambda row, rec: self._press(row, rec, actor, version, action, player_id)
            )
        except Reply as reply:
            out = reply.outcome or Outcome()
            out.reply, out.alert = reply.text, reply.alert
            if out.private and out.game_id is None:
                out.game_id = game_id  # a fresh screen for a stale button must be delivered
            return out

    async def set_selection(
        self, actor: Actor, game_id: int, version: int, tokens: list[str]
    ) -> Outcome:
        """Select exactly these hand cards (a multi-select menu, as on Discord)."""

        def change(row: Any, record: Record) -> Outcome:
            if record.state is None or row.status != "playing":
                raise Reply("This game is not running.")
            state = GameState.from_dict(record.state)
            seat = record.seat_of(actor.user)
            if seat is None:
                raise Reply("These buttons belong to a player of this game.")
            if version != state.version or state.turn != seat or state.phase != "play":
                raise Reply(
                    "That menu is out of date — here is a fresh one.",
                    alert=False,
                    outcome=Outcome(
                        private={actor.user: screens.private_screen(row.id, record, state, seat)}
                    ),
                )
            ui = record.seat_ui(seat)
            hand = {c.token for c in player_view(state, seat).draft_hand}
            ui.selected = [t for t in tokens if t in hand]
            ui.notice = ""
            return Outcome(
                private={actor.user: screens.private_screen(row.id, record, state, seat)}
            )

        try:
            return await self._mutate(game_id, change)
        except Reply as reply:
            out = reply.outcome or Outcome()
            out.reply, out.alert = reply.text, reply.alert
            if out.private and out.game_id is None:
                out.game_id = game_id  # a fresh screen for a stale button must be delivered
            return out

    def _press(
        self,
        row: Any,
        record: Record,
        actor: Actor,
        version: int,
        action: str,
        player_id: int | None = None,
    ) -> Outcome:
        if row.status in ("finished", "ended"):
            raise Reply("This game is over. Start a new one with /newgame.")
        if record.state is None:
            return self._lobby_press(row, record, actor, action, player_id)
        state = GameState.from_dict(record.state)
        if action == "cards":
            seat = record.seat_of(actor.user)
            if seat is None:
                raise Reply("You're not playing in this game.")
            return Outcome(
                reply="I sent your cards in our private chat.",
                alert=False,
                private={actor.user: screens.private_screen(row.id, record, state, seat)},
                private_new={actor.user},
            )
        if action in ("next", "finish"):
            seat = record.seat_of(actor.user)
            if seat is None:
                raise Reply("Only the players can go on.")
            if version != state.version:
                raise Reply("That button is out of date.")
            act: Action = NextRound(seat) if action == "next" else Finish(seat)
            return self._engine(row.id, record, state, act, actor)
        if action == "noop":
            return Outcome()
        seat = record.seat_of(actor.user)
        if seat is None:
            raise Reply("These buttons belong to a player of this game.")
        if action == "sort" or action.startswith("pg:"):  # how I look at my hand, any time
            ui = record.seat_ui(seat)
            if action == "sort":
                ui.sort = "rank" if ui.sort == "suit" else "suit"
            else:
                ui.page = int(action[3:]) if action[3:].isdigit() else 0
            return Outcome(
                private={actor.user: screens.private_screen(row.id, record, state, seat)}
            )
        if version != state.version:
            fresh = screens.private_screen(row.id, record, state, seat)
            raise Reply(
                "That button is out of date — here are fresh ones.",
                alert=False,
                outcome=Outcome(private={actor.user: fresh}),
            )
        if state.phase != "play" or state.turn != seat:
            raise Reply("It's not your turn.")
        return self._turn_press(row.id, record, state, seat, actor, action)

    def _lobby_press(
        self, row: Any, record: Record, actor: Actor, action: str, player_id: int | None = None
    ) -> Outcome:
        is_host = actor.user == record.host
        if action.startswith(LOBBY_ONLY_HOST) and not is_host:
            raise Reply("Only the host can do that.")
        menu = ""
        reply = None
        if action == "join":
            if record.seat_of(actor.user) is not None:
                raise Reply("You're already seated.", alert=False)
            if len(record.seats) >= screens.MAX_SEATS:
                raise Reply("The table is full (5 seats).")
            record.seats.append(SeatInfo(actor.name, actor.user, player_id))
            reply = "You joined. I'll send your cards in our private chat."
        elif action == "leave":
            seat = record.seat_of(actor.user)
            if seat is None:
                raise Reply("You're not seated.", alert=False)
            record.seats.pop(seat)
            if actor.user == record.host:
                humans = record.humans()
                record.host = record.seats[humans[0]].user if humans else ""
            reply = "You left the table."
        elif action.startswith("menu:"):
            menu = action.split(":", 1)[1]
        elif action.startswith("cpu:"):
            level = action.split(":", 1)[1]
            if level not in screens.LEVELS:
                raise Reply("Unknown level.")
            if len(record.seats) >= screens.MAX_SEATS:
                raise Reply("The table is full (5 seats).")
            number = sum(1 for s in record.seats if s.is_computer) + 1
            record.seats.append(SeatInfo(f"Computer {number}", None, None, level))
        elif action.startswith("rb:"):
            rules = get_rulebook(action[3:])
            record.rulebook, record.options = rules.name, dict(rules.options)
            reply = f"Rulebook: {rules.title}"
        elif action.startswith("opt:"):
            _, key, value = action.split(":", 2)
            rules = get_rulebook(record.rulebook, **{**record.options, key: value})
            record.options = dict(rules.options)
            menu = "options"
        elif action.startswith("timer:"):
            record.turn_seconds = max(30, min(600, int(action.split(":")[1])))
            menu = "options"
        elif action == "start":
            return self._start(row, record)
        else:
            raise Reply("That button is not for the lobby.")
        return Outcome(reply=reply, alert=False, group=screens.lobby_screen(row.id, record, menu))

    async def play_computer(self, actor: Actor, rulebook: str, level: str = "medium") -> Outcome:
        """A real game against one computer seat, started at once in this chat (a finished
        lesson's [Play a real game], in the learner's private chat)."""
        from bot.store import GameExists

        rules = get_rulebook(rulebook)
        player_id = await self.store.player(actor.platform, actor.user, actor.name)
        record = Record(
            rulebook=rules.name,
            options=dict(rules.options),
            host=actor.user,
            seats=[
                SeatInfo(actor.name, actor.user, player_id),
                SeatInfo("Computer 1", None, None, level),
            ],
            seed=self.rng.randrange(2**31),
        )
        try:
            row = await self.store.create_game(actor.platform, actor.chat_id, record.to_dict())
        except GameExists:
            return Outcome(reply="There is already a game in this chat.", alert=True)
        return await self._mutate(row.id, lambda r, rec: self._start(r, rec))

    def _start(self, row: Any, record: Record) -> Outcome:
        if len(record.seats) < 2:
            raise Reply("A game needs at least 2 seats: invite someone or add a computer.")
        if not record.humans():
            raise Reply("At least one person must play.")
        state = new_game(record.rules, len(record.seats), record.seed)
        record.state = state.to_dict()
        record.add_log(f"{record.rules.title} started with {len(record.seats)} seats")
        self._turn_started(record, state)
        return self._full_outcome(row.id, record, state, reply="The game starts!", new=True)

    # -- turns --------------------------------------------------------------------------

    def _turn_press(
        self, game_id: int, record: Record, state: GameState, seat: int, actor: Actor, action: str
    ) -> Outcome:
        ui = record.seat_ui(seat)
        ui.notice = ""
        view = player_view(state, seat)
        hand = screens.sorted_hand(view.draft_hand, ui.sort)
        tokens = {c.token: c for c in hand}
        selected = [tokens[t] for t in ui.selected if t in tokens]
        head, _, arg = action.partition(":")

        def private_only() -> Outcome:
            return Outcome(
                private={actor.user: screens.private_screen(game_id, record, state, seat)}
            )

        if head in ("s1", "s0"):
            if arg not in tokens:
                raise Reply("That card is no longer in your hand.", alert=False)
            ui.selected = [t for t in ui.selected if t in tokens and t != arg]
            if head == "s1":
                ui.selected.append(arg)
            return private_only()
        if head == "sort":
            ui.sort = "rank" if ui.sort == "suit" else "suit"
            return private_only()
        if head == "pg":
            ui.page = int(arg) if arg.isdigit() else 0
            return private_only()
        if head == "cancel":
            ui.mode = "main"
            return private_only()
        if head in ("addm", "takem"):
            if head == "addm" and not selected:
                ui.notice = "Select the cards to add first."
                return private_only()
            ui.mode = "add" if head == "addm" else "take"
            return private_only()
        if head == "take":
            ui.mode = f"take:{arg}"
            return private_only()
        act: Action
        if head in ("new", "add"):
            if not selected:
                ui.notice = "Select cards first (tap them)."
                return private_only()
            act = Place(seat, tuple(selected), None if head == "new" else int(arg))
        elif head == "tc":
            group, _, token = arg.partition(":")
            act = Take(seat, int(group), Card.from_token(token))
        elif head == "auto":
            if not selected:
                ui.notice = "Select the cards to place, then tap Auto-place."
                return private_only()
            try:
                act = self._auto_place(state, seat, selected, ui.sort)
            except IllegalAction as error:
                ui.notice = f"✗ {error}"
                out = private_only()
                out.reply, out.alert = str(error), True
                return out
        elif head == "jk":
            group, _, faces = arg.partition(":")
            act = Commit(seat, None, {int(group): tuple(faces.split(","))})
        else:
            simple = {
                "done": Commit,
                "reset": Reset,
                "giveup": GiveUp,
                "draw": Draw,
                "pass": Pass,
                "knock": Knock,
                "hint": Hint,
            }
            if head not in simple:
                raise Reply("Unknown button.")
            act = simple[head](seat)
        ui.mode = "main"
        return self._engine(
            game_id, record, state, act, actor, clear_selection=head not in ("hint",)
        )

    def _auto_place(
        self, state: GameState, seat: int, selected: list[Card], sort: str
    ) -> Action:
        position = dict(
            rulebook=state.rules,
            table=state.table + [[c] for c in state.singles],
            hand=state.hands[seat],
            first_lay_done=state.first_lay_done[seat],
            singles=state.singles,
        )
        move = find_move(**position, select=selected)
        if move is not None:
            return SetDraft(seat, tuple(tuple(g) for g in move.new_table))
        partners: list[Card] = []
        if not any(c.is_joker for c in selected):  # which hand cards would let them go
            bigger = find_move(**position, objective="hint", require=selected,
                               effort=HINT_EFFORT)
            left = list(selected)
            for card in bigger.placed if bigger else ():
                same = next((c for c in left if c.face == card.face), None)
                if same is None:
                    partners.append(card)
                else:
                    left.remove(same)
        raise IllegalAction(cannot_place(selected, screens.sorted_hand(partners, sort)))

    def _engine(
        self,
        game_id: int,
        record: Record,
        state: GameState,
        act: Action,
        actor: Actor,
        *,
        clear_selection: bool = True,
    ) -> Outcome:
        """Apply one engine action for a person and describe what changed."""
        seat = act.seat
        ui = record.seat_ui(seat)
        try:
            new_state, events = apply(state, act)
        except JokerChoiceNeeded as ask:
            ui.mode = "joker"
            ui.joker_group = ask.group
            ui.joker_options = [list(o) for o in ask.options]
            ui.notice = str(ask)
            return Outcome(
                reply=str(ask),
                alert=False,
                private={actor.user: screens.private_screen(game_id, record, state, seat)},
            )
        except IllegalAction as error:
            ui.notice = f"✗ {error}"
            return Outcome(
                reply=str(error),
                alert=True,
                private={actor.user: screens.private_screen(game_id, record, state, seat)},
            )
        if clear_selection:
            ui.selected = []
        ui.joker_options = []
        record.seats[seat].timeouts = 0
        return self._advance(game_id, record, state, new_state, events)

    def _advance(
        self, game_id: int, record: Record, old: GameState, new: GameState, events: list
    ) -> Outcome:
        """Store the new state and build the screens that changed."""
        record.state = new.to_dict()
        for line in self._log_lines(record, events):
            record.add_log(line)
        turn_over = new.turn != old.turn or new.phase != old.phase or new.round != old.round
        table_changed = new.table != old.table or len(new.stock) != len(old.stock)
        if turn_over:
            self._turn_started(record, new)
            return self._full_outcome(game_id, record, new, new=True, events=events, old=old)
        out = Outcome()
        seat = new.turn
        user = record.seats[seat].user
        for event in events:
            if event.kind in ("reminder", "hint") and user:
                hint = event.private.get("hint")
                record.seat_ui(seat).notice = (
                    ("You must lay cards if you can. " if event.kind == "reminder" else "")
                    + hint_line(hint)
                    + (
                        " Tap Draw (or Pass) again to go ahead anyway."
                        if event.kind == "reminder"
                        else ""
                    )
                )
            if event.kind == "give_up_confirm":
                record.seat_ui(seat).notice = (
                    "Give up puts everything back and you draw 3 cards "
                    "— tap Give up (+3) again to confirm."
                )
            if event.kind == "drew" and user:
                cards = " ".join(
                    Card.from_token(t).pretty() for t in event.private.get("cards", [])
                )
                record.seat_ui(seat).notice = f"You drew {cards}."
        if user:
            out.private[user] = screens.private_screen(game_id, record, new, seat)
        if table_changed:
            out.group = screens.table_screen(game_id, record, new)
        return out

    def _full_outcome(
        self,
        game_id: int,
        record: Record,
        state: GameState,
        *,
        reply: str | None = None,
        new: bool = False,
        events: list | None = None,
        old: GameState | None = None,
    ) -> Outcome:
        out = Outcome(
            reply=reply,
            alert=False,
            group=screens.table_screen(game_id, record, state),
            group_new=new,
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
                user = record.seats[event.seat].user
                if user and not record.seats[event.seat].is_computer:
                    cards = " ".join(
                        Card.from_token(t).pretty() for t in event.private.get("cards", [])
                    )
                    if cards:
                        record.seat_ui(event.seat).notice = f"You drew {cards}."
                        out.private[user] = screens.private_screen(
                            game_id, record, state, event.seat
                        )
        return out

    def _turn_started(self, record: Record, state: GameState) -> None:
        record.warned = False
        if state.phase == "play" and not record.seats[state.turn].is_computer:
            record.deadline = self.clock() + record.turn_seconds
        else:
            record.deadline = None
        for ui in record.ui.values():
            ui.mode = "main"
            ui.selected = []

    def _log_lines(self, record: Record, events: list) -> list[str]:
        lines = []
        for e in events:
            who = screens.seat_label(record, e.seat) if e.seat is not None else ""
            if e.kind == "laid":
                cards = " ".join(Card.from_token(t).pretty() for t in e.data["placed"])
                how = " (rearranging the table)" if e.data.get("rearranged") else ""
                lines.append(f"{who} laid {cards}{how}")
            elif e.kind == "drew" and e.data.get("count"):
                n = e.data["count"]
                lines.append(f"{who} drew {n} card{'s' * (n != 1)}")
            elif e.kind == "passed":
                lines.append(f"{who} passed")
            elif e.kind == "knocked":
                lines.append(f"{who} knocked!")
            elif e.kind == "gave_up":
                lines.append(f"{who} gave up the move and drew {e.data['count']}")
        return lines

    # -- typed and slash commands --------------------------------------------------------

    async def command(self, actor: Actor, verb: str, args: str = "") -> Outcome:
        verb = verb.lower().lstrip("/").split("@")[0]
        try:
            return await self._command(actor, verb, args.strip())
        except Reply as reply:
            out = reply.outcome or Outcome()
            out.reply, out.alert = reply.text, reply.alert
            return out

    async def _command(self, actor: Actor, verb: str, args: str) -> Outcome:
        if verb in ("help", "start") and not (verb == "start" and args):
            return Outcome(reply=help_text(), alert=False)
        if verb == "start":  # deep link: /start join-<game>
            return Outcome(
                reply="Welcome! I'll send your cards here when your game starts.\n\n" + help_text(),
                alert=False,
            )
        if verb == "rules":
            try:
                return Outcome(reply=rules_text(args or None), alert=False)
            except ValueError as error:
                return Outcome(reply=str(error), alert=True)
        if verb in ("newgame", "new"):
            return await self.new_game(actor, args or None)
        if verb == "leaderboard":
            return Outcome(reply=await self.leaderboard(actor, args or None), alert=False)
        if verb == "stats":
            return Outcome(reply=await self.stats(actor, args or None), alert=False)
        if verb in ("join", "leave", "endgame", "end") and not actor.private:
            row = await self.store.active_game(actor.platform, actor.chat_id)
            if row is None:
                raise Reply("There is no game in this chat. Start one with /newgame.")
            if verb == "join":
                return (
                    await self.press(actor, pack(row.id, 0, "join"))
                    if row.status == "lobby"
                    else Outcome(reply="The game has started; join the next one.", alert=True)
                )
            if verb == "leave":
                return await self._leave(row.id, actor)
            return await self._end(row.id, actor)
        if verb in ("hand", "cards", "hint") or verb in TYPED_VERBS:
            row = await self._game_for(actor)
            if verb in ("hand", "cards"):
                return await self.press(actor, pack(row.id, 0, "cards"))
            return await self._mutate(row.id, lambda r, rec: self._typed(r, rec, actor, verb, args))
        raise Reply(f"Unknown command /{verb}. Try /help.", alert=False)

    async def _game_for(self, actor: Actor) -> Any:
        """The game a player means: this chat's, or (in private) the one where it's their turn."""
        if not actor.private:
            row = await self.store.active_game(actor.platform, actor.chat_id)
            if row is None:
                raise Reply("There is no game in this chat. Start one with /newgame.")
            return row
        player_id = await self.store.player(actor.platform, actor.user, actor.name)
        rows = [r for r in await self.store.games_for_player(player_id) if r.status == "playing"]
        if not rows:
            raise Reply("You're not in a running game. Join one in a group with /join.")
        for r in rows:
            rec = Record.from_dict(r.record)
            st = rec.state or {}
            if rec.seat_of(actor.user) == st.get("turn"):
                return r
        return rows[-1]

    def _typed(self, row: Any, record: Record, actor: Actor, verb: str, args: str) -> Outcome:
        if record.state is None:
            raise Reply("The game hasn't started yet.")
        state = GameState.from_dict(record.state)
        seat = record.seat_of(actor.user)
        if seat is None:
            raise Reply("You're not playing in this game.")
        if state.phase != "play" or state.turn != seat:
            raise Reply("It's not your turn.")
        ui = record.seat_ui(seat)
        ui.notice = ""  # as for a button: an old notice would read as this move's answer
        hand = screens.sorted_hand(player_view(state, seat).draft_hand, ui.sort)
        try:
            actions = parse_typed(seat, verb, args, hand)
        except TypedError as error:
            raise Reply(str(error)) from None
        out = Outcome()
        for act in actions:
            out = self._engine(row.id, record, state, act, actor)
            if out.alert:
                return out
            state = GameState.from_dict(record.state)
        if not out.reply:
            out.reply = "OK"
            out.alert = False
        return out

    async def _leave(self, game_id: int, actor: Actor) -> Outcome:
        def change(row, record: Record) -> Outcome:
            seat = record.seat_of(actor.user)
            if seat is None:
                raise Reply("You're not seated in this game.")
            if record.state is None:
                return self._lobby_press(row, record, actor, "leave")
            info = record.seats[seat]
            info.computer, info.was_human = "medium", True
            record.add_log(f"{info.name} left; a computer plays the seat")
            state = GameState.from_dict(record.state)
            if not record.humans():
                record.refs["ended"] = True
            out = self._full_outcome(
                row.id, record, state, reply="You left; a computer takes your seat."
            )
            out.private_notes[actor.user] = "You left the game; a computer plays your seat."
            return out

        return await self._mutate(game_id, change)

    async def _end(self, game_id: int, actor: Actor) -> Outcome:
        def change(row, record: Record) -> Outcome:
            if actor.user != record.host:
                raise Reply("Only the host can end the game.")
            record.add_log("The host ended the game")
            out = Outcome(reply="Game ended.", alert=False)
            state = record.game()
            if state is not None:
                out.group = screens.table_screen(row.id, record, state)
                out.group.buttons = []
                out.group.text = "🛑 The host ended the game.\n" + out.group.text
            else:
                out.group = screens.lobby_screen(row.id, record)
                out.group.buttons = []
                out.group.text = "🛑 The host closed the lobby."
            return out

        out = await self._mutate(game_id, change, status="ended")
        self._deadlines.pop(game_id, None)
        return out

    async def leaderboard(self, actor: Actor, rulebook: str | None) -> str:
        if rulebook:
            try:
                rulebook = get_rulebook(rulebook).name
            except ValueError as error:
                return str(error)
        chat = None if actor.private else actor.chat_id
        rows = await self.store.leaderboard(actor.platform, chat, rulebook)
        scope = "overall" if chat is None else "this chat"
        title = f"🏆 Leaderboard — {scope} · {rulebook.title() if rulebook else 'all rulebooks'}"
        if not rows:
            return title + "\nNo finished games yet."
        lines = [title]
        for i, r in enumerate(rows, 1):
            lines.append(
                f"{i}. {r.name}  rating {r.rating:.1f} · {r.games} games · "
                f"{r.wins:g} wins ({r.win_rate:.0%}) · avg {r.avg_points:.0f} pts"
            )
        lines.append("/leaderboard tahiti · /stats")
        return "\n".join(lines)

    async def stats(self, actor: Actor, rulebook: str | None) -> str:
        stats = await self.store.stats(actor.platform, actor.user, rulebook)
        if stats is None:
            return "No finished games for you yet."
        lines = [
            f"📊 {stats.name}: rating {stats.rating:.1f} · {stats.games} games · "
            f"{stats.wins:g} wins ({stats.win_rate:.0%}) · avg {stats.avg_points:.0f} pts"
        ]
        for when, rb, points, won in stats.history[:5]:
            lines.append(f"  {when:%Y-%m-%d} {rb}: {points} pts{' 🏆' if won else ''}")
        return "\n".join(lines)

    # -- computers and timers ------------------------------------------------------------

    def _schedule_computers(self, game_id: int) -> None:
        if self._stopped:
            return
        task = self._computer_tasks.get(game_id)
        if task is not None and not task.done():
            return
        task = self._computer_tasks[game_id] = asyncio.create_task(self._computer_loop(game_id))

        def forget(done: asyncio.Task) -> None:  # finished games must not pile up here
            if self._computer_tasks.get(game_id) is done:
                del self._computer_tasks[game_id]

        task.add_done_callback(forget)

    async def _computer_loop(self, game_id: int) -> None:
        while True:
            await asyncio.sleep(self.computer_delay)
            try:
                outcome = await self._mutate(game_id, self._computer_step)
            except Reply:
                return
            except Exception:
                log.exception("computer turn failed in game %s", game_id)
                return
            if outcome.reply == "idle":
                return
            await self._deliver(outcome)

    def _computer_step(self, row: Any, record: Record) -> Outcome:
        state = record.game()
        if (
            row.status != "playing"
            or state is None
            or state.phase != "play"
            or not record.seats[state.turn].is_computer
        ):
            return Outcome(reply="idle")
        seat = state.turn
        level = record.seats[seat].computer or "medium"
        action = choose_action(player_view(state, seat), level)
        new, events = apply(state, action)
        return self._advance(row.id, record, state, new, events)

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.tick)
            now = self.clock()
            for game_id, (deadline, warn) in list(self._deadlines.items()):
                if now < deadline and (warn is None or now < warn):
                    continue  # nothing due: no store read
                try:
                    await self._check_timer(game_id, deadline, now)
                except Exception:
                    log.exception("timer failed in game %s", game_id)

    async def _check_timer(self, game_id: int, deadline: float, now: float) -> None:
        row = await self.store.get_game(game_id)
        if row is None or row.status != "playing":
            self._deadlines.pop(game_id, None)
            return
        record = Record.from_dict(row.record)
        half = deadline - record.turn_seconds / 2
        if now >= deadline:
            outcome = await self._mutate(game_id, lambda r, rec: self._timeout(r, rec, deadline))
            await self._deliver(outcome)
        elif now >= half and not record.warned:
            outcome = await self._mutate(game_id, lambda r, rec: self._warn(r, rec, deadline))
            await self._deliver(outcome)
        else:  # nothing due after all (the record moved on): take its deadline and reminder
            self._after_save(game_id, record)

    def _warn(self, row: Any, record: Record, deadline: float) -> Outcome:
        state = record.game()
        if state is None or record.deadline != deadline or record.warned:
            return Outcome()
        record.warned = True
        seat = record.seats[state.turn]
        left = max(0, int(deadline - self.clock()))
        out = Outcome()
        if seat.user:
            out.private_notes[seat.user] = f"⏱ {left // 60}:{left % 60:02d} left for your turn."
        return out

    def _timeout(self, row: Any, record: Record, deadline: float) -> Outcome:
        state = record.game()
        if state is None or record.deadline != deadline or state.phase != "play":
            return Outcome()
        seat = state.turn
        info = record.seats[seat]
        old = state
        events: list = []
        # The computer finishes the turn for the absent player (a few actions at most).
        for _ in range(60):
            if state.phase != "play" or state.turn != seat:
                break
            action = choose_action(player_view(state, seat), "medium")
            state, evs = apply(state, action)
            events += evs
        info.timeouts += 1
        note = f"⏱ {info.name}'s time ran out — the computer played for {info.name}."
        if info.timeouts >= TIMEOUTS_BEFORE_COMPUTER:
            info.computer, info.was_human = "medium", True
            note += (
                f" After {TIMEOUTS_BEFORE_COMPUTER} time-outs in a row, a computer takes the seat."
            )
        record.add_log(note)
        out = self._advance(row.id, record, old, state, events)
        out.reply = note
        return out

