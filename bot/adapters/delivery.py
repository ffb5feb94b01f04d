"""How an outcome reaches a chat platform: the part Telegram and Discord share.

An `Outcome` becomes a plan: a list of per-chat `Job`s (the group chat's notes and live table,
then each person's private screen and private note), each a list of `Step`s. `Delivery` runs
the plan for one game at a time (deliveries of a game take turns), over the game's message
refs (`service.get_refs/save_refs`, read once and kept in memory for the games delivered to
most recently), and keeps commit order per message: a message never shows an older revision
(`Outcome.revision`) than the one it shows, even when an older outcome's delivery comes late.
A live message is edited in place, or posted anew (the old one deleted) when the step says so
or when the platform says the message is gone. The changed refs are saved once, at the end.

A platform supplies a `Sender`: send, edit and delete a message made of a picture, a text and
buttons, send a plain text; its own errors mapped to `Gone` (edit failed: send anew) and
`Unreachable` (this chat can't be written to, e.g. closed DMs). What a platform does about an
unreachable person (a deep link, an ephemeral view) is its own: it overrides `Sender.run_job`.

Rate budgets per chat (the presser's own screen first, the group's table coalesced) belong
here, between `plan` and running the jobs; none are applied yet.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.core.per_game import MEMORY_ONLY, GameLocks, RecentRefs
from bot.core.views import Outcome, Screen

log = logging.getLogger(__name__)

# What a step shows (a platform may name files or pick limits by it).
NOTE, TABLE, PRIVATE, TEXT = "note", "table", "private", "text"
TABLE_KEY = "table"


def private_key(user: str) -> str:
    """The refs key of a person's private message in a game."""
    return f"p:{user}"


class Gone(Exception):
    """The message to edit is no longer there (deleted, too old, not of that kind): send anew."""


class Unreachable(Exception):
    """This chat can't be written to (a person's closed DMs, a blocked bot, no permission)."""


@dataclass(frozen=True)
class Chat:
    """Where a job goes: a group chat (its chat id) or a person's private chat (their user id;
    the platform finds the chat)."""

    id: str
    private: bool = False


@dataclass
class Step:
    role: str  # NOTE | TABLE | PRIVATE (a screen) or TEXT (a plain text)
    screen: Screen | None = None
    text: str = ""
    key: str | None = None  # refs key of the live message (TABLE, PRIVATE)
    new: bool = False  # post anew (deleting the old) rather than edit in place
    user: str | None = None  # PRIVATE, TEXT: whose


@dataclass
class Job:
    """All that one outcome sends to one chat, in order."""

    chat: Chat
    steps: list[Step] = field(default_factory=list)


def plan(outcome: Outcome) -> list[Job]:
    """What to send, edit or delete for this outcome: the group chat first (notes, then the
    live table: posted anew after notes, so it stays the newest message), then each person's
    private screen and private note."""
    jobs: list[Job] = []
    if outcome.chat_id and (outcome.notes or outcome.group is not None):
        group = Job(Chat(outcome.chat_id))
        group.steps += [Step(NOTE, note) for note in outcome.notes]
        if outcome.group is not None:
            group.steps.append(Step(TABLE, outcome.group, key=TABLE_KEY,
                                    new=outcome.group_new or bool(outcome.notes)))
        jobs.append(group)
    users = [*outcome.private, *(u for u in outcome.private_notes if u not in outcome.private)]
    for user in users:
        job = Job(Chat(user, private=True))
        screen = outcome.private.get(user)
        if screen is not None:
            job.steps.append(Step(PRIVATE, screen, key=private_key(user),
                                  new=user in outcome.private_new, user=user))
        if user in outcome.private_notes:
            job.steps.append(Step(TEXT, text=outcome.private_notes[user], user=user))
        jobs.append(job)
    return jobs


class Refs:
    """A game's message refs during one delivery: the adapter's copy (`saved`), overlaid with
    this delivery's changes, which are saved in one go at the end."""

    def __init__(self, saved: dict[str, Any]) -> None:
        self.saved = saved
        self.updates: dict[str, Any] = {}

    def get(self, key: str, default: Any = None) -> Any:
        return self.updates[key] if key in self.updates else self.saved.get(key, default)

    def set(self, key: str, value: Any) -> None:
        self.updates[key] = value

    def changed(self) -> dict[str, Any]:
        """This delivery's changes worth saving: message ids and flags, not pictures or
        revisions (memory only)."""
        return {k: v for k, v in self.updates.items()
                if not k.endswith(MEMORY_ONLY) and self.saved.get(k) != v}


