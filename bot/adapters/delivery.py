"""How an outcome reaches a chat platform: the part Telegram and Discord share.

An `Outcome` becomes a plan: per-chat `Job`s (the group chat's notes and live table, each
person's private screen and private note), each a list of `Step`s. Every chat has a `Lane`: its
own queue, drained by its own task, inside that chat's own rate budget — so a person's private
screen never waits behind the group's budget, and the person who pressed sees theirs at once.

A lane coalesces: its live messages (the table, a private screen) are kept by key, and a newer
screen for a message replaces the one still waiting (latest wins); plain messages (notes, texts)
are all sent, in order. The lane waits for the chat's budget (`Sender.delay`) *before* it picks
what to send, so it sends the newest screen, not one that went stale in the queue. A message
never shows an older revision (`Outcome.revision`) than the one it shows.

The table is edited in place; it is posted anew (the old one deleted) after notes (so it stays
below them), when asked (`/table`), when the platform says the message is gone or too old to
edit, and at a new turn only when it is worth the second request: when the post is older than
`Sender.repost_after` seconds (people have chatted since) or other bot messages came after it.
So a turn costs one group request, and a busy table stays inside the group's budget.

Message refs (`service.get_refs/save_refs`) are read once per game and kept in memory; every
lane writes through to that copy, and what changed is saved once at the end of a delivery.
With many workers on one database (`lock` given) the copy is refreshed from every newer
outcome's refs, and a live message is shown under its lock across workers: its id, shown
revision, picture and post time are read from the store first and saved before the lock goes,
so no worker edits or deletes from a stale copy nor shows an older revision over a newer one.
`deliver` returns when each of its private steps has been sent, or overtaken by a newer screen;
the group's finish in their lane (a computer seat is not held back by the group's budget: the
group shows the newest table when its budget allows). When the last of an outcome's steps is
done — sent, overtaken, or failed for good; not cancelled by a stopping adapter — `delivered`
(game, revision) is called: with many workers the outcome's screens are no longer owed.

A platform supplies a `Sender`: send, edit and delete a message made of a picture, a text and
buttons, send a plain text; its own errors mapped to `Gone` (edit failed: send anew) and
`Unreachable` (this chat can't be written to, e.g. closed DMs). What a platform does about an
unreachable person (a deep link, an ephemeral view) is its own: it overrides `Sender.run_step`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from bot.clock import REAL, Clock
from bot.core.per_game import MEMORY_ONLY, LimitedDict, RecentRefs
from bot.core.views import Outcome, Screen

log = logging.getLogger(__name__)

# What a step shows (a platform may name files or pick limits by it).
NOTE, TABLE, PRIVATE, TEXT = "note", "table", "private", "text"
TABLE_KEY = "table"
POSTED = ":at"  # refs suffix: when the live message was posted (wall clock, saved)
GONE = ":gone"  # refs suffix: the message it replaced, saved until that one is deleted
PINNED = "pinned"  # a person's own answer (Discord's ephemeral view): the newest press's wins
MAX_PLAIN = 8  # plain messages waiting in one lane; past it the oldest is dropped


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
    fresh: bool = False  # a new turn: post anew if the live message is old or buried
    user: str | None = None  # PRIVATE, TEXT: whose
    urgent: bool = False  # the answer to this person's own press: may spend the last budget
    chat: Chat | None = None  # set by the lane that runs it


@dataclass
class Job:
    """All that one outcome sends to one chat, in order."""

    chat: Chat
    steps: list[Step] = field(default_factory=list)


def plan(outcome: Outcome, by: str | None = None) -> list[Job]:
    """What to send, edit or delete for this outcome: each person's private screen and note
    (`by`'s — the person who pressed — first and urgent), and the group chat's notes, then its
    live table (posted anew after notes, so it stays the newest message)."""
    jobs: list[Job] = []
    users = [*outcome.private, *(u for u in outcome.private_notes if u not in outcome.private)]
    users += [u for u in outcome.private_extras if u not in users]
    users.sort(key=lambda u: u != by)
    for user in users:
        job = Job(Chat(user, private=True))
        screen = outcome.private.get(user)
        urgent = user == by
        if screen is not None:
            job.steps.append(Step(PRIVATE, screen, key=private_key(user),
                                  new=user in outcome.private_new, user=user, urgent=urgent))
        if user in outcome.private_notes:
            job.steps.append(Step(TEXT, text=outcome.private_notes[user], user=user,
                                  urgent=urgent))
        job.steps += [Step(NOTE, extra, user=user, urgent=urgent)
                      for extra in outcome.private_extras.get(user, ())]
        jobs.append(job)
    if outcome.chat_id and (outcome.notes or outcome.group is not None):
        group = Job(Chat(outcome.chat_id))
        group.steps += [Step(NOTE, note) for note in outcome.notes]
        if outcome.group is not None:
            group.steps.append(Step(TABLE, outcome.group, key=TABLE_KEY,
                                    new=outcome.group_new or bool(outcome.notes),
                                    fresh=outcome.group_turn))
        jobs.append(group)
    return jobs


class Refs:
    """A game's message refs: the process's copy, written through (every lane sees the newest
    message ids at once), with the keys worth saving marked dirty."""

    def __init__(self, saved: dict[str, Any], dirty: set[str] | None = None,
                 held: set[str] | None = None) -> None:
        self.saved = saved
        self.dirty = dirty if dirty is not None else set()
        # names a message's lock holds now: its holder saves them when its step is done
        self.held = held if held is not None else set()

    def get(self, key: str, default: Any = None) -> Any:
        return self.saved.get(key, default)

    def set(self, key: str, value: Any) -> None:
        if self.saved.get(key) != value or key not in self.saved:
            self.saved[key] = value
            if not key.endswith(MEMORY_ONLY):
                self.dirty.add(key)

    def changed(self) -> dict[str, Any]:
        """The changes worth saving (message ids and flags, not pictures or revisions), taken;
        a held message's stay dirty for its step to save."""
        out = {k: self.saved[k] for k in self.dirty - self.held if k in self.saved}
        self.dirty.intersection_update(self.held)
        return out


class Sender:
    """A platform's side of a delivery. `to` is whatever `address` returns for a chat."""

    # A new turn posts the table anew only when its post is this old (people have chatted).
    repost_after: float = 60.0
    # A message older than this is posted anew rather than edited (Discord: edits of messages
    # older than an hour are limited, error 30046). None: no limit worth minding.
    edit_age: float | None = None

    def delay(self, chat: Chat, urgent: bool) -> float:
        """Seconds until a request to this chat would go at once (its rate budget). A step
        that isn't `urgent` should leave a private chat's last request for its person's own
        next press."""
        return 0.0

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

    async def run_step(self, run: Run, chat: Chat, step: Step) -> None:
        """One step in one chat (a platform overrides this to handle Unreachable)."""
        await run.step(await self.address(run, chat), step)


class Run:
    """One outcome being delivered: its refs and the revision order of each message."""

    def __init__(self, sender: Sender, outcome: Outcome, refs: Refs, context: Any = None,
                 delivery: Delivery | None = None):
        self.sender = sender
        self.outcome = outcome
        self.refs = refs
        self.context = context  # the platform's (Discord: the interaction being answered)
        self.delivery = delivery  # its per-chat bookkeeping (bot messages after the table)
        # key -> save that message's refs now, mid-step (only while its lock is held)
        self._checkpoints: dict[str, Callable[[], Awaitable[None]]] = {}

    def now(self) -> float:
        """Epoch seconds on the delivery's clock (a post's time is saved)."""
        return (self.delivery.clock if self.delivery is not None else REAL).now()

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
            self._buried(step, 1)
        elif step.key is None:
            assert step.screen is not None
            await self.sender.send(to, step.screen, step.role)
            self._buried(step, 1)
        else:
            await self.show(to, step)

    def _buried(self, step: Step, more: int) -> int:
        """Bot messages in a group chat after its table: counted (1), reset (0), read (-1)."""
        if self.delivery is None or step.chat is None or step.chat.private:
            return 0
        return self.delivery.bury(step.chat.id, more)

    def _repost(self, key: str, step: Step) -> bool:
        """Post anew rather than edit: asked, or a new turn with the post old or buried, or
        the post too old for the platform to edit."""
        posted = self.refs.get(key + POSTED)
        age = None if posted is None else self.now() - posted
        limit = self.sender.edit_age
        if limit is not None and (age is None or age >= limit):
            return True
        if step.new:
            return True
        if step.fresh:
            buried = self._buried(step, -1) > 0
            return buried or age is None or age >= self.sender.repost_after
        return False

    async def show(self, to: Any, step: Step, *, held: bool = False) -> None:
        """Edit the live message in place, or post it fresh (deleting the old one); never
        show an older revision than the message shows. The picture is sent again only when
        it changed. Across workers: under the message's lock, from its saved refs (`held`:
        the caller holds it already)."""
        assert step.key is not None
        if held:
            await self._show(to, step)
            return
        async with self.locked(step.key):
            await self._show(to, step)

    @contextlib.asynccontextmanager
    async def locked(self, key: str, *more: str) -> AsyncIterator[None]:
        """Hold a live message's lock across workers (no lock: one process): its refs (and
        `more` refs that go with it) read as saved before, saved as left after — so whichever
        worker goes second works from what the first showed."""
        lock = self.delivery.lock if self.delivery is not None else None
        game_id = self.outcome.game_id
        if lock is None or game_id is None:
            yield
            return
        names = [key + suffix for suffix in ("", ":v", ":img", POSTED, GONE)] + list(more)
        async with lock(game_id, key) as held:
            # Until the step is done no other save takes these: its own saves say how far it
            # got (a new table's id is saved with the old one's, which is deleted after).
            self.refs.held.update(names)
            stored = dict(held.refs)

            async def save() -> None:
                now = {name: self.refs.saved[name] for name in names if name in self.refs.saved}
                if now != {name: stored[name] for name in names if name in stored}:
                    await held.save(now)
                    stored.update(now)

            self._checkpoints[key] = save
            try:
                for name in names:
                    if name in stored:
                        self.refs.saved[name] = stored[name]
                yield
                await save()
                self.refs.dirty.difference_update(names)  # saved: a later save must not undo it
            finally:
                self.refs.held.difference_update(names)
                self._checkpoints.pop(key, None)

    async def _show(self, to: Any, step: Step) -> None:
        key, screen = step.key, step.screen
        assert key is not None and screen is not None
        refs = self.refs
        gone = refs.get(key + GONE)
        if gone:  # a worker stopped after posting this message anew, before deleting the old
            await self.sender.delete(to, gone)
            refs.set(key + GONE, None)
        if not self.current(key):
            return  # a newer screen is up already (its delivery overtook this one)
        old = refs.get(key)
        if old and not self._repost(key, step):
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
        refs.set(key + POSTED, self.now())
        self.shown(key)
        if step.role == TABLE:
            self._buried(step, 0)
        if old and old != message_id:
            checkpoint = self._checkpoints.get(key)
            if checkpoint is not None:  # many workers: whoever shows it next deletes the old
                refs.set(key + GONE, old)  # one if this worker stops before it does
                await checkpoint()
            await self.sender.delete(to, old)
            if checkpoint is not None:
                refs.set(key + GONE, None)


@dataclass
class _Item:
    """A step waiting in a lane, with everyone waiting for it (their steps it replaced)."""

    run: Run
    step: Step
    waiters: list[asyncio.Future[None]]


class Lane:
    """One chat's outgoing steps: drained by one task, inside the chat's budget, the newest
    screen of each live message only."""

    def __init__(self, delivery: Delivery, chat: Chat) -> None:
        self.delivery = delivery
        self.chat = chat
        self.pending: OrderedDict[Any, _Item] = OrderedDict()
        self.task: asyncio.Task[None] | None = None
        self.wakeup = asyncio.Event()  # something was put: look again at what waits

    def put(self, run: Run, step: Step) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        step.chat = self.chat
        if step.key is None:
            return self._put_plain(run, step, done)
        pinned = _pinned(run, step)  # a person's own answer: the newest press answers for all
        key: Any = (run.outcome.game_id, step.key, PINNED) if pinned else (
            run.outcome.game_id, step.key)
        older = self.pending.pop(key, None)
        waiters = [done]
        if older is not None:
            if pinned or _newer(older.run, run):
                step.new = step.new or older.step.new  # notes went before: still below them
                step.fresh = step.fresh or older.step.fresh
                step.urgent = step.urgent or older.step.urgent
                waiters = [*older.waiters, done]
            else:  # an older outcome came late: the waiting one stays
                older.waiters.append(done)
                self.pending[key] = older
                self._wake()
                return done
        self.pending[key] = _Item(run, step, waiters)
        self._wake()
        return done

    def _put_plain(self, run: Run, step: Step, done: asyncio.Future[None]
                   ) -> asyncio.Future[None]:
        """A plain message (a note, a text): every note is sent, in order; of texts (replies)
        the same one waiting already is not sent twice, and past `MAX_PLAIN` waiting the oldest
        goes (a chat flooding the bot must not queue a reply per line: the newest counts)."""
        if step.role != TEXT:  # a note (a round's scores) is part of the game's story: kept
            self.pending[next(self.delivery.counter)] = _Item(run, step, [done])
            self._wake()
            return done
        plain = [(k, item) for k, item in self.pending.items() if item.step.role == TEXT]
        for _key, item in plain:
            if item.step.role == step.role and item.step.text == step.text and step.text:
                item.waiters.append(done)
                return done
        while len(plain) >= MAX_PLAIN:
            key, item = plain.pop(0)
            del self.pending[key]
            self.delivery.dropped += 1
            _settle(item.waiters, None)
        self.pending[next(self.delivery.counter)] = _Item(run, step, [done])
        self._wake()
        return done

    def _wake(self) -> None:
        self.wakeup.set()
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._drain())

    async def _drain(self) -> None:
        sender = self.delivery.sender
        try:
            while self.pending:
                # The budget first, then take the newest (an urgent step may come meanwhile).
                head = next(iter(self.pending.values()))
                wait = sender.delay(self.chat, head.step.urgent)
                if wait > 0:
                    self.wakeup.clear()
                    with contextlib.suppress(TimeoutError):
                        await self.delivery.clock.wait_for(self.wakeup.wait(), wait)
                    continue
                _key, item = self.pending.popitem(last=False)
                try:
                    await sender.run_step(item.run, self.chat, item.step)
                except Exception as error:  # its delivery raises it, after saving the refs
                    _settle(item.waiters, error)
                else:
                    _settle(item.waiters, None)
        except BaseException as error:  # cancelled (the adapter stops): nobody waits forever
            for item in self.pending.values():
                _settle(item.waiters, error)
            self.pending.clear()
            raise
        finally:
            self.delivery._lane_idle(self)


