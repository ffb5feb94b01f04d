"""The shared delivery (bot/adapters/delivery.py) with an in-memory sender: the plan, commit
order per message, a lane per chat (a private screen never waits behind the group; the newest
screen of a waiting message wins), the re-post policy, a gone message sent again, refs saved
once per delivery."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from bot.adapters.delivery import (
    MAX_PLAIN,
    NOTE,
    PRIVATE,
    TABLE,
    TEXT,
    Chat,
    Delivery,
    Gone,
    Run,
    Sender,
    Step,
    Unreachable,
    plan,
)
from bot.adapters.delivery import Refs as MessageRefs
from bot.core.views import Outcome, Screen, Where

GAME = 7


def screen(text: str, picture: str | None = "pic") -> Screen:
    return Screen(text, image_key=picture, game_id=GAME)


class Memory(Sender):
    """Chats as lists of messages; records every call."""

    def __init__(self) -> None:
        self.messages: dict[int, tuple[str, str]] = {}  # id -> (chat, text)
        self.calls: list[tuple[str, Any, ...]] = []
        self.next_id = 100
        self.closed: set[str] = set()  # private chats that can't be written to
        self.hold: asyncio.Event | None = None  # the next send/edit waits for it
        self.budgets: dict[str, asyncio.Event] = {}  # chat -> its budget (set: requests go)

    async def address(self, run: Run, chat: Chat) -> str:
        return ("dm:" if chat.private else "") + chat.id

    def delay(self, chat: Chat, urgent: bool) -> float:
        budget = self.budgets.get(("dm:" if chat.private else "") + chat.id)
        return 0.01 if budget is not None and not budget.is_set() else 0.0

    async def _wait(self) -> None:
        if self.hold is not None:
            hold, self.hold = self.hold, None
            await hold.wait()

    async def send(self, to: str, screen: Screen, role: str) -> int:
        await self._wait()
        if to in self.closed:
            raise Unreachable(to)
        self.next_id += 1
        self.messages[self.next_id] = (to, screen.text)
        self.calls.append(("send", to, screen.text, role))
        return self.next_id

    async def edit(self, to: str, message_id: int, screen: Screen, role: str, *,
                   picture: bool) -> None:
        await self._wait()
        if message_id not in self.messages:
            raise Gone(str(message_id))
        self.messages[message_id] = (to, screen.text)
        self.calls.append(("edit", to, screen.text, picture))

    async def delete(self, to: str, message_id: int) -> None:
        self.messages.pop(message_id, None)
        self.calls.append(("delete", to, message_id))

    async def send_text(self, to: str, text: str) -> None:
        self.calls.append(("text", to, text))

    def texts(self, to: str) -> list[str]:
        return [text for chat, text in self.messages.values() if chat == to]


class Refs:
    """The store's side: get_refs / save_refs, counted."""

    def __init__(self) -> None:
        self.stored: dict[str, Any] = {}
        self.loads = 0
        self.saves: list[dict[str, Any]] = []

    async def load(self, game_id: int) -> dict[str, Any]:
        self.loads += 1
        return dict(self.stored)

    async def save(self, game_id: int, updates: dict[str, Any]) -> None:
        self.saves.append(dict(updates))
        self.stored.update(updates)


class Settled(Delivery):
    """A delivery whose `deliver` also waits for the group's steps (which otherwise finish in
    their lane after it returns): for the tests that look at the group right after."""

    async def deliver(self, outcome: Outcome, context: Any = None, *,
                      by: str | None = None) -> None:
        try:
            await super().deliver(outcome, context, by=by)
        finally:
            await self.idle()


def make(settled: bool = True) -> tuple[Memory, Refs, Delivery]:
    sender, refs = Memory(), Refs()
    return sender, refs, (Settled if settled else Delivery)(sender, refs.load, refs.save)


def outcome(revision: int | None, text: str, **kwargs: Any) -> Outcome:
    out = Outcome(where=Where(GAME, "test", "-1", revision), **kwargs)
    if "group" not in kwargs:
        out.group = screen(f"table {text}")
    return out


