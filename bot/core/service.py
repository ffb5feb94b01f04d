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
import secrets
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

from . import buttons, screens
from .buttons import Press, pack
from .fair_use import FairUse
from .names import clean_name
from .per_game import GameLocks
from .persist import new_result, new_rounds, seat_rows
from .record import TIMEOUTS_BEFORE_COMPUTER, Record, SeatInfo
from .texts import help_text, rules_text
from .typed import TYPED_VERBS, TypedError, cannot_place, parse_typed
from .views import Outcome, Screen

log = logging.getLogger(__name__)

Deliver = Callable[[Outcome], Awaitable[None]]
LOBBY_ONLY_HOST = frozenset({"menu", "cpu", "rb", "opt", "timer", "start"})
LOBBY_ANY_VERSION = frozenset({"join", "leave"})  # idempotent per person
WORK_TIMEOUT = 20.0  # seconds a change may compute in its worker thread before we give up
MAX_TYPED = 300  # characters of a typed move's arguments (Telegram allows 4,096)
MAX_VERB = 32
IDLE_SECONDS = 24 * 3600  # a game nobody touched for this long is closed
IDLE_SWEEP = 600  # seconds between looks for such games
NOT_OURS = "That button is not from this bot."
NOBODY_LEFT = "🛑 Nobody is left to play — the game is over."
IDLE_CLOSED = "⌛ Nobody has played here for a day — the game is closed. /newgame starts another."
SORRY = "Sorry, something went wrong there. The game is saved — please try again."


