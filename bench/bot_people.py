"""Scripted Telegram users for bench/bot.py: the tests' players (tests/players/), timed by the
bench's fake (bench/bot_fake.py). They see only what the bot sent them and press only buttons it
sent (or, for the two baseline rows, buttons a client could send: a foreign one and a "noop").

- `solo`: one person and one computer; the person presses one button at a time, waits for the
  answer and the edit, lets the bot go quiet, then presses the next: the latency of one press on
  an idle bot, by kind (select a card, New group, Reset, Draw).
- `LoadGame`: two people and one computer per game; each person reads their screen and the
  group's table, decides with players/mind.py (in a worker process, so deciding doesn't stall
  the fake server's event loop) and plays it with the buttons: select the cards, Auto-place,
  Done; or Draw/Pass.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from bot_fake import BenchTelegram, Press
from players.mind import Plan, Sight, decide
from players.telegram import Person, game_of, version_of

PRESS_TIMEOUT = 20.0  # s: one press's answer / edit (the fake answers "query too old" at 15 s)
STUCK_S = 10.0  # s without "Your turn" on my screen before looking whether it was left behind
KINDS = {"next": "page", "joker": "done", "giveup": "draw", "cancel": "reset"}


class Deadline(Exception):
    """The phase's time is up: press nothing more."""


@dataclass
class BenchPerson(Person):
    """A person of the tests' harness, each press timed by the bench's fake; waits are per chat
    (a hundred people re-checking every condition on every request would measure the bench)."""

    presses: list[Press] = field(default_factory=list)
    deadline: float = float("inf")  # loop time after which this person presses nothing
    game: int = 0  # only screens whose buttons belong to this game count (0: any)
    pool: Executor | None = None  # where deciding runs (None: a thread)
    behind: int = 0  # times the table said it was my turn but my screen stayed older
    # a closed loop: read the group's table as it is (under the group's 20 a minute it lags a
    # turn or two; a lay planned on it that no longer fits is a fallback, counted)
    table_wait: float = 0.0

    def __post_init__(self) -> None:
        super().__post_init__()
        self.chat_id = self.tg.private_chat(self.user).id

    def private_message(self) -> Any:
        prefix = f"{self.game}:"

        def mine(message: Any) -> bool:
            if not (message.photo and message.buttons):
                return False
            return not self.game or any(
                (data or "").startswith(prefix) for row in message.buttons for _, data in row)

        return self.tg.newest_bot_message(self.chat_id, mine)

    async def until(self, condition: Callable[[], bool], timeout: float) -> None:
        if not await self.tg.wait_chat(self.chat_id, condition, timeout):
            raise TimeoutError(f"not within {timeout} s")

    async def quiet(self) -> None:
        """No request in my chat for 0.03 s (the bot has finished with my screen; press_and_wait
        has already waited for the press's answer and edit)."""
        for _ in range(100):
            request = self.tg.expect(self.chat_id, lambda _r: True)
            try:
                await asyncio.wait_for(request, 0.03)
            except TimeoutError:
                return

    async def press_raw(self, data: str, kind: str, *, wait_edit: bool = True,
                        strict: bool = True) -> Press:
        """Press this data on my screen; the bench's record of it."""
        if asyncio.get_running_loop().time() >= self.deadline:
            raise Deadline
        message = self.private_message()
        before = self.tg.recent(self.chat_id, 4)
        record = await self.tg.press_and_wait(
            self.chat_id, message.message_id, data, self.user, kind,
            timeout=PRESS_TIMEOUT, wait_edit=wait_edit, strict=strict,
        )
        self.presses.append(record)
        if "out of date" in record.text and kind != "refresh":
            self.notes.append(f"{kind} {data} answered 'out of date'; before the press: "
                              + " | ".join(before) + " || after: "
                              + " | ".join(self.tg.recent(self.chat_id, 3)))
        return record

    async def _press_data(self, message: Any, data: str, what: str) -> dict:
        word = what.split()[0]
        record = await self.press_raw(data, KINDS.get(word, word))
        return {"text": record.text, "show_alert": record.alert}

    async def think_over(self, sight: Sight) -> Plan:
        if self.pool is None:
            return await super().think_over(sight)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, decide, sight, self.rulebook,
                                          self.options, self.level)

    def phase(self) -> str:
        caption = (self.private_message() or _Blank).caption or ""
        if caption.startswith("Your turn"):
            return "turn"
        if caption.startswith(("Game over", "Round over")):
            return "over"
        return "wait"

    async def my_turn(self) -> bool:
        """Wait until my screen says it is my turn (True) or the game is over (False). If the
        group's table says it is my turn with a newer screen than mine for STUCK_S, my screen
        was left behind: count it and tap Sort for a fresh one, as a person would."""
        loop = asyncio.get_running_loop()
        while loop.time() < self.deadline:
            with contextlib.suppress(TimeoutError):
                await self.until(lambda: self.turn_shown() or self.phase() == "over",
                                 min(STUCK_S, max(0.01, self.deadline - loop.time())))
            if self.phase() == "over":
                return False
            if self.turn_shown():
                await self.quiet()
                if self.turn_shown():
                    return True
                continue
            mine = self.private_message()
            table = self.table_message(game_of(mine)) if mine is not None else None
            status = (table.caption or "").split("\n", 1)[0] if table is not None else ""
            if f"{self.user.first_name}'s turn" in status and (
                    version_of(table) > version_of(mine)):
                self.behind += 1
                self.notes.append(
                    f"the table said my turn at version {version_of(table)}, my screen still "
                    f"showed {version_of(mine)} after {STUCK_S:.0f} s; last requests here: "
                    + " | ".join(self.tg.recent(self.chat_id, 4)))
                sort = self.button(mine, lambda _t, d: d.endswith(":sort"))
                if sort is not None:
                    with contextlib.suppress(Deadline):
                        await self.press_raw(sort[1], "refresh")
        return False