def test_the_plan_is_one_job_per_chat_in_order() -> None:
    out = Outcome(where=Where(GAME, chat_id="-1"), group=screen("table"), notes=[screen("scores")],
                  private={"1": screen("hand 1"), "2": screen("hand 2")}, private_new={"2"},
                  private_notes={"2": "psst", "3": "hello"})
    jobs = plan(out)
    assert [j.chat for j in jobs] == [Chat("1", True), Chat("2", True), Chat("3", True),
                                      Chat("-1")]  # the private chats first
    group = jobs[-1].steps
    assert [(s.role, s.key, s.new) for s in group] == [(NOTE, None, False), (TABLE, "table", True)]
    assert [(s.role, s.key, s.new) for s in jobs[1].steps] == [(PRIVATE, "p:2", True),
                                                                (TEXT, None, False)]
    assert [s.text for s in jobs[2].steps] == ["hello"]
    assert plan(Outcome(where=Where(GAME))) == []
    assert plan(Outcome(where=Where(GAME), group=screen("no chat"))) == []  # no chat: no group job


async def test_a_table_is_posted_then_edited_and_refs_saved_once_per_delivery() -> None:
    sender, refs, delivery = make()
    await delivery.deliver(outcome(1, "one", private={"5": screen("hand")}))
    assert sender.texts("-1") == ["table one"] and sender.texts("dm:5") == ["hand"]
    # ids and when they were posted (a message's age decides re-posting), not :v/:img
    assert len(refs.saves) == 1 and set(refs.saves[0]) == {"table", "p:5", "table:at", "p:5:at"}
    await delivery.deliver(outcome(2, "two"))
    assert sender.calls[-1] == ("edit", "-1", "table two", False)  # same picture: text only
    assert len(refs.saves) == 1, "nothing changed worth saving"
    await delivery.deliver(outcome(3, "three", group=screen("table three", "other")))
    assert sender.calls[-1] == ("edit", "-1", "table three", True)
    assert refs.loads == 1, "the refs are read once, then kept"


async def test_an_older_outcome_arriving_late_never_overwrites_a_newer_screen() -> None:
    sender, _refs, delivery = make()
    await delivery.deliver(outcome(1, "one", private={"5": screen("hand 1")}))
    await delivery.deliver(outcome(3, "three", private={"5": screen("hand 3")}))
    await delivery.deliver(outcome(2, "two", private={"5": screen("hand 2")}))  # late
    assert sender.texts("-1") == ["table three"] and sender.texts("dm:5") == ["hand 3"]
    await delivery.deliver(outcome(None, "unordered"))  # no revision: always shown
    assert sender.texts("-1") == ["table unordered"]


async def test_a_private_screen_never_waits_behind_the_group() -> None:
    sender, refs, delivery = make(settled=False)
    await delivery.deliver(outcome(1, "one", private={"5": screen("hand 1")}))
    await delivery.idle()
    budget = sender.budgets["-1"] = asyncio.Event()  # the group's budget is spent
    await asyncio.wait_for(delivery.deliver(outcome(2, "two", private={"5": screen("hand 2")},
                                                    group=screen("table two", "new"))), 1)
    assert sender.texts("dm:5") == ["hand 2"], "the presser's screen went at once"
    assert sender.texts("-1") == ["table one"], "the group's table waits for its budget"
    saves = len(refs.saves)
    budget.set()
    await delivery.idle()
    assert sender.texts("-1") == ["table two"]
    assert len(refs.saves) == saves, "an edit in place changes no id: nothing more to save"