def _log_failure(done: asyncio.Future[Any]) -> None:
    """A send nobody waits for: its failure is logged, not left unretrieved."""
    if not done.cancelled() and done.exception() is not None:
        log.error("a send failed", exc_info=done.exception())


def _settle(waiters: list[asyncio.Future[None]], error: BaseException | None) -> None:
    for waiter in waiters:
        if waiter.done():
            continue
        if error is None:
            waiter.set_result(None)
        elif isinstance(error, asyncio.CancelledError):
            waiter.cancel()
        else:
            waiter.set_exception(error)


def _newer(old: Run, new: Run) -> bool:
    """May `new`'s screen replace `old`'s waiting one (commit order; None: no order known)?"""
    a, b = old.outcome.revision, new.outcome.revision
    return a is None or b is None or b >= a


def _pinned(run: Run, step: Step) -> bool:
    """A step answering its own person's interaction (Discord's ephemeral fallback needs that
    interaction) is not replaced by another outcome's."""
    user = getattr(run.context, "user", None)
    return step.role == PRIVATE and user is not None and user == step.user


class Delivery:
    """Runs outcomes' plans through a platform's sender: one lane per chat, newest screen
    first, the game's refs read once and saved once per delivery."""

    def __init__(self, sender: Sender, load: Callable[[int], Awaitable[dict[str, Any]]],
                 save: Callable[[int, dict[str, Any]], Awaitable[None]], *,
                 limit: int = 1000,
                 lock: Callable[[int, str], AbstractAsyncContextManager[Any]]
                 | None = None,
                 delivered: Callable[[int, int | None], None] | None = None,
                 clock: Clock | None = None) -> None:
        self.sender = sender
        self.clock = clock or REAL  # budgets' waits and posts' times
        self.delivered = delivered  # every step of an outcome done: (game, revision)
        self._save = save
        # many workers: a live message's lock, yielding `.refs` (as saved) and `.save(patch)`
        self.lock = lock
        self.lanes: dict[Chat, Lane] = {}
        self.counter = itertools.count()
        self._buried: LimitedDict = LimitedDict(5000)  # group chat -> bot messages after table
        self._dirty: dict[int, set[str]] = {}
        self._held: dict[int, set[str]] = {}  # game -> refs under a message lock now
        self.closed = False
        self.dropped = 0  # texts dropped from full lanes (a flooding chat's older replies)
        self._finishing: set[asyncio.Task[None]] = set()  # deliveries' group steps under way
        # game -> its message refs as this process last left them (one process per bot token)
        self.recent = RecentRefs(load, limit)

    def say(self, chat: Chat, text: str, *, urgent: bool = False) -> asyncio.Future[None]:
        """A plain text to a chat, through its lane and inside its budget; not to be waited
        for by a handler (nothing a handler does waits on a chat's send budget)."""
        run = Run(self.sender, Outcome(), Refs({}), None, self)
        done = self.lane(chat).put(run, Step(TEXT, text=text, urgent=urgent))
        done.add_done_callback(_log_failure)
        return done

    def show(self, chat: Chat, screens: list[Screen], outcome: Outcome | None = None,
             context: Any = None) -> list[asyncio.Future[None]]:
        """One-off messages that belong to no game (/stats' picture, a season's end), through
        the chat's lane and inside its budget, in order; a failure is logged, and a caller may
        wait for them."""
        run = Run(self.sender, outcome or Outcome(), Refs({}), context, self)
        done = [self.lane(chat).put(run, Step(NOTE, screen)) for screen in screens]
        for future in done:
            future.add_done_callback(_log_failure)
        return done

    def soon(self, delivering: Awaitable[None]) -> None:
        """Run a delivery without waiting for it (a handler answering a person): the lanes
        send it within their budgets while the handler is free for the next update."""
        task = asyncio.ensure_future(delivering)
        self._finishing.add(task)
        task.add_done_callback(self._finishing.discard)
        task.add_done_callback(_log_failure)

    def lane(self, chat: Chat) -> Lane:
        lane = self.lanes.get(chat)
        if lane is None:
            lane = self.lanes[chat] = Lane(self, chat)
        return lane

    def _lane_idle(self, lane: Lane) -> None:
        if self.lanes.get(lane.chat) is lane and not lane.pending:
            del self.lanes[lane.chat]  # idle lanes go: chats don't pile up in memory

    def bury(self, chat_id: str, more: int) -> int:
        """Bot messages in a group chat since its table was posted: +1 (more=1), reset to 0
        (more=0), or just read (more=-1)."""
        count = self._buried.get(chat_id, 0)
        if more == 0:
            self._buried.pop(chat_id, None)
            return 0
        if more > 0:
            count = self._buried[chat_id] = count + more
        return count

    def posted(self, chat_id: str) -> None:
        """The adapter posted something else in a group chat (a reply): the table is buried."""
        self.bury(chat_id, 1)

    async def close(self, timeout: float = 10.0) -> None:
        """The adapter is stopping: take no more, let what waits go out (a screen lost here is
        a person who never sees their turn after the restart), then stop what is left."""
        self.closed = True
        tasks = [lane.task for lane in self.lanes.values() if lane.task is not None]
        tasks += list(self._finishing)
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def deliver(self, outcome: Outcome, context: Any = None, *,
                      by: str | None = None) -> None:
        """Deliver an outcome; `by`: the person whose press or command it answers (their own
        screen goes first, urgent). Returns when every private step went or was overtaken; the
        group's steps finish in their lane (the table's newest screen wins there), so a caller
        that waits — a computer seat — is paced by the people's screens, not by the group's
        budget. With a `context` (an interaction being answered) it waits for the group too:
        what went wrong there is told in the answer."""
        if self.closed:
            return
        if outcome.game_id is None:  # a chat's own post (a season's end): no game's refs
            if outcome.chat_id and outcome.notes:  # returns when they went (or failed)
                await asyncio.gather(*self.show(Chat(outcome.chat_id), outcome.notes,
                                                outcome, context), return_exceptions=True)
            return
        game_id = outcome.game_id
        fresh = outcome.revision if self.lock is not None else None  # one process: its copy
        saved = await self.recent.get(game_id, outcome.refs, fresh, self._dirty.get(game_id, ()))
        refs = Refs(saved, self._dirty.setdefault(game_id, set()),
                    self._held.setdefault(game_id, set()))
        run = Run(self.sender, outcome, refs, context, self)
        private: list[asyncio.Future[None]] = []
        group: list[asyncio.Future[None]] = []
        try:
            await self.sender.before(run)
            by = by if by is not None else getattr(context, "user", None)
            for job in plan(outcome, by):
                lane = self.lane(job.chat)
                waits = private if job.chat.private or context is not None else group
                waits += [lane.put(run, step) for step in job.steps]
            results = await asyncio.gather(*private, return_exceptions=True)
        finally:
            await self._save_changed(game_id, refs)
        if group:
            task = asyncio.create_task(self._finish(game_id, refs, group, outcome, results))
            self._finishing.add(task)
            task.add_done_callback(self._finishing.discard)
        else:
            self._done(outcome, results)
        for result in results:
            if isinstance(result, BaseException):
                raise result

    async def _finish(self, game_id: int, refs: Refs, waits: list[asyncio.Future[None]],
                      outcome: Outcome, private: list[Any]) -> None:
        """The group's steps of a delivery: wait for them, then save what they changed."""
        results: list[Any] = []
        try:
            results = await asyncio.gather(*waits, return_exceptions=True)
            for result in results:
                if isinstance(result, Exception):
                    log.error("group delivery in game %s failed", game_id, exc_info=result)
        finally:
            await self._save_changed(game_id, refs)
        self._done(outcome, [*private, *results])

    def _done(self, outcome: Outcome, results: list[Any]) -> None:
        """Every step of the outcome went, was overtaken or failed for good: say so. A step
        cancelled (the adapter stopping) is not done: another worker delivers the screens."""
        if self.delivered is None or outcome.game_id is None:
            return
        if not any(isinstance(r, asyncio.CancelledError) for r in results):
            self.delivered(outcome.game_id, outcome.revision)

    async def _save_changed(self, game_id: int, refs: Refs) -> None:
        changed = refs.changed()
        if not refs.held:  # nothing held: nothing left dirty either (changed() kept only those)
            self._dirty.pop(game_id, None)
            self._held.pop(game_id, None)
        if changed:
            await self._save(game_id, changed)

    async def idle(self) -> None:
        """Wait until every delivery's group steps are done (tests, and a graceful stop)."""
        while self._finishing:
            await asyncio.gather(*list(self._finishing), return_exceptions=True)

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
