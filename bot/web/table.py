"""The web table as an adapter of the game service: a page's session, its view, its edits.

An edit goes the way a button press goes: metered first (the service's fair use, per person
and per chat), then one change under the game's lock (`Unit.mutate`: the row lock on
PostgreSQL, the version on SQLite) made by the game's `web_edit` — the same draft edits and
presses the chat buttons make, on the same private copy. Its outcome is delivered to the
game's chat platform (the group's table, the private chat) like a press's; the pages of the
game hear of every saved change through the service's watchers (`Hub`).

Who gets in (`join`): a seat's page always (its own oldest page makes way past `seat_pages`);
a watcher's page while its game, its address and the worker have room (`Limits`). A seat's
message is metered as the person's press; a watcher's by its own connection's bucket and its
address's, so one watcher's flood is that watcher's problem alone.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot import i18n
from bot.clock import Clock
from bot.core import narrate
from bot.core.actor import Actor
from bot.core.fair_use import SLOW_DOWN, Buckets
from bot.core.guard import guarded
from bot.core.hosting import HostedGame, Table
from bot.core.record import Record
from bot.core.service import GameService
from bot.core.unit import Refusal
from bot.core.views import Outcome

from .auth import Session
from .protocol import Edit

log = logging.getLogger(__name__)

SPECTATOR_CHAT = "web"  # the fair-use chat key of a game's pages (`web:<game>`)


@dataclass(frozen=True)
class Limits:
    """What one worker lets in and how fast (the attack tests' numbers; a watcher's page says
    hello when it opens and after a reconnect, and nothing else that does work)."""

    watchers_per_game: int = 64
    watchers_per_address: int = 16  # over all games: a household, not a botnet's node
    watchers: int = 5_000  # on the worker (about 20 KB each)
    seat_pages: int = 8  # one person's pages of one game (tabs, devices)
    watcher_rate: float = 1.0  # messages a second, each watcher's page...
    watcher_burst: int = 10
    address_rate: float = 4.0  # ...and all the watchers' pages of one address
    address_burst: int = 40
    door_rate: float = 2.0  # session exchanges and socket opens, an address's (server.py)
    door_burst: int = 30


LIMITS = Limits()


@dataclass(eq=False)
class Page:
    """One open page: who it speaks for and the newest frame owed to it (newest wins).
    `address`: where it connected from (the watchers' caps and meter); `seated`: it speaks for
    a seat now (kept up as the game changes); `watching`: it came in as a watcher (the caps
    it counts in); `evicted`: a newer page of the same seat took its place."""

    session: Session
    send: Callable[[dict], Any]  # an async sender of one JSON frame
    address: str = ""
    owed: dict | None = None
    owed_text: str | None = None  # `owed` as JSON, when it was written once for many pages
    wake: Any = field(default_factory=asyncio.Event)  # .set(): a frame is owed (server.Wake)
    sent_version: int = -1
    seated: bool = False
    watching: bool = False
    evicted: bool = False
    meter: Buckets | None = None  # a watcher's own bucket


class WebTable:
    def __init__(self, service: GameService, *, limits: Limits = LIMITS) -> None:
        self.service = service
        self.limits = limits
        self.time: Clock = service.time  # the meters' clock (tests hold it still)
        self.pages: dict[int, set[Page]] = {}
        self.seats: dict[tuple[int, str, str], list[Page]] = {}  # a seat's pages, oldest first
        self.watchers_of: Counter[int] = Counter()  # game -> watchers' pages
        self.watchers_at: Counter[str] = Counter()  # address -> watchers' pages
        self.watching = 0  # watchers' pages on this worker
        self.addresses = Buckets(limits.address_rate, limits.address_burst,
                                 clock=lambda: self.time.monotonic())
        service.watchers.append(self.saved)

    # -- views --------------------------------------------------------------------------

    def seat_of(self, session: Session, record: Record) -> int | None:
        """The seat a session speaks for: its own, found by its user; None: it watches."""
        if not session.user:
            return None
        return record.seat_of(session.user)

    async def sits(self, platform: str, user: str, game: int) -> bool:
        """Whether this person has a seat at `game` (a seat needs no watch link)."""
        row = await self.service.store.get_game(game)
        return row is not None and row.platform == platform and Record.from_dict(
            row.record).seat_of(user) is not None

    def frame(self, session: Session, record: Record) -> dict:
        """The state frame a session's page gets: its seat's view, or the spectator's."""
        if record.lesson:  # a lesson lives in its chat only
            return {"t": "gone"}
        if record.state is None:
            return {"t": "state", "view": None, "lobby": True}
        game = self.service.unit.game_of(record)
        seat = self.seat_of(session, record)
        # the page's language, as its words are (the session's; else the seat's, the group's)
        lang = i18n.supported(session.lang) or (
            record.lang_of(seat) if seat is not None else record.lang)
        with i18n.using(lang):
            frame = {"t": "state", "view": game.web_view(record, seat)}
        if record.deadline is not None and not record.ended:
            # the turn timer: seconds left by the server's clock (a page's clock may be off)
            frame["left"] = max(0, round(record.deadline - self.service.clock()))
        if record.rematch is not None:  # ↻ Rematch made: the page follows (Follow)
            frame["rematch"] = record.rematch
        if seat is not None and game.offers_review:
            # 🔎 Review once a round is over: the seat's own (a spectator is offered none)
            frame["review"] = len(game.rounds(record.state))
        return frame

    async def game_of(self, platform: str, user: str, name: str) -> int | None:
        """The newest game still on in which this person sits (the bot's menu button opens
        the page with no game named), or None."""
        store = self.service.store
        games = await store.games_for_player(await store.player(platform, user, name))
        games = [g for g in games if not g.record.get("lesson")]  # (a lesson has no table)
        return games[-1].id if games else None

    async def current(self, session: Session) -> dict:
        row = await self.service.store.get_game(session.game)
        if row is None or (row.platform != session.platform and session.user):
            return {"t": "gone"}
        return self.frame(session, Record.from_dict(row.record))

    # -- live pages ---------------------------------------------------------------------

    async def join(self, page: Page) -> bool:
        """Let a page in (False: the watchers' caps are full). A seat's page always gets in;
        past `seat_pages` of the same seat its oldest is evicted (its socket closes)."""
        session, limits = page.session, self.limits
        page.seated = bool(session.user) and await self.sits(session.platform, session.user,
                                                             session.game)
        if page.seated:
            mine = self.seats.setdefault((session.game, session.platform, session.user), [])
            mine.append(page)
            while len(mine) > limits.seat_pages:
                old = mine.pop(0)
                old.evicted = True
                old.wake.set()
        elif (self.watchers_of[session.game] >= limits.watchers_per_game
              or self.watchers_at[page.address] >= limits.watchers_per_address
              or self.watching >= limits.watchers):
            return False
        else:
            page.watching = True
            page.meter = Buckets(limits.watcher_rate, limits.watcher_burst, keys=1,
                                 clock=lambda: self.time.monotonic())
            self.watchers_of[session.game] += 1
            self.watchers_at[page.address] += 1
            self.watching += 1
        self.pages.setdefault(session.game, set()).add(page)
        return True

    def leave(self, page: Page) -> None:
        game = page.session.game
        pages = self.pages.get(game)
        if pages is None or page not in pages:
            return
        pages.discard(page)
        if not pages:
            del self.pages[game]
        if page.watching:
            _less(self.watchers_of, game)
            _less(self.watchers_at, page.address)
            self.watching -= 1
            return
        key = (game, page.session.platform, page.session.user)
        mine = self.seats.get(key, [])
        if page in mine:
            mine.remove(page)
        if not mine:
            self.seats.pop(key, None)

    def saved(self, game_id: int, record: Record) -> None:
        """A change of `game_id` was saved: every page of it is owed its new frame. A frame
        depends on the page's seat and language alone, so pages alike (a group's watchers, a
        seat open twice) share one view, built and written as JSON once (issue 38)."""
        built: dict[tuple[int | None, str], tuple[dict, str]] = {}
        for page in list(self.pages.get(game_id, ())):
            key = (self.seat_of(page.session, record), page.session.lang)
            try:
                if key not in built:
                    frame = self.frame(page.session, record)
                    built[key] = frame, json.dumps(frame)
                page.owed, page.owed_text = built[key]
            except Exception:
                log.exception("web view of game %s failed", game_id)
                continue
            # (one who joined the game since: metered as a seat; one who left: as a watcher)
            page.seated = self.seat_of(page.session, record) is not None
            page.wake.set()

    async def changed_elsewhere(self, game_id: int) -> None:
        """Another worker saved `game_id` (LISTEN/NOTIFY): re-read it for this worker's pages."""
        if game_id not in self.pages:
            return
        row = await self.service.store.get_game(game_id)
        if row is not None:
            self.saved(game_id, Record.from_dict(row.record))

    # -- the review ---------------------------------------------------------------------

    async def review(self, session: Session) -> dict:
        """🔎 Review on the page: the page's own seat's review of the last round over, through
        the platform's review path (bot/core/reviews.py: who may ask, the seat's own views);
        its text and picture as a frame for this page alone. A spectator gets none."""
        i18n.set_locale(session.lang)
        if not session.user:
            return {"t": "reply", "text": narrate.PLAYERS_ONLY, "alert": True}
        row = await self.service.store.get_game(session.game)
        if row is None or row.platform != session.platform:
            return {"t": "gone"}
        # the page speaks from the game's own chat (its link was made there)
        actor = Actor(row.platform, row.chat_id, session.user, session.name)
        out = await guarded(session.lang, f"web review of game {session.game}",
                            lambda: self.service.reviews.answer(row, actor, None))
        screens = out.private_extras.get(session.user, [])
        if not screens:
            return {"t": "reply", "text": out.reply or "", "alert": True}
        painted = next((s for s in screens if s.painter is not None), None)
        image = await asyncio.to_thread(lambda: painted.image) if painted else None
        return {"t": "review", "text": screens[-1].text,
                "image": ("data:image/png;base64," + base64.b64encode(image).decode())
                if image else None}

    # -- the rematch ------------------------------------------------------------------

    async def successor(self, session: Session) -> Session | None:
        """The session of the same person (or watcher) at the game's rematch, if it has one."""
        row = await self.service.store.get_game(session.game)
        if row is None or (row.platform != session.platform and session.user):
            return None
        following = row.record.get("rematch")
        if not isinstance(following, int):
            return None
        return replace(session, game=following)

    # A page's ↻ Rematch is the person's "I'm in" (the chats' call, bot/core/rematch.py);
    # True: it starts the rematch at once with every seat (a party's host, bot/web/party.py)
    rematch_at_once = False

    async def rematch(self, session: Session) -> Outcome:
        """↻ Rematch from the page: the platform's own (bot/core/service.py)."""
        row = await self.service.store.get_game(session.game)
        if row is None or row.platform != session.platform:
            raise Refusal(narrate.GONE)
        actor = Actor(row.platform, row.chat_id, session.user, session.name)
        return await self.service.rematch(actor, session.game, lang=session.lang,
                                          start=self.rematch_at_once,
                                          everyone=self.rematch_at_once)

    # -- edits --------------------------------------------------------------------------

    def meter(self, page: Page) -> str | None:
        """A page's message counted (None: go on; else "slow down"): a seat's like the
        person's press; a watcher's by its page's own bucket and by its address's."""
        session = page.session
        if page.seated or page.meter is None:
            return self.service.fair_use.check(session.platform or "web", session.user,
                                               f"{SPECTATOR_CHAT}:{session.game}")
        if page.meter.take("") and self.addresses.take(page.address):
            return None
        return i18n._(SLOW_DOWN)

    async def edit(self, session: Session, edit: Edit) -> dict:
        """Make one page edit through the platform's one guard (its language, a running game,
        a seat of the page's platform; refusals answered); the reply frame (the new state
        reaches the page by `saved`). The chats get the screens."""
        service = self.service

        def may(row: Any, record: Record, seat: int) -> bool:
            return row.platform == session.platform

        def run(game: HostedGame, table: Table, seat: int) -> Outcome:
            return game.web_edit(table, seat, session.user, edit)

        async def spectator() -> Outcome:
            raise Refusal(narrate.PLAYERS_ONLY)

        what = f"web edit in game {session.game}"
        if not session.user:
            out = await guarded(session.lang, what, spectator)
        elif edit.op == "act" and edit.name == "rematch":
            out = await guarded(session.lang, what, lambda: self.rematch(session))
        else:
            out = await service.seat_change(session.game, session.user, session.lang, what,
                                            may, run)
        reply = {"t": "reply", "text": out.reply or "", "alert": bool(out.alert)}
        if out.game_id is not None:
            out.reply = None  # said on the page; the chats get the screens
            await service.deliver(out)  # (it logs a delivery's failure and goes on)
        return reply


def _less(counts: Counter, key: Any) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]