async def test_the_newest_screen_of_a_waiting_message_wins() -> None:
    sender, _refs, delivery = make(settled=False)
    await delivery.deliver(outcome(1, "one"))
    await delivery.idle()
    budget = sender.budgets["-1"] = asyncio.Event()
    waiting = [asyncio.create_task(delivery.deliver(outcome(r, f"v{r}"))) for r in (2, 3, 4)]
    late = asyncio.create_task(delivery.deliver(outcome(3, "late three")))  # older: dropped
    await asyncio.gather(*waiting, late)  # the people's screens went: their deliveries return
    assert not [c for c in sender.calls if c[0] == "edit"], "the table waits for its budget"
    budget.set()
    await asyncio.gather(*waiting, late)
    await delivery.idle()
    assert [c[2] for c in sender.calls if c[0] == "edit"] == ["table v4"], "one request"
    assert len(delivery.lanes) == 0, "no lane kept once its chat is idle"


async def test_a_new_turn_edits_in_place_unless_the_table_is_old_or_buried() -> None:
    sender, _refs, delivery = make()
    await delivery.deliver(outcome(1, "one", group_new=True))
    await delivery.deliver(outcome(2, "two", group_turn=True))  # recent, nothing below it
    assert [c[0] for c in sender.calls] == ["send", "edit"]
    delivery.posted("-1")  # the bot answered someone in the group: the table scrolled up
    await delivery.deliver(outcome(3, "three", group_turn=True))
    assert [c[0] for c in sender.calls] == ["send", "edit", "send", "delete"]
    await delivery.deliver(outcome(4, "four", group_turn=True))
    assert sender.calls[-1][0] == "edit", "the new post is the newest message"
    sender.repost_after = 0.0  # as if a minute went by
    await delivery.deliver(outcome(5, "five", group_turn=True))
    assert [c[0] for c in sender.calls[-2:]] == ["send", "delete"]
    await delivery.deliver(outcome(6, "six"))  # within a turn: always in place
    assert sender.calls[-1][0] == "edit"
    sender.edit_age = 0.0  # Discord: too old to edit often (30046): posted anew
    await delivery.deliver(outcome(7, "seven"))
    assert [c[0] for c in sender.calls[-2:]] == ["send", "delete"]
    assert sender.texts("-1") == ["table seven"]


async def test_a_gone_message_is_sent_again_and_the_old_one_deleted() -> None:
    sender, refs, delivery = make()
    await delivery.deliver(outcome(1, "one"))
    (old,) = sender.messages
    del sender.messages[old]  # deleted by someone in the chat
    await delivery.deliver(outcome(2, "two"))
    assert sender.texts("-1") == ["table two"]
    (new,) = sender.messages
    assert new != old and refs.stored["table"] == new
    assert [c[0] for c in sender.calls] == ["send", "send", "delete"]
    assert len(refs.saves) == 2


async def test_new_posts_afresh_and_deletes_the_old_message() -> None:
    sender, _refs, delivery = make()
    await delivery.deliver(outcome(1, "one"))
    await delivery.deliver(outcome(2, "two", notes=[screen("scores")]))  # notes: table anew
    assert sender.texts("-1") == ["scores", "table two"]
    assert [c[0] for c in sender.calls] == ["send", "send", "send", "delete"]


async def test_an_unreachable_person_is_the_platform_s_to_handle() -> None:
    class Advising(Memory):
        def __init__(self) -> None:
            super().__init__()
            self.advised: list[str] = []

        async def run_step(self, run: Run, chat: Chat, step: Step) -> None:
            try:
                await super().run_step(run, chat, step)
            except Unreachable:
                if not run.refs.get(f"advised:{chat.id}"):
                    run.refs.set(f"advised:{chat.id}", True)
                    self.advised.append(chat.id)

    sender, refs = Advising(), Refs()
    delivery = Delivery(sender, refs.load, refs.save)
    sender.closed.add("dm:5")
    await delivery.deliver(outcome(1, "one", private={"5": screen("hand"), "6": screen("h6")}))
    await delivery.deliver(outcome(2, "two", private={"5": screen("hand")}))
    assert sender.advised == ["5"], "once per game"
    assert sender.texts("dm:6") == ["h6"], "the others still get theirs"
    assert refs.stored["advised:5"] is True and "p:5" not in refs.stored


