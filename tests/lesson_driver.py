"""Lessons in tests, through the game service's one path (a lesson is a variant of the hosted
rummy game): /lesson and typed moves via `command`, buttons via `press` with the data a chat
sends (game:version:action from the screen), Discord's card menu via `set_selection`.

    lessons = LessonDriver(store)          # a GameService with the default games
    out = await lessons.start(actor, "tahiti")
    out = await lessons.press(actor, lessons.data(screen, button))
"""

from __future__ import annotations

from typing import Any

from bot.core.buttons import pack, parse
from bot.core.fair_use import FairUse
from bot.core.service import Actor, GameService
from bot.core.views import Button, Outcome, Screen
from bot.games import default_games

UNLIMITED = 1e9


def action_of(data: str) -> str | None:
    """The action of a button's data (`7:3:s1:5H#0` -> `s1:5H#0`); None if not ours."""
    press = parse(data)
    return None if press is None else press.action


class LessonDriver:
    """A GameService (default games) with a learner's calls by their old names. Fair use is
    off unless `metered` (a test of fair use turns it on)."""

    def __init__(self, store: Any, *, metered: bool = False, **settings: Any) -> None:
        settings.setdefault("games", default_games())
        self.service = GameService(store, **settings)
        if not metered:
            self.service.fair_use = FairUse(user_rate=UNLIMITED, user_burst=UNLIMITED,
                                            chat_rate=UNLIMITED, chat_burst=UNLIMITED)
        self.store = store

    @staticmethod
    def data(screen: Screen, button: Button) -> str:
        """What a chat sends for this button of this screen."""
        assert screen.game_id is not None
        return pack(screen.game_id, screen.version, button.action)

    async def start(self, actor: Actor, name: str | None = None) -> Outcome:
        return await self.service.command(actor, "lesson", name or "")

    async def press(self, actor: Actor, data: str) -> Outcome:
        return await self.service.press(actor, data)

    async def command(self, actor: Actor, verb: str, args: str = "") -> Outcome:
        return await self.service.command(actor, verb, args)

    async def select(self, actor: Actor, game_id: int, version: int, picked: list[str],
                     shown: list[str]) -> Outcome:
        return await self.service.set_selection(actor, game_id, version, picked, page=shown)

    async def active(self, actor: Actor) -> int | None:
        """The lesson running in this chat, if any."""
        row = await self.store.active_game(actor.platform, actor.chat_id)
        return row.id if row is not None and row.record.get("lesson") else None


def progress_of(record: dict) -> dict:
    """A lesson row's progress (its hosted state's)."""
    return record["state"]["progress"]


def lesson_ui(record: dict) -> dict:
    """The learner's selection, menu and notice, and the last feedback."""
    ui = dict(record["ui"].get("0", {}))
    ui["last"] = record["state"].get("last", {})
    return ui
