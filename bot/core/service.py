"""The adapter-neutral game service: commands and button presses in, outcomes out.

The front door of the core. It checks what comes from a chat (the strict button parser, fair
use, where a press comes from) and hands the work to the rooms: the unit of work (unit.py),
the lobby (lobby.py), commands (commands.py), the scheduler (scheduler.py: computer seats and
timers). A running game's own presses go to the hosted game (hosting.py; bot/games/).
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from bot import i18n
from bot.clock import Clock, as_clock
from bot.i18n import fill

from . import buttons, guard, narrate
from .actor import Actor
from .buttons import Press, pack
from .commands import MAX_TYPED, TOO_LONG_VERB, Command, Commands
from .fair_use import FairUse
from .hosting import HostedGame, Table
from .lobby import Lobby
from .notify import Notify
from .persist import GameExists
from .puzzles import PUZZLE_BUSY, PUZZLE_PRIVATE, TRY, Puzzles
from .record import Record, SeatInfo
from .rematch import Rematches
from .reviews import Reviews
from .scheduler import IDLE_SECONDS, JobScheduler, Scheduler
from .seasons import Seasons
from .titles import Titles
from .unit import WORK_TIMEOUT, Refusal, Reply, Unit, answer
from .views import Outcome, Where

log = logging.getLogger(__name__)

Deliver = Callable[[Outcome], Awaitable[None]]
# English, for tests and tools (code says narrate.NOT_OURS: the current language)
NOT_OURS = narrate.NOT_OURS
NOBODY_LEFT = narrate.NOBODY_LEFT
IDLE_CLOSED = narrate.IDLE_CLOSED
SORRY = narrate.SORRY

__all__ = [
    "IDLE_SECONDS", "NOT_OURS", "WORK_TIMEOUT", "Actor", "GameService", "Reply", "new_seed",
    "pack", "unpack",
]


def unpack(data: str) -> tuple[int, int, str] | None:
    """(game id, version, action) of a game button's data, strictly parsed; None if foreign."""
    press = buttons.parse(data)
    return None if press is None else (press.game_id, press.version, press.action)


def new_seed(rng: random.Random | None = None) -> int:
    """128 bits from `secrets`: nothing a player sees of a deal narrows down the seed (a
    31-bit seed was found from one 7-card hand by trying them all). Tests pass an rng."""
    return rng.getrandbits(128) if rng is not None else secrets.randbits(128)