class Reply(Exception):
    """A user-facing answer that stops the command (nothing is saved)."""

    def __init__(self, text: str, *, alert: bool = True, outcome: Outcome | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.alert = alert
        self.outcome = outcome


def unpack(data: str) -> tuple[int, int, str] | None:
    """(game id, version, action) of a game button's data, strictly parsed; None if foreign."""
    press = buttons.parse(data)
    return None if press is None else (press.game_id, press.version, press.action)


def new_seed(rng: random.Random | None = None) -> int:
    """128 bits from `secrets`: nothing a player sees of a deal narrows down the seed (a
    31-bit seed was found from one 7-card hand by trying them all). Tests pass an rng."""
    return rng.getrandbits(128) if rng is not None else secrets.randbits(128)


def _answer(reply: Reply) -> Outcome:
    """The outcome of a command stopped by a Reply (a fresh screen, if it carries one)."""
    out = reply.outcome or Outcome()
    out.reply, out.alert = reply.text, reply.alert
    return out


@dataclass
class Actor:
    platform: str
    chat_id: str
    user: str
    name: str
    private: bool = False

    def __post_init__(self) -> None:
        # A display name is the client's: no bidi tricks, no passing for a computer seat.
        self.name = clean_name(self.name)


class GameService:
    def __init__(
        self,
        store: Any,
        *,
        clock: Callable[[], float] = time.time,
        computer_delay: float = 1.2,
        tick: float = 1.0,
        rng: random.Random | None = None,
        retention_days: float = 90,
        lesson_retention_days: float = 30,
    ) -> None:
        self.store = store
        self.clock = clock
        self.computer_delay = computer_delay
        self.tick = tick
        self.rng = rng  # None: deals from `secrets`
        self.fair_use = FairUse()
        # finished games keep their result (leaderboards) but lose their record after this
        self.retention = retention_days * 86400
        self.lesson_retention = lesson_retention_days * 86400
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
        """Resume every active game's computer turns and turn timers: only the games that have
        something scheduled, and only their due times are read (the ticker loads a game when
        its time comes)."""
        self._stopped = False
        for game_id, due in await self.store.scheduled_games():
            self._deadlines[game_id] = (due, None)
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
                if row.record.get("pruned"):  # a finished game past its retention period
                    raise Reply("This game is over. Start a new one with /newgame.")
                record = Record.from_dict(row.record)
                before = record.state
                seats_before = [(x.user, x.computer) for x in record.seats]
                try:
                    # A thread can't be stopped, but the game's lock is let go and the person
                    # answered: the engine's searches have work budgets, this is the backstop.
                    outcome = await asyncio.wait_for(
                        asyncio.to_thread(change, row, record), WORK_TIMEOUT
                    )
                except TimeoutError:
                    log.error("game %s: a change took over %s s", game_id, WORK_TIMEOUT)
                    raise Reply("That took too long — please try again.") from None
                except Reply as reply:
                    if reply.outcome is not None:  # a fresh screen of the unchanged game
                        out = reply.outcome
                        out.game_id, out.platform, out.chat_id = game_id, row.platform, row.chat_id
                        out.revision, out.refs = row.version, record.refs
                    raise
                actions: list[dict] = []
                if record.state is not None and record.state.get("actions"):
                    # The action log lives in its own table: the hot row stays the same size
                    # at turn 1,000 as at turn 1.
                    actions = record.state["actions"]
                    record.state = {**record.state, "actions": []}
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
                            actions=actions,
                            due_at=self._due(record, new_status),
                        )
                    except StaleGame:
                        continue
                outcome.game_id = game_id
                outcome.names = {s.user: s.name for s in record.seats if s.user}
                outcome.platform = saved.platform
                outcome.chat_id = saved.chat_id
                outcome.revision = saved.version
                outcome.refs = record.refs
                outcome.log = outcome.log or list(record.added)
                outcome.next_up = record.next_up(saved.status)
                self._after_save(game_id, record)
                return outcome
        raise Reply("The game is busy — try again.")

    def _due(self, record: Record, status: str) -> float | None:
        """When the game next needs background work (saved with the row, so a restarted
        worker reads only these times): a computer's move now, else the turn's reminder or
        deadline; None when nothing is scheduled."""
        state = record.state if status == "playing" else None  # (the dict: no card parsing)
        if state is None or state["phase"] != "play" or not record.humans():
            return None
        if record.seats[state["turn"]].is_computer:
            return self.clock()
        if record.deadline is None:
            return None
        return record.deadline if record.warned else record.deadline - record.turn_seconds / 2

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
            seed=new_seed(self.rng),
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

    async def press(self, actor: Actor, data: str, *, metered: bool = True) -> Outcome:
        """A button press. Answers stale, foreign, forged and unknown buttons clearly.
        `metered=False`: a later step of one interaction already counted (a Discord menu's
        picks arrive as several presses)."""
        press = buttons.parse(data)
        if press is None:
            return Outcome(reply=NOT_OURS, alert=True)
        slow = metered and self.fair_use.check(actor.platform, actor.user, actor.chat_id)
        if slow:
            return Outcome(reply=slow, alert=True)
        try:
            player_id = None
            if press.verb == "join":
                player_id = await self.store.player(actor.platform, actor.user, actor.name)
            return await self._mutate(
                press.game_id, lambda row, rec: self._press(row, rec, actor, press, player_id)
            )
        except Reply as reply:
            return _answer(reply)
        except Exception:  # never a traceback in chat; the game is as it was saved
            log.exception("press %r failed", data)
            return Outcome(reply=SORRY, alert=True)

    async def set_selection(
        self, actor: Actor, game_id: int, version: int, tokens: list[str]
    ) -> Outcome:
        """Select exactly these hand cards (a multi-select menu, as on Discord)."""

        def change(row: Any, record: Record) -> Outcome:
            if record.state is None or row.status != "playing":
                raise Reply("This game is not running.")
            state = GameState.from_dict(record.state)
            seat = record.seat_of(actor.user)
            if seat is None or not self._from_here(row, actor, seat):
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
            hand = {c.token for c in screens.placeable(player_view(state, seat), ui.sort)}
            ui.selected = [t for t in tokens if t in hand]
            ui.notice = ""
            return Outcome(
                private={actor.user: screens.private_screen(row.id, record, state, seat)}
            )

        tokens = tokens[:200]  # client-supplied: a hand never has more cards than this
        slow = self.fair_use.check(actor.platform, actor.user, actor.chat_id)
        if slow:
            return Outcome(reply=slow, alert=True)
        try:
            return await self._mutate(game_id, change)
        except Reply as reply:
            return _answer(reply)
        except Exception:
            log.exception("selection in game %s failed", game_id)
            return Outcome(reply=SORRY, alert=True)

    @staticmethod
    def _from_here(row: Any, actor: Actor, seat: int | None) -> bool:
        """A press counts only from where the game's buttons are: the game's own chat, or a
        seated player's private chat (the private screens). Data naming another chat's game
        is refused, so nobody joins or plays a game of a group they are not in."""
        if actor.chat_id == row.chat_id and actor.platform == row.platform:
            return True
        return actor.private and seat is not None and actor.platform == row.platform

    def _press(
        self,
        row: Any,
        record: Record,
        actor: Actor,
        press: Press,
        player_id: int | None = None,
    ) -> Outcome:
        verb, version = press.verb, press.version
        if record.lesson:
            raise Reply(NOT_OURS)
        seat = record.seat_of(actor.user)
        if not self._from_here(row, actor, seat if verb != "join" else None):
            raise Reply(
                "These buttons belong to a player of this game." if actor.private
                else "That button belongs to a game in another chat."
            )
        if row.status in ("finished", "ended"):
            raise Reply("This game is over. Start a new one with /newgame.")
        if record.state is None:
            return self._lobby_press(row, record, actor, press, player_id)
        if verb in buttons.LOBBY:
            raise Reply(
                "The game has started; join the next one." if verb == "join"
                else "That lobby button is from before the game started.",
                alert=False,
            )
        state = GameState.from_dict(record.state)
        if verb == "cards":
            if seat is None:
                raise Reply("You're not playing in this game.")
            return Outcome(
                reply="I sent your cards in our private chat.",
                alert=False,
                private={actor.user: screens.private_screen(row.id, record, state, seat)},
                private_new={actor.user},
            )
        if verb in ("next", "finish"):
            if seat is None:
                raise Reply("Only the players can go on.")
            if version != state.version:
                raise Reply("That button is out of date.")
            act: Action = NextRound(seat) if verb == "next" else Finish(seat)
            return self._engine(row.id, record, state, act, actor)
        if verb == "noop":
            return Outcome()
        if seat is None:
            raise Reply("These buttons belong to a player of this game.")
        if verb in ("sort", "pg"):  # how I look at my hand, any time
            ui = record.seat_ui(seat)
            if verb == "sort":
                ui.sort = "rank" if ui.sort == "suit" else "suit"
            else:
                ui.page = press.int()
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
        return self._turn_press(row.id, record, state, seat, actor, press)

    def _lobby_press(
        self, row: Any, record: Record, actor: Actor, press: Press, player_id: int | None = None
    ) -> Outcome:
        verb = press.verb
        if verb not in buttons.LOBBY:
            raise Reply("That button is not for the lobby.")
        if verb in LOBBY_ONLY_HOST and actor.user != record.host:
            raise Reply("Only the host can do that.")
        if verb not in LOBBY_ANY_VERSION and press.version != record.lobby_version:
            raise Reply(  # a double tap on "+ Computer" must not add two
                "That button is out of date — here is the lobby as it is now.",
                alert=False,
                outcome=Outcome(group=screens.lobby_screen(row.id, record)),
            )
        menu = ""
        reply = None
        if verb == "join":
            if record.seat_of(actor.user) is not None:
                raise Reply("You're already seated.", alert=False)
            if len(record.seats) >= screens.MAX_SEATS:
                raise Reply("The table is full (5 seats).")
            record.seats.append(SeatInfo(actor.name, actor.user, player_id))
            reply = "You joined. I'll send your cards in our private chat."
        elif verb == "leave":
            seat = record.seat_of(actor.user)
            if seat is None:
                raise Reply("You're not seated.", alert=False)
            record.seats.pop(seat)
            if actor.user == record.host:
                humans = record.humans()
                record.host = record.seats[humans[0]].user if humans else ""
            reply = "You left the table."
        elif verb == "menu":
            menu = press.str()
            if menu not in ("", "rulebook", "options", "computer"):
                raise Reply("That button is not for the lobby.")
        elif verb == "cpu":
            level = press.str()
            if level not in screens.LEVELS:
                raise Reply("Unknown level.")
            if len(record.seats) >= screens.MAX_SEATS:
                raise Reply("The table is full (5 seats).")
            number = sum(1 for s in record.seats if s.is_computer) + 1
            record.seats.append(SeatInfo(f"Computer {number}", None, None, level))
        elif verb == "rb":
            try:
                rules = get_rulebook(press.str())
            except ValueError as error:
                raise Reply(str(error)) from None
            record.rulebook, record.options = rules.name, dict(rules.options)
            reply = f"Rulebook: {rules.title}"
        elif verb == "opt":
            key, value = press.str(0), press.str(1)
            try:
                rules = get_rulebook(record.rulebook, **{**record.options, key: value})
            except (TypeError, ValueError) as error:
                raise Reply(str(error)) from None
            record.options = dict(rules.options)
            menu = "options"
        elif verb == "timer":
            record.turn_seconds = press.int()
            menu = "options"
        else:  # start
            return self._start(row, record)
        record.lobby_version += 1
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
            seed=new_seed(self.rng),
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
        self, game_id: int, record: Record, state: GameState, seat: int, actor: Actor,
        press: Press,
    ) -> Outcome:
        ui = record.seat_ui(seat)
        ui.notice = ""
        view = player_view(state, seat)
        tokens = {c.token: c for c in screens.placeable(view, ui.sort)}
        selected = [tokens[t] for t in ui.selected if t in tokens]
        head = press.verb

        def private_only() -> Outcome:
            return Outcome(
                private={actor.user: screens.private_screen(game_id, record, state, seat)}
            )

        if head in ("s1", "s0"):
            arg = press.str()
            if arg not in tokens:
                raise Reply("That card is no longer in your hand.", alert=False)
            ui.selected = [t for t in ui.selected if t in tokens and t != arg]
            if head == "s1":
                ui.selected.append(arg)
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
            ui.mode = f"take:{press.int()}"
            return private_only()
        act: Action
        if head in ("new", "add"):
            if not selected:
                ui.notice = "Select cards first (tap them)."
                return private_only()
            act = Place(seat, tuple(selected), None if head == "new" else press.int())
        elif head == "tc":
            act = Take(seat, press.int(0), Card.from_token(press.str(1)))
        elif head == "auto":
            if not selected:
                ui.notice = "Select the cards to place, then tap Auto-place."
                return private_only()
            mine = {c.token for c in view.draft_hand}
            selected = [c for c in selected if c.token in mine]  # it places hand cards
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
            act = Commit(seat, None, {press.int(0): tuple(press.str(1).split(","))})
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
        verb = verb[: MAX_VERB + 64].lower().lstrip("/").split("@")[0]
        if len(verb) > MAX_VERB:
            return Outcome(reply="Unknown command. Try /help.", alert=False)
        if len(args) > MAX_TYPED:
            return Outcome(
                reply=f"That's too long for a move ({len(args):,} characters; at most "
                f"{MAX_TYPED}). Try /help.",
                alert=True,
            )
        slow = self.fair_use.check(actor.platform, actor.user, actor.chat_id)
        if slow:
            return Outcome(reply=slow, alert=True)
        try:
            return await self._command(actor, verb, args.strip())
        except Reply as reply:
            return _answer(reply)
        except Exception:  # never a traceback in chat; the game is as it was saved
            log.exception("command /%s failed", verb)
            return Outcome(reply=SORRY, alert=True)

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
        if verb in ("join", "leave", "endgame", "end"):
            # In a private chat these mean the chat's own game (a finished lesson's [Play a
            # real game] opens one there): whoever can start a game there can end or leave it.
            row = await self.store.active_game(actor.platform, actor.chat_id)
            if row is not None and row.record.get("lesson"):
                raise Reply("This is a lesson: /quit stops it.")
            if row is None:
                raise Reply(
                    "Join a game in its group chat: /join there."
                    if actor.private and verb == "join"
                    else "There is no game in this chat. Start one with /newgame."
                )
            if verb == "join":
                return (
                    await self.press(actor, pack(row.id, 0, "join"))
                    if row.status == "lobby"
                    else Outcome(reply="The game has started; join the next one.", alert=True)
                )
            if verb == "leave":
                return await self._leave(row.id, actor)
            return await self._end(row.id, actor)
        if verb == "table":
            return await self._table(actor)
        if verb in ("hand", "cards", "hint") or verb in TYPED_VERBS:
            row = await self._game_for(actor)
            if verb in ("hand", "cards"):
                return await self.press(actor, pack(row.id, 0, "cards"))
            return await self._mutate(row.id, lambda r, rec: self._typed(r, rec, actor, verb, args))
        raise Reply(f"Unknown command /{verb}. Try /help.", alert=False)

    async def _table(self, actor: Actor) -> Outcome:
        """/table: the game's table (or lobby) posted again as the newest message, with its
        buttons — and the asker's own screen — so no lost message can strand a game."""
        row = await self._game_for(actor, running=False)

        def change(row: Any, record: Record) -> Outcome:
            seat = record.seat_of(actor.user)
            if not self._from_here(row, actor, seat):
                raise Reply("That game is in another chat.")
            state = record.game()
            if state is None:
                return Outcome(group=screens.lobby_screen(row.id, record), group_new=True)
            out = Outcome(group=screens.table_screen(row.id, record, state), group_new=True)
            out.log = record.log[-5:]  # for context: how the game got here
            if seat is not None:
                out.private[actor.user] = screens.private_screen(row.id, record, state, seat)
                out.private_new.add(actor.user)
            return out

        return await self._mutate(row.id, change)

    async def _game_for(self, actor: Actor, *, running: bool = True) -> Any:
        """The game a player means: this chat's, or (in private) the one where it's their turn."""
        if not actor.private:
            row = await self.store.active_game(actor.platform, actor.chat_id)
            if row is None:
                raise Reply("There is no game in this chat. Start one with /newgame.")
            return row
        player_id = await self.store.player(actor.platform, actor.user, actor.name)
        rows = [
            r for r in await self.store.games_for_player(player_id)
            if r.status == "playing" or (not running and r.status == "lobby")
        ]
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
                return self._lobby_press(
                    row, record, actor, Press(row.id, record.lobby_version, "leave")
                )
            info = record.seats[seat]
            info.computer, info.was_human = "medium", True
            record.add_log(f"{info.name} left; a computer plays the seat")
            state = GameState.from_dict(record.state)
            out = self._full_outcome(
                row.id, record, state, reply="You left; a computer takes your seat."
            )
            if not record.humans():
                out.group = self._close(row.id, record, NOBODY_LEFT)
            out.private_notes[actor.user] = "You left the game; a computer plays your seat."
            return out

        return await self._mutate(game_id, change)

    async def _end(self, game_id: int, actor: Actor) -> Outcome:
        def change(row, record: Record) -> Outcome:
            if actor.user != record.host:
                raise Reply("Only the host can end the game.")
            record.add_log("The host ended the game")
            out = Outcome(reply="Game ended.", alert=False)
            out.group = self._close(
                row.id, record,
                "🛑 The host ended the game." if record.state else "🛑 The host closed the lobby.",
            )
            return out

        out = await self._mutate(game_id, change, status="ended")
        self._deadlines.pop(game_id, None)
        return out

    @staticmethod
    def _close(game_id: int, record: Record, why: str) -> Screen:
        """End the game (status "ended" when saved) and the group's last screen: no buttons."""
        record.refs["ended"] = True
        state = record.game()
        if state is None:
            screen = screens.lobby_screen(game_id, record)
            screen.text = why
        else:
            screen = screens.table_screen(game_id, record, state)
            screen.text = why + "\n" + screen.text
        screen.buttons = []
        return screen

    async def prune(self, now: float | None = None) -> dict[str, int]:
        """Slim finished games older than the retention period (their results stay) and drop
        old lessons."""
        from datetime import UTC, datetime

        now = self.clock() if now is None else now
        done = await self.store.prune(
            datetime.fromtimestamp(now - self.retention, UTC),
            datetime.fromtimestamp(now - self.lesson_retention, UTC),
        )
        if any(done.values()):
            log.info("pruned: %s", done)
        return done

    async def close_idle(self, now: float | None = None) -> int:
        """Close the games nobody has touched for IDLE_SECONDS (lobbies, games, lessons), each
        with a last message in its chat; how many were closed."""
        from datetime import UTC, datetime

        now = self.clock() if now is None else now
        closed = 0
        for game_id in await self.store.idle_games(
            datetime.fromtimestamp(now - IDLE_SECONDS, UTC)
        ):
            def change(row: Any, record: Record) -> Outcome:
                if row.status not in ("lobby", "playing"):
                    return Outcome()
                if record.lesson:  # a lesson just stops; /lesson resumes nothing
                    record.refs["ended"] = True
                    return Outcome()
                return Outcome(group=self._close(row.id, record, IDLE_CLOSED))

            try:
                out = await self._mutate(game_id, change, status="ended")
            except Reply:
                continue
            self._deadlines.pop(game_id, None)
            closed += 1
            await self._deliver(out)
        return closed

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
        next_sweep = self.clock() + 60
        while True:
            await asyncio.sleep(self.tick)
            now = self.clock()
            if now >= next_sweep:
                next_sweep = now + IDLE_SWEEP
                try:
                    await self.close_idle(now)
                    await self.prune(now)
                except Exception:
                    log.exception("closing idle games or pruning failed")
            for game_id, (deadline, warn) in list(self._deadlines.items()):
                if now < deadline and (warn is None or now < warn):
                    continue  # nothing due: no store read
                try:
                    await self._check_timer(game_id, deadline, now)
                except Exception:
                    log.exception("timer failed in game %s", game_id)

    async def _check_timer(self, game_id: int, due: float, now: float) -> None:
        row = await self.store.get_game(game_id)
        if row is None or row.status != "playing":
            self._deadlines.pop(game_id, None)
            return
        record = Record.from_dict(row.record)
        state = record.game()
        deadline = record.deadline
        if state is None or deadline is None or record.seats[state.turn].is_computer:
            self._after_save(game_id, record)  # a computer's turn (after a restart), or nothing
            return
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
        if not record.humans():  # nothing would ever be scheduled for this game again
            out.group = self._close(row.id, record, NOBODY_LEFT)
        return out