async def test_refs_are_saved_even_when_a_delivery_fails() -> None:
    class Failing(Memory):
        async def send_text(self, to: str, text: str) -> None:
            raise RuntimeError("network down")

    sender, refs = Failing(), Refs()
    delivery = Delivery(sender, refs.load, refs.save)
    out = outcome(1, "one", private_notes={"5": "psst"})
    with contextlib.suppress(RuntimeError):
        await delivery.deliver(out)
    assert [set(saved) for saved in refs.saves] == [{"table", "table:at"}]
    assert refs.saves[0]["table"] == 101, "the table's id is kept: it is edited next time"


async def test_remember_saves_only_a_change() -> None:
    _sender, refs, delivery = make()
    await delivery.remember(GAME, {"dmclosed:5": True})
    await delivery.remember(GAME, {"dmclosed:5": True})
    assert refs.saves == [{"dmclosed:5": True}]
    assert (await delivery.refs(GAME))["dmclosed:5"] is True


async def test_an_outcome_is_delivered_once_its_group_table_went_too() -> None:
    """The outbox's done mark (many workers): not when `deliver` returns (the people's screens
    went) but when the group's table went too; a step cancelled by a stopping adapter is not
    done (another worker delivers it)."""
    sender, refs = Memory(), Refs()
    done: list[tuple[int, int | None]] = []
    delivery = Delivery(sender, refs.load, refs.save, delivered=lambda g, v: done.append((g, v)))
    await delivery.deliver(outcome(1, "one", private={"5": screen("hand 1")}))
    await delivery.idle()
    assert done == [(GAME, 1)]
    budget = sender.budgets["-1"] = asyncio.Event()  # the group's budget is spent
    await delivery.deliver(outcome(2, "two", private={"5": screen("hand 2")}))
    assert sender.texts("dm:5") == ["hand 2"] and done == [(GAME, 1)], "the table still waits"
    budget.set()
    await delivery.idle()
    assert sender.texts("-1") == ["table two"] and done == [(GAME, 1), (GAME, 2)]
    sender.budgets["-1"] = asyncio.Event()
    await delivery.deliver(outcome(3, "three"))
    await delivery.close(timeout=0.05)  # the adapter stops before the group's budget allows
    assert done == [(GAME, 1), (GAME, 2)], "a cancelled table is still owed"


class Locks:
    """Store.message_lock's shape in memory: one lock per (game, key), yielding the refs as
    stored and a `save(patch)` that writes them (a key in `slow` saves once its event is set)."""

    class Held:
        def __init__(self, locks: Locks, key: str) -> None:
            self.refs = dict(locks.refs.stored)
            self._locks, self._key = locks, key

        async def save(self, patch: dict[str, Any]) -> None:
            slow = self._locks.slow.get(self._key)
            if slow is not None:
                await slow.wait()
            await self._locks.refs.save(GAME, patch)

    def __init__(self, refs: Refs) -> None:
        self.refs = refs
        self.locks: dict[tuple[int, str], asyncio.Lock] = {}
        self.slow: dict[str, asyncio.Event] = {}

    @contextlib.asynccontextmanager
    async def __call__(self, game_id: int, key: str):  # type: ignore[no-untyped-def]
        async with self.locks.setdefault((game_id, key), asyncio.Lock()):
            yield self.Held(self, key)