class _Blank:
    caption = ""


# -- a game's lobby, by buttons ------------------------------------------------------------------


async def open_game(
    tg: BenchTelegram, group_id: int, host: Any, guests: list[Any], computers: int,
    rulebook: str, presses: list[Press],
) -> None:
    """/newgame, guests Join, the host adds computers (medium) and starts."""
    posted = tg.expect(group_id, lambda r: r.method == "sendPhoto")
    await tg.send_text(group_id, host, f"/newgame {rulebook}")
    try:
        await asyncio.wait_for(posted, PRESS_TIMEOUT)
    except TimeoutError:
        shown = tg.transcript(group_id)[-300:] or "nothing"
        raise RuntimeError(f"/newgame: no lobby within {PRESS_TIMEOUT:.0f} s; the group "
                           f"shows: {shown}") from None

    async def press(user: Any, label: str) -> Press:
        found = tg.find(group_id, label)
        if found is None:
            raise RuntimeError(f"no lobby button {label!r}")
        message, data = found
        record = await tg.press_and_wait(group_id, message.message_id, data, user, "lobby",
                                         timeout=PRESS_TIMEOUT)
        presses.append(record)
        if record.error or record.alert:
            raise RuntimeError(f"lobby {label!r}: {record.error or record.text}")
        return record

    for guest in guests:
        await press(guest, "Join")
    for _ in range(computers):
        await press(host, "Computer")
        await press(host, "medium")
    await press(host, "Start")


async def game_shown(person: BenchPerson, newer_than: int = 0) -> int:
    """The id of the game on this person's screen (newer than `newer_than`), once shown."""
    person.game = 0

    def shown() -> bool:
        return game_of(person.private_message()) > newer_than

    if not await person.tg.wait_chat(person.chat_id, shown, PRESS_TIMEOUT):
        raise RuntimeError("no screen of the new game after Start")
    person.game = game_of(person.private_message())
    return person.game


# -- the load: 2 people + 1 computer per game ----------------------------------------------------