class Sender:
    """A platform's side of a delivery. `to` is whatever `address` returns for a chat."""

    async def address(self, run: Run, chat: Chat) -> Any:
        raise NotImplementedError

    async def send(self, to: Any, screen: Screen, role: str) -> Any:
        """Post the screen as a new message; its message id."""
        raise NotImplementedError

    async def edit(self, to: Any, message_id: Any, screen: Screen, role: str, *,
                   picture: bool) -> None:
        """Edit the message to show the screen (`picture`: its picture changed too). Raise
        Gone if it can't be edited; return quietly if it shows exactly that already."""
        raise NotImplementedError

    async def delete(self, to: Any, message_id: Any) -> None:
        """Delete a message (best effort)."""
        raise NotImplementedError

    async def send_text(self, to: Any, text: str) -> None:
        raise NotImplementedError

    async def before(self, run: Run) -> None:
        """Anything to do before the plan runs (Discord: closed-DM advice above the table)."""

    async def run_job(self, run: Run, job: Job) -> None:
        """One chat's steps, in order (a platform overrides this to handle Unreachable)."""
        to = await self.address(run, job.chat)
        for step in job.steps:
            await run.step(to, step)


class Run:
    """One outcome being delivered: its refs and the revision order of each message."""

    def __init__(self, sender: Sender, outcome: Outcome, refs: Refs, context: Any = None):
        self.sender = sender
        self.outcome = outcome
        self.refs = refs
        self.context = context  # the platform's (Discord: the interaction being answered)

    def current(self, key: str) -> bool:
        """Is the outcome at least as new as what the message shows (None: no order known)?"""
        shown = self.refs.get(key + ":v")
        revision = self.outcome.revision
        return revision is None or shown is None or revision >= shown

    def shown(self, key: str) -> None:
        if self.outcome.revision is not None:
            self.refs.set(key + ":v", self.outcome.revision)

    async def step(self, to: Any, step: Step) -> None:
        if step.role == TEXT:
            await self.sender.send_text(to, step.text)
        elif step.key is None:
            assert step.screen is not None
            await self.sender.send(to, step.screen, step.role)
        else:
            await self.show(to, step)

    async def show(self, to: Any, step: Step) -> None:
        """Edit the live message in place, or post it fresh (deleting the old one); never
        show an older revision than the message shows. The picture is sent again only when
        it changed."""
        key, screen = step.key, step.screen
        assert key is not None and screen is not None
        if not self.current(key):
            return  # a newer screen is up already (its delivery overtook this one)
        refs = self.refs
        old = refs.get(key)
        if old and not step.new:
            try:
                await self.sender.edit(to, old, screen, step.role,
                                       picture=screen.image_key != refs.get(key + ":img"))
                refs.set(key + ":img", screen.image_key)
                self.shown(key)
                return
            except Gone:
                pass  # deleted meanwhile, too old, or no longer of that kind: post it fresh
        message_id = await self.sender.send(to, screen, step.role)
        refs.set(key, message_id)
        refs.set(key + ":img", screen.image_key)
        self.shown(key)
        if old and old != message_id:
            await self.sender.delete(to, old)


class Delivery:
    """Runs outcomes' plans through a platform's sender: one game at a time, in commit order
    per message, with the game's refs read once and saved once per delivery."""

    def __init__(self, sender: Sender, load: Callable[[int], Awaitable[dict[str, Any]]],
                 save: Callable[[int, dict[str, Any]], Awaitable[None]], *,
                 limit: int = 1000) -> None:
        self.sender = sender
        self._save = save
        self.locks = GameLocks()
        # game -> its message refs as this process last left them (one process per bot token)
        self.recent = RecentRefs(load, limit)

    async def deliver(self, outcome: Outcome, context: Any = None) -> None:
        if outcome.game_id is None:
            return
        async with self.locks(outcome.game_id):
            refs = Refs(await self.recent.get(outcome.game_id, outcome.refs))
            run = Run(self.sender, outcome, refs, context)
            try:
                await self.sender.before(run)
                for job in plan(outcome):
                    await self.sender.run_job(run, job)
            finally:
                changed = refs.changed()
                refs.saved.update(refs.updates)
                if changed:
                    await self._save(outcome.game_id, changed)

    async def remember(self, game_id: int, updates: dict[str, Any],
                       saved: dict[str, Any] | None = None) -> None:
        """Set refs outside a delivery (a flag learnt while answering): saved if they change."""
        refs = await self.recent.get(game_id, saved)
        changed = {k: v for k, v in updates.items() if refs.get(k) != v}
        refs.update(updates)
        changed = {k: v for k, v in changed.items() if not k.endswith(MEMORY_ONLY)}
        if changed:
            await self._save(game_id, changed)

    async def refs(self, game_id: int, saved: dict[str, Any] | None = None) -> dict[str, Any]:
        """The game's refs as this process knows them (read-only use)."""
        return await self.recent.get(game_id, saved)