async def test_a_worker_stopped_mid_step_leaves_no_second_table() -> None:
    """Many workers: a table posted anew is saved together with the old one's id (`:gone`)
    before the old one's delete, which waits for the group's budget; nothing else saves the
    new id first (the people's screens' save leaves a held message's refs to its step). A
    worker stopped there leaves the refs saying so: whichever worker shows the table next
    deletes the old one and edits the new, so the group never keeps two tables."""
    sender, refs = Memory(), Refs()
    locks = Locks(refs)
    delivery = Delivery(sender, refs.load, refs.save, lock=locks)
    await delivery.deliver(outcome(1, "one", private={"5": screen("hand 1")}))
    await delivery.idle()
    old = refs.stored["table"]
    deleting = asyncio.Event()
    delete = sender.delete

    async def held_delete(to: str, message_id: int) -> None:
        deleting.set()
        await asyncio.Event().wait()  # the group's budget: this worker dies waiting

    sender.delete = held_delete  # type: ignore[method-assign]
    slow = locks.slow["table"] = asyncio.Event()  # the table step's own save is slow...
    await delivery.deliver(outcome(2, "two", private={"5": screen("hand 2")}, group_new=True))
    assert sender.texts("dm:5") == ["hand 2"] and "table two" in sender.texts("-1")
    assert refs.stored["table"] == old, "the people's save took the new table's id first"
    slow.set()
    await asyncio.wait_for(deleting.wait(), 1)
    new = refs.stored["table"]
    assert new != old and refs.stored["table:gone"] == old
    await delivery.close(timeout=0.05)  # the worker stops with the old table's delete owed
    assert len(sender.texts("-1")) == 2
    sender.delete = delete  # type: ignore[method-assign]
    survivor = Settled(sender, refs.load, refs.save, lock=Locks(refs))
    await survivor.deliver(outcome(3, "three"))
    assert sender.texts("-1") == ["table three"] and ("delete", "-1", old) in sender.calls
    assert refs.stored["table"] == new and not refs.stored["table:gone"]


async def test_a_flood_of_replies_waits_in_a_bounded_lane_and_notes_are_never_dropped() -> None:
    """Replies to a chat whose budget is spent: the same text waiting already is not queued
    twice, past MAX_PLAIN the oldest reply goes (a flooder's newest line is what counts), and
    a note — part of the game's story — is always kept."""
    sender, _refs, delivery = make(settled=False)
    budget = sender.budgets["dm:5"] = asyncio.Event()
    chat = Chat("5", private=True)
    said = [delivery.say(chat, "Type /help for the commands.") for _ in range(50)]
    said += [delivery.say(chat, f"reply {i}") for i in range(3 * MAX_PLAIN)]
    run = Run(sender, Outcome(), MessageRefs({}), None, delivery)
    note = delivery.lane(chat).put(run, Step(NOTE, screen("scores")))
    lane = delivery.lanes[chat]
    texts = [item.step.text for item in lane.pending.values() if item.step.role == TEXT]
    assert len(texts) == MAX_PLAIN and texts[-1] == f"reply {3 * MAX_PLAIN - 1}", texts
    assert delivery.dropped == 3 * MAX_PLAIN + 1 - MAX_PLAIN
    budget.set()
    await asyncio.wait_for(asyncio.gather(*said, note), 5)
    sent = [c for c in sender.calls if c[0] == "text"]
    assert len(sent) == MAX_PLAIN
    assert ("send", "dm:5", "scores", NOTE) in sender.calls


async def test_a_persons_own_answers_collapse_into_the_newest() -> None:
    """Answers to a person's own presses (Discord's ephemeral view needs the press's own
    interaction) waiting in their lane: the newest replaces the rest, and every press's waiter
    is settled when it goes."""
    from types import SimpleNamespace

    sender, _refs, delivery = make(settled=False)
    budget = sender.budgets["dm:5"] = asyncio.Event()
    waits = []
    for n in range(10):
        press = SimpleNamespace(user="5")
        waits.append(asyncio.ensure_future(delivery.deliver(
            outcome(n, f"view {n}", private={"5": screen(f"view {n}")}), press)))
    await asyncio.sleep(0.05)
    lane = delivery.lanes[Chat("5", private=True)]
    assert [item.step.screen.text for item in lane.pending.values()] == ["view 9"]
    budget.set()
    await asyncio.wait_for(asyncio.gather(*waits), 5)
    assert [c[2] for c in sender.calls if c[0] in ("send", "edit") and c[1] == "dm:5"] == [
        "view 9"]
