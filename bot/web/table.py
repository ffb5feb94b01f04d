"""The web table as an adapter of the game service: a page's session, its view, its edits.

An edit goes the way a button press goes: metered first (the service's fair use, per person
and per chat), then one change under the game's lock (`Unit.mutate`: the row lock on
PostgreSQL, the version on SQLite) made by the game's `web_edit` — the same draft edits and
presses the chat buttons make, on the same private copy. Its outcome is delivered to the
game's chat platform (the group's table, the private chat) like a press's; the pages of the
game hear of every saved change through the service's watchers (`Hub`).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from bot import i18n
from bot.core import narrate
from bot.core.actor import Actor
from bot.core.record import Record
from bot.core.service import GameService
from bot.core.unit import Refusal, answer
from bot.core.views import Outcome

from .auth import Session
from .protocol import Edit

log = logging.getLogger(__name__)

MAX_SOCKETS_PER_GAME = 64  # seats and spectators of one game on one worker
SPECTATOR_CHAT = "web"  # the fair-use chat key of pages that speak for nobody


@dataclass(eq=False)
class Page:
    """One open page: who it speaks for and the newest frame owed to it (newest wins)."""

    session: Session
    send: Callable[[dict], Any]  # an async sender of one JSON frame
    owed: dict | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    sent_version: int = -1


class WebTable:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.pages: dict[int, set[Page]] = {}
        service.watchers.append(self.saved)

    # -- views --------------------------------------------------------------------------

    def seat_of(self, session: Session, record: Record) -> int | None:
        """The seat a session speaks for: its own, found by its user; None: it watches."""
        if not session.user:
            return None
        return record.seat_of(session.user)

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
        if record.rematch is not None:  # ↻ Rematch made: the page follows (Follow)
            frame["rematch"] = record.rematch
        if seat is not None and hasattr(game, "review"):
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

    def join(self, page: Page) -> bool:
        pages = self.pages.setdefault(page.session.game, set())
        if len(pages) >= MAX_SOCKETS_PER_GAME:
            return False
        pages.add(page)
        return True

    def leave(self, page: Page) -> None:
        pages = self.pages.get(page.session.game)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[page.session.game]

    def saved(self, game_id: int, record: Record) -> None:
        """A change of `game_id` was saved: every page of it is owed its new frame."""
        for page in list(self.pages.get(game_id, ())):
            try:
                page.owed = self.frame(page.session, record)
            except Exception:
                log.exception("web view of game %s failed", game_id)
                continue
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
        try:
            out = await self.service.reviews.answer(row, actor, None)
        except Refusal as refusal:
            out = answer(refusal)
        except Exception:
            log.exception("web review of game %s failed", session.game)
            out = Outcome(reply=narrate.SORRY, alert=True)
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

    async def rematch(self, session: Session) -> Outcome:
        """↻ Rematch from the page: the platform's own (bot/core/service.py)."""
        row = await self.service.store.get_game(session.game)
        if row is None or row.platform != session.platform:
            raise Refusal(narrate.GONE)
        actor = Actor(row.platform, row.chat_id, session.user, session.name)
        return await self.service.rematch(actor, session.game)

    # -- edits --------------------------------------------------------------------------

    def meter(self, session: Session) -> str | None:
        """A page's message counted like a press (None: go on; else "slow down")."""
        user = session.user or "spectator"
        return self.service.fair_use.check(session.platform or "web", user,
                                           f"{SPECTATOR_CHAT}:{session.game}")

    async def edit(self, session: Session, edit: Edit) -> dict:
        """Make one page edit; the reply frame (the new state reaches the page by `saved`)."""
        service = self.service
        i18n.set_locale(session.lang)
        if not session.user:
            return {"t": "reply", "text": narrate.PLAYERS_ONLY, "alert": True}

        def change(row: Any, record: Record) -> Outcome:
            seat = record.seat_of(session.user)
            if seat is not None:
                i18n.set_locale(record.lang_of(seat))
            if record.state is None or row.status != "playing":
                    raise Refusal(narrate.NOT_RUNNING_GAME)
            if seat is None or row.platform != session.platform:
                    raise Refusal(narrate.PLAYERS_ONLY)
            game = service.unit.game_of(record)
            return game.web_edit(service.unit.table(row, record), seat, session.user, edit)

        try:
            if edit.op == "act" and edit.name == "rematch":
                out = await self.rematch(session)
            else:
                out = await service.unit.mutate(session.game, change)
        except Refusal as refusal:
            out = answer(refusal)
        except Exception:
            log.exception("web edit in game %s failed", session.game)
            out = Outcome(reply=narrate.SORRY, alert=True)
        reply = {"t": "reply", "text": out.reply or "", "alert": bool(out.alert)}
        if out.game_id is not None:
            out.reply = None  # said on the page; the chats get the screens
            with contextlib.suppress(Exception):
                await service._deliver(out)
        return reply