@dataclass
class LoadGame:
    index: int
    tg: BenchTelegram
    pool: Executor
    rulebook: str
    deadline: float  # loop time
    presses: list[Press]
    game_id: int = 0  # from the screens (the bench's report looks the game up by it)
    turns: int = 0
    fallbacks: int = 0
    behind: int = 0
    error: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def group_id(self) -> int:
        return -200_000 - self.index

    async def run(self) -> None:
        tg = self.tg
        host = tg.user(10_000 + 2 * self.index, f"Ann{self.index}", started=True)
        guest = tg.user(10_001 + 2 * self.index, f"Ben{self.index}", started=True)
        group = tg.group(self.group_id, f"Bench table {self.index}")
        people = [BenchPerson(tg, u, rulebook=self.rulebook, group=group, presses=self.presses,
                              deadline=self.deadline, pool=self.pool) for u in (host, guest)]
        try:
            await open_game(tg, self.group_id, host, [guest], 1, self.rulebook, self.presses)
            self.game_id = await game_shown(people[0])
            for person in people[1:]:
                person.game = self.game_id
            await asyncio.gather(*(self.play(p) for p in people))
        except Exception as error:  # reported as an error of this game, the others go on
            self.error = f"{type(error).__name__}: {error}"[:200]
        for person in people:
            self.notes += person.notes
            self.behind += person.behind
            self.fallbacks += person.fallbacks

    async def play(self, person: BenchPerson) -> None:
        loop = asyncio.get_running_loop()
        for _turn in range(400):
            if loop.time() >= self.deadline or not await person.my_turn():
                return
            self.turns += 1
            try:
                sight = await person.look()
                plan = await person.think_over(sight)
                await person.play(plan)
                person.acted = max(person.acted, person.pressed)
            except Deadline:
                return


# -- one person alone, one press at a time ---------------------------------------------------------

SOLO_GROUP = -100_001
SOLO_USER = 900


async def solo(
    tg: BenchTelegram, rulebook: str, presses_wanted: int, deadline: float,
) -> tuple[list[Press], list[str]]:
    """Measured presses on an otherwise idle bot. Per turn: a foreign button (the floor: fake
    network + PTB + answer), a noop (+ load and save of the game), two card selections
    (+ screens, keyboard-only edit), New group and Reset (+ engine, picture, media upload) and
    Draw (+ the turn passing: group message, both screens, the computer starting)."""
    loop = asyncio.get_running_loop()
    group = tg.group(SOLO_GROUP, "Bench solo")
    alice = tg.user(SOLO_USER, "Alice", started=True)
    person = BenchPerson(tg, alice, rulebook=rulebook, group=group, deadline=deadline)
    setup: list[Press] = []
    measured: list[Press] = []
    games = 0

    async def new_game() -> None:
        nonlocal games
        await open_game(tg, SOLO_GROUP, alice, [], 1, rulebook, setup)
        await game_shown(person, person.game)
        person.acted = -1
        games += 1

    async def quiet() -> None:
        await tg.settle(quiet=0.05, timeout=10)

    async def step(data: str | None, kind: str, **kw: Any) -> Press | None:
        if data is None:
            person.notes.append(f"no button for {kind}")
            return None
        try:
            record = await person.press_raw(data, kind, **kw)
        except Deadline:
            return None
        measured.append(record)
        await quiet()
        return record

    def button(predicate: Callable[[str, str], bool]) -> str | None:
        found = person.button(person.private_message(), predicate)
        return found[1] if found else None

    def played() -> int:
        return sum(p.kind not in ("floor", "noop") for p in measured)

    await new_game()
    while played() < presses_wanted and loop.time() < deadline:
        if not await person.my_turn():
            if loop.time() >= deadline:
                break
            await quiet()
            await new_game()
            continue
        await quiet()
        version = version_of(person.private_message())
        await step("bench:not-ours", "floor", wait_edit=False, strict=False)
        await step(f"{person.game}:{version}:noop", "noop", wait_edit=False, strict=False)
        for _ in range(2):
            await step(button(lambda _t, d: ":s1:" in d), "select")
        await step(button(lambda t, _d: t == "New group"), "new")
        await step(button(lambda t, _d: "Reset" in t), "reset")
        ending = button(lambda t, _d: t == "Draw") or button(lambda t, _d: t == "Pass")
        person.acted = max(person.acted, version_of(person.private_message()))
        await step(ending, "draw")
    person.notes.append(f"{games} solo game(s)")
    return measured, person.notes