class GameService:
    def __init__(
        self,
        store: Any,
        *,
        clock: Clock | Callable[[], float] | None = None,
        computer_delay: float = 1.2,
        tick: float = 1.0,
        rng: random.Random | None = None,
        retention_days: float = 90,
        lesson_retention_days: float = 30,
        games: Mapping[str, HostedGame],
    ) -> None:
        # the one clock (bot/core/clock.py): a bare `now` function still works (tests' fakes)
        self.time = as_clock(clock)
        clock = self.clock = self.time.now
        self.rng = rng  # None: deals from `secrets`
        # The games it hosts, from the composition root (bot.games.default_games()): the
        # platform names none.
        self.games = dict(games)
        self.default_game = next(iter(self.games.values()))
        for game in self.games.values():
            buttons.register(game.vocabulary)
        self.fair_use = FairUse(clock=self.time.monotonic)
        self.deliverers: dict[str, Deliver] = {}
        # called with (game id, record) after every saved change: the web table's pages
        self.watchers: list[Callable[[int, Record], None]] = []
        self.unit = Unit(store, self.games, clock, self._after_save)  # holds the store
        if hasattr(store, "keep_rows"):  # the one writer of a SQLite file reads rows from memory
            store.keep_rows()
        # Many workers on PostgreSQL share durable jobs; SQLite is one process, as ever.
        shared = getattr(store, "row_locks", False)
        self.scheduler = (JobScheduler if shared else Scheduler)(
            self.unit,
            self.deliver,
            clock=self.time,
            computer_delay=computer_delay,
            tick=tick,
            retention=retention_days * 86400,
            lesson_retention=lesson_retention_days * 86400,
        )
        # PostgreSQL: an outcome's delivery finished, its screens are no longer owed (the
        # adapters' deliveries call it); None on SQLite: one process owes nobody anything.
        outbox = getattr(store, "outbox", None) if shared else None
        if outbox is not None:
            outbox.time = self.time  # its lease times and flushes on the service's clock
        self.delivered: Callable[[int, int | None], None] | None = getattr(outbox, "done", None)
        self.titles = Titles(self.games)
        # platform -> a link that adds the bot to a group (Telegram's ?startgroup=)
        self.group_links: dict[str, str] = {}
        self.lobby = Lobby(self.unit)
        self.commands = Commands(self)
        self.reviews = Reviews(self)
        owner = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"
        self.seasons = Seasons(self.unit.store, self.deliver, clock, owner=owner)
        self.scheduler.sweeps.append(self.seasons.sweep)
        self.puzzles = Puzzles(self.unit.store, self.deliver, clock, owner, self.games,
                               self.unit.game_of, self._puzzle_try)
        self.unit.finished.append(self.puzzles.finished)
        self.scheduler.sweeps.append(self.puzzles.sweep)
        self.rematches = Rematches(self)
        self.notify = Notify(self)

    @property
    def store(self) -> Any:
        return self.unit.store

    def game_named(self, words: str | None) -> tuple[HostedGame, str | None]:
        """The hosted game and variant `words` name in any language (`build-to-ten`,
        `rummy carousel`, `רמיקוב`, `Руммикуб`); no words: the default game. Words naming
        nothing of ours are refused with the titles there are (never the engine's text)."""
        if not (words or "").strip():
            return self.default_game, None
        named = self.titles.find(words)
        if named is None:
            said = " ".join(i18n.strip_bidi(words).split())[:40]
            raise Refusal(fill(narrate.UNKNOWN_TITLE, name=said, titles=self.title_list()))
        return named.game, named.variant

    def welcome(self, actor: Actor) -> str:
        """A private chat's greeting: the lesson, a game here, a game in a group (with the
        platform's add-to-group link when it has one: bare, a bidi mark would enter the URL)."""
        link = self.group_links.get(actor.platform)
        game = self.default_game  # its example variant, by name and by title (as typed)
        title = {v.name: v.title for v in game.variants()}.get(game.example_variant, "")
        text = narrate.WELCOME_PRIVATE.format(lesson=game.example_variant, title=title)
        return text + ("\n" + narrate.ADD_TO_GROUP.format(link=link) if link else "")

    def title_list(self) -> str:
        """Every game's variants by title, in the reader's language: "Manipulation, …"."""
        return ", ".join(v.title for g in self.games.values() for v in g.variants())

    @property
    def typed_verbs(self) -> frozenset[str]:
        """Every typed move some hosted game reads (adapters route these to `command`)."""
        return frozenset().union(*(g.typed_verbs for g in self.games.values()))

    @property
    def retention(self) -> float:
        return self.scheduler.retention

    # -- life cycle ---------------------------------------------------------------------

    def register(self, platform: str, deliver: Deliver) -> None:
        self.deliverers[platform] = deliver

    async def start(self) -> None:
        """Resume every active game's computer turns and turn timers."""
        await self.scheduler.start()

    async def stop(self) -> None:
        """Stop the computer turns and the timers (first, before the adapters stop: their
        deliveries would fail). Games go on being saved; `start` resumes them."""
        await self.scheduler.stop()

    def _after_save(self, game_id: int, record: Record) -> None:
        self.scheduler.after_save(game_id, record)
        for watch in self.watchers:  # the web table's live pages (bot/web)
            try:
                watch(game_id, record)
            except Exception:  # a page's trouble never fails the change that was saved
                log.exception("watcher failed for game %s", game_id)

    async def deliver(self, outcome: Outcome) -> None:
        deliver = self.deliverers.get(outcome.platform)
        if deliver is None:
            return
        try:
            await deliver(outcome)
        except Exception:  # a failed delivery must not stop the game loop
            log.exception("delivery failed for game %s", outcome.game_id)

    async def get_refs(self, game_id: int) -> dict[str, Any]:
        """The game's delivery refs (message ids, posted-at, tokens…) as saved."""
        return await self.store.refs(game_id)

    async def save_refs(self, game_id: int, updates: dict[str, Any]) -> None:
        """Adapters keep their message ids in the store's delivery refs, beside the game row:
        saving one leaves the game's version alone (a press racing it never goes stale)."""
        await self.store.patch_refs(game_id, updates)

    @property
    def message_lock(self) -> Any:
        """For adapters' deliveries: a live message's lock across workers (PostgreSQL), or
        None (one process: its lanes order its messages)."""
        return self.store.message_lock if getattr(self.store, "row_locks", False) else None

    async def prune(self, now: float | None = None) -> dict[str, int]:
        return await self.scheduler.prune(now)

    async def close_idle(self, now: float | None = None) -> int:
        return await self.scheduler.close_idle(now)

    # -- opening a game -----------------------------------------------------------------

    async def new_game(self, actor: Actor, variant: str | None = None) -> Outcome:
        from bot.store import GameExists

        lang = await self.speak_to(actor)
        try:
            game, variant = self.game_named(variant)
        except Refusal as refusal:
            return answer(refusal)
        if actor.private:  # a rummy game against the computer here; the others in a group
            if game is self.default_game:
                return await self.play_computer(actor, variant or game.default_variant)
            return Outcome(reply=self.welcome(actor), alert=False)
        try:
            settings = game.settings(variant, {})
        except ValueError as error:
            return Outcome(reply=str(error), alert=True)
        if await self.store.active_game(actor.platform, actor.chat_id) is not None:
            return Outcome(reply=narrate.GAME_HERE, alert=True)
        player_id = await self.store.player(actor.platform, actor.user, actor.name)
        chosen = await self.store.chat_language(actor.platform, actor.chat_id)
        record = Record(
            rulebook=settings.variant,
            options=dict(settings.options),
            host=actor.user,
            seats=[SeatInfo(actor.name, actor.user, player_id, lang=lang)],
            seed=new_seed(self.rng),
            game_name=game.name,
            lang=chosen or lang,  # the group's choice, else the host's language
        )
        try:
            row = await self.store.create_game(actor.platform, actor.chat_id, record.to_dict())
        except GameExists:
            return Outcome(reply=narrate.GAME_HERE_SHORT, alert=True)
        try:  # /notify's calls: a lobby opens whatever happens to them
            calls = await self.notify.calls(actor, row.id, record, game)
        except Exception:
            log.exception("calls to play for game %s failed", row.id)
            calls = {}
        i18n.set_locale(lang)
        return Outcome(
            where=Where(row.id, actor.platform, actor.chat_id, row.version, refs={}),
            group=self.lobby.screen(row.id, record),
            group_new=True,
            reply=fill(narrate.NEW_GAME, title=settings.title),
            private_extras=calls,
            called=set(calls),
        )

    async def play_computer(self, actor: Actor, variant: str, level: str = "medium") -> Outcome:
        """A real game against one computer seat, started at once in this chat (a finished
        lesson's [Play a real game], in the learner's private chat)."""
        from bot.store import GameExists

        game = self.default_game
        settings = game.settings(variant, {})
        lang = await self.speak_to(actor)
        player_id = await self.store.player(actor.platform, actor.user, actor.name)
        record = Record(
            rulebook=settings.variant,
            options=dict(settings.options),
            host=actor.user,
            lang=lang,  # a game in the learner's private chat
            seats=[
                SeatInfo(actor.name, actor.user, player_id, lang=lang),
                SeatInfo(narrate.computer_name(1), None, None, level),
            ],
            seed=new_seed(self.rng),
            game_name=game.name,
        )
        try:
            row = await self.store.create_game(actor.platform, actor.chat_id, record.to_dict())
        except GameExists:
            return Outcome(reply=narrate.GAME_HERE_SHORT, alert=True)
        return await self.unit.mutate(row.id, lambda r, rec: self.lobby.start(r, rec))

    def fresh_seed(self) -> int:
        return new_seed(self.rng)

    async def rematch(self, actor: Actor, game_id: int, *, start: bool = False,
                      lang: str = "", everyone: bool = False) -> Outcome:
        """↻ Rematch, once a game is over (a chat's button, the web table's result panel): the
        presser is in; the same seats (a person's seat taken over by the computer is the
        person's again), game, rulebook and options start in the same chat when every person
        is in, or at once with those who are when the host presses ▶ Start now (`start`).
        The call lapses after a few minutes. The old game names the new one, so every page of
        it follows (bot/web). Once started, a press finds it made: nothing more
        (bot/core/rematch.py). `lang`: answer in it (a web page's language)."""
        return await self.rematches.press(actor, game_id, start=start, lang=lang,
                                          everyone=everyone)

    # -- lessons ------------------------------------------------------------------------

    def lesson_game(self) -> HostedGame | None:
        """The first hosted game that offers guided lessons (`offers_lessons`)."""
        return next((g for g in self.games.values() if g.offers_lessons), None)

    async def lesson(self, actor: Actor, words: str | None = None) -> Outcome:
        """/lesson [name] (and Telegram's ?start=lesson-<name>): a lesson is a variant of a
        hosted game, in a row of the learner's private chat. The lesson running here goes on
        (or the named one begins in its row); else the learner's last lesson row here, stopped
        or finished, is taken up again (one row per learner and chat, however often they
        switch); else a new row. Every change goes through the unit of work."""
        lang = await self.speak_to(actor)
        game = self.lesson_game()
        if game is None:
            return Outcome(reply=fill(narrate.UNKNOWN_VERB, verb="lesson"), alert=False)
        if not actor.private:
            return Outcome(reply=narrate.LESSON_PRIVATE)
        try:
            options = game.lesson_options(words)  # type: ignore[attr-defined]
        except ValueError as error:
            return Outcome(reply=str(error), alert=True)
        row = await self.store.active_game(actor.platform, actor.chat_id)
        if row is not None and not row.record.get("lesson"):
            return Outcome(reply=narrate.LESSON_GAME_HERE, alert=True)
        if row is not None and (options is None or options == row.record.get("options")):
            return await self.unit.mutate(row.id, lambda r, rec: self._lesson(
                r, rec, game, actor, lang, None))
        if row is None:  # the learner's last lesson here, stopped or finished: its row is reused
            row = await self.store.last_lesson(actor.platform, actor.chat_id)
            if row is not None and row.record.get("host") != actor.user:
                row = None
        if row is None:
            player_id = await self.store.player(actor.platform, actor.user, actor.name)
            record = Record(
                rulebook="lesson",
                host=actor.user,
                seats=[SeatInfo(actor.name, actor.user, player_id, lang=lang)],
                lesson={"form": 2},
                game_name=game.name,
                lang=lang,
            )
            try:
                row = await self.store.create_game(
                    actor.platform, actor.chat_id, record.to_dict())
            except GameExists:
                return Outcome(reply=narrate.LESSON_GAME_HERE, alert=True)
        begin = options or {}
        try:
            return await self.unit.mutate(row.id, lambda r, rec: self._lesson(
                r, rec, game, actor, lang, begin))
        except GameExists:
            return Outcome(reply=narrate.LESSON_GAME_HERE, alert=True)

    async def _puzzle_try(self, actor: Actor, learner: Actor, game: HostedGame,
                          data: dict[str, Any], where: dict[str, str]) -> Outcome:
        """A person's try at a chat's puzzle of the day (bot/core/puzzles.py): a row of their
        private chat (as a lesson's), the game deals the puzzle, their one try counts once."""
        lang = await self.speak_to(learner)
        player_id = await self.store.player(actor.platform, actor.user, actor.name)
        record = Record(host=actor.user, seats=[SeatInfo(actor.name, actor.user, player_id,
                                                         lang=lang)],
                        options={TRY: where}, game_name=game.name, lang=lang)
        try:
            row = await self.store.create_game(learner.platform, learner.chat_id,
                                               record.to_dict())
        except GameExists:  # a game or a lesson in their private chat goes on first
            return Outcome(reply=i18n._(PUZZLE_BUSY), alert=True)
        if not await self.store.begin_try(where["platform"], where["chat"], where["day"],
                                          actor.user, actor.name):  # a second press won
            await self.store.save_game(row.id, {**record.to_dict(), "ended": True},
                                       expected_version=row.version, status="ended")
            return Outcome(reply=i18n._(PUZZLE_BUSY), alert=True)
        await self.store.try_game(where["platform"], where["chat"], where["day"], actor.user,
                                  row.id)
        with i18n.using(lang):
            out = await self.unit.mutate(row.id, lambda r, rec: game.puzzle_try(
                self.unit.table(r, rec), data))
        if not out.reply:
            out.reply = i18n._(PUZZLE_PRIVATE)
        return out

    async def lesson_progress(self, actor: Actor) -> Any:
        """Where this learner's lesson in this chat stands (running, finished or stopped): its
        hosted state's progress, the game's own value (a terminal says where it stopped);
        None when there is none."""
        row = await self.store.last_lesson(actor.platform, actor.chat_id)
        if row is None or row.record.get("host") != actor.user:
            return None
        return (row.record.get("state") or {}).get("progress")

    def _lesson(self, row: Any, record: Record, game: HostedGame, actor: Actor, lang: str,
                options: dict[str, Any] | None) -> Outcome:
        """Resume (`options` None) or begin a lesson in this row, in the learner's language."""
        i18n.set_locale(lang)
        learner = record.seats[0]
        learner.name, learner.lang = actor.name, lang
        return game.lesson(self.unit.table(row, record), options)  # type: ignore[attr-defined]

    # -- presses ------------------------------------------------------------------------

    async def press(
        self, actor: Actor, press: Press | str | None, *, metered: bool = True,
        learner: Actor | None = None,
    ) -> Outcome:
        """A button press, decoded at the adapter's door (`buttons.parse`: None for anything
        that is not exactly one of this bot's buttons; a `str` — a test's or a tool's callback
        data — is decoded here by the same parser). Answers stale, foreign, forged and unknown
        buttons clearly, through the one guard (bot/core/guard.py). `metered=False`: the
        caller counted this press already."""
        if isinstance(press, str):
            press = buttons.parse(press)
        return await guard.guarded(actor.lang, f"press {press!r}",
                                   lambda: self._pressed(actor, press, metered, learner))

    async def _pressed(self, actor: Actor, press: Press | None, metered: bool,
                       learner: Actor | None) -> Outcome:
        if press is None:
            return Outcome(reply=narrate.NOT_OURS, alert=True)
        slow = metered and self.fair_use.check(actor.platform, actor.user, actor.chat_id)
        if slow:
            return Outcome(reply=slow, alert=True)
        player_id = None
        if press.verb == "review":  # reads the game, changes nothing: no save
            return await self.reviews.press(actor, press)
        if press.verb in ("rematch", "rmstart"):  # under a finished game's result
            return await self.rematch(actor, press.game_id, start=press.verb == "rmstart")
        if press.verb == "solve":  # under a chat's puzzle of the day; `learner`: the
            # presser in their private chat, as the adapter addresses it
            if learner is None:
                return Outcome(reply=narrate.NOT_OURS, alert=True)
            return await self.puzzles.solve(actor, learner, press.str())
        invited = False
        if press.verb == "join":  # the seat reads the person's chosen language
            player_id = await self.store.player(actor.platform, actor.user, actor.name)
            await self.speak_to(actor)
            invited = await self.notify.invited(actor, press.game_id)  # a /notify call
        try:
            out = await self.unit.mutate(
                press.game_id,
                lambda row, rec: self._press(row, rec, actor, press, player_id, invited),
            )
        except GameExists:  # a lesson taken up again while a game runs in its chat
            return Outcome(reply=narrate.LESSON_GAME_HERE, alert=True)
        if out.play_next:  # a finished lesson's [Play a real game], its row saved closed
            return await self.play_computer(actor, out.play_next)
        return out

    async def seat_change(
        self, game_id: int, user: str, lang: str, what: str,
        may: Callable[[Any, Record, int], bool],
        run: Callable[[HostedGame, Table, int], Outcome],
        slow: Callable[[], str | None] = lambda: None,
    ) -> Outcome:
        """A seated person's change of a running game (a menu's selection, a web page's edit)
        through the one guard (bot/core/guard.py): answered in `lang` (once the record is
        read: their seat's), `slow` metered first, the game running and `user` seated where
        `may` lets them act, then `run` by the game under the game's lock (`Unit.mutate`)."""

        def change(row: Any, record: Record) -> Outcome:
            seat = guard.seated(row, record, user, lang, lambda s: may(row, record, s))
            return run(self.unit.game_of(record), self.unit.table(row, record), seat)

        async def work() -> Outcome:
            said = slow()
            if said:
                return Outcome(reply=said, alert=True)
            return await self.unit.mutate(game_id, change)

        return await guard.guarded(lang, what, work)

    async def set_selection(
        self, actor: Actor, game_id: int, version: int, tokens: list[str],
        *, page: Sequence[str] | None = None,
    ) -> Outcome:
        """Select exactly these items of my private screen (a multi-select menu, as on
        Discord). `page`: what a page of a paged menu showed selected — `tokens` then replace
        only those, and the other pages' selection stays. One change, one save, one meter,
        however many items the menu changed."""
        tokens = tokens[:200]  # client-supplied: a hand never has more cards than this

        def may(row: Any, record: Record, seat: int) -> bool:
            return self.learner(row, record, actor, seat) or self.from_here(row, actor, seat)

        def run(game: HostedGame, table: Table, seat: int) -> Outcome:
            items = tokens
            if page is not None:
                dropped = set(page) - set(tokens)
                kept = [x for x in table.record.seat_ui(seat).selected if x not in dropped]
                items = kept + [x for x in tokens if x not in kept]
            return game.select(table, seat, actor.user, version, items)

        return await self.seat_change(
            game_id, actor.user, actor.lang, f"selection in game {game_id}", may, run,
            slow=lambda: self.fair_use.check(actor.platform, actor.user, actor.chat_id))

    @staticmethod
    def from_here(row: Any, actor: Actor, seat: int | None) -> bool:
        """A press counts only from where the game's buttons are: the game's own chat, or a
        seated player's private chat (the private screens). Data naming another chat's game
        is refused, so nobody joins or plays a game of a group they are not in."""
        if actor.chat_id == row.chat_id and actor.platform == row.platform:
            return True
        return actor.private and seat is not None and actor.platform == row.platform

    @staticmethod
    def learner(row: Any, record: Record, actor: Actor, seat: int | None) -> bool:
        """A lesson's one seat is the learner's wherever its screen is (Discord shows it
        ephemerally in a channel when their DMs are closed)."""
        return bool(record.lesson) and seat is not None and actor.platform == row.platform

    def _press(
        self, row: Any, record: Record, actor: Actor, press: Press, player_id: int | None = None,
        invited: bool = False,
    ) -> Outcome:
        verb = press.verb
        seat = record.seat_of(actor.user)
        guard.speak_as_seat(record, seat, actor.lang)
        # `invited`: [Join] of the person's /notify call, in their private chat (notify.py)
        called = invited and verb == "join"
        if not called and not self.learner(row, record, actor, seat) and not self.from_here(
                row, actor, seat if verb != "join" else None):
            raise Refusal(narrate.PLAYERS_ONLY if actor.private else narrate.OTHER_CHAT)
        if record.lesson and record.state is None:  # a lesson row not begun (or not carried)
            raise Refusal(narrate.NOT_OURS)
        if row.status in ("finished", "ended") and not record.lesson:
            raise Refusal(narrate.OVER)  # (a closed lesson still answers its menus: its game's)
        if record.state is None:
            return self.lobby.press(row, record, actor.user, actor.name, press, player_id)
        if verb in buttons.LOBBY:
            raise Refusal(
                narrate.STARTED_JOIN_NEXT if verb == "join" else narrate.OLD_LOBBY_BUTTON,
                alert=False,
            )
        game, table = self.unit.game_of(record), self.unit.table(row, record)
        if verb == "cards":
            if seat is None:
                raise Refusal(narrate.NOT_PLAYING)
            return Outcome(
                reply=narrate.CARDS_SENT,
                alert=False,
                private={actor.user: game.private_screen(table, seat)},
                private_new={actor.user},
            )
        if verb == "noop":
            return Outcome()
        return game.press(table, seat, actor.user, press)

    # -- typed and slash commands --------------------------------------------------------

    async def speak_to(self, actor: Actor) -> str:
        """The language to answer this person in: their /language choice, else their
        client's. Also the context's language from here on."""
        lang = await self.store.language(actor.platform, actor.user) or actor.lang
        i18n.set_locale(lang)
        return i18n.current()

    async def command(self, actor: Actor, command: Command | str, args: str = "") -> Outcome:
        """A typed command or move, decoded at the adapter's door (`Command.of`/`read`; a
        verb and its arguments as strings — a test's, a tool's — are decoded here alike)."""
        if isinstance(command, str):
            command = Command.of(command, args)
        return await guard.guarded(actor.lang, f"command /{command.verb}",
                                   lambda: self._command(actor, command))

    async def _command(self, actor: Actor, command: Command) -> Outcome:
        verb, args = command.verb, command.args
        if verb == TOO_LONG_VERB:
            return Outcome(reply=narrate.UNKNOWN_COMMAND, alert=False)
        if command.length > MAX_TYPED:
            return Outcome(
                reply=fill(narrate.TOO_LONG, length=command.length, limit=MAX_TYPED), alert=True
            )
        slow = self.fair_use.check(actor.platform, actor.user, actor.chat_id)
        if slow:
            return Outcome(reply=slow, alert=True)
        return await self.commands.run(actor, verb, args)

    async def leaderboard(self, actor: Actor, variant: str | None) -> str:
        await self.speak_to(actor)
        return await self.commands.leaderboard(actor, variant)

    async def stats(self, actor: Actor, variant: str | None) -> str:
        await self.speak_to(actor)
        return await self.commands.stats(actor, variant)

    async def stats_of(self, actor: Actor, variant: str | None) -> Outcome:
        """/stats of `actor` (Discord's /stats @member): the picture and its caption."""
        await self.speak_to(actor)
        return await self.commands.player_stats(actor, variant)
