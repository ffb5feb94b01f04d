"""Scripted Telegram users for bench/bot.py. They only press buttons the bot really sent (or, for
the two baseline rows, buttons a client could send: a foreign one and a "noop").

- `solo`: one person and one computer; the person presses one button at a time, waits for the
  answer and the edit, lets the bot go quiet, then presses the next: the latency of one press on
  an idle bot, by kind (select a card, New group, Reset, Draw).
- `LoadGame`: two people and one computer per game; each person decides with
  engine.rummy.ai.choose_action (in a worker process, so deciding doesn't stall the fake server's
  event loop) and plays it with the buttons: select the cards, Auto-place, Done; or Draw/Pass.
"""

from __future__ import annotations

import asyncio
import contextlib
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from bot_fake import BenchTelegram, Press

PRESS_TIMEOUT = 20.0  # s: one press's answer / edit (the fake answers "query too old" at 15 s)
STUCK_S = 10.0  # s without "Your turn" on my screen before checking whether it was left behind


class Deadline(Exception):
    """The phase's time is up: press nothing more."""


# -- deciding (runs in a worker process) ---------------------------------------------------------


def decide(state: dict, seat: int, level: str = "medium") -> tuple[str, list[str]]:
    """What a person who knows the rules would do: ("commit"|"knock", hand tokens to place),
    ("draw"|"pass"|"knock"|"done", [])."""
    from engine.rummy import Commit, Draw, GameState, Knock, Pass, player_view
    from engine.rummy.ai import choose_action

    game = GameState.from_dict(state)
    action = choose_action(player_view(game, seat), level)
    if isinstance(action, (Commit, Knock)) and action.arrangement is not None:
        hand = {c.ident: c.token for c in game.hands[seat]}
        placed = [hand[c.ident] for g in action.arrangement for c in g if c.ident in hand]
        return ("knock" if isinstance(action, Knock) else "commit", placed)
    if isinstance(action, Knock):
        return "knock", []
    if isinstance(action, Commit):
        return "done", []
    if isinstance(action, Draw):
        return "draw", []
    if isinstance(action, Pass):
        return "pass", []
    return type(action).__name__.lower(), []


# -- one person ----------------------------------------------------------------------------------


@dataclass
class Person:
    tg: BenchTelegram
    user: Any  # FakeUser
    presses: list[Press]
    deadline: float = float("inf")  # loop time after which this person presses nothing
    game_id: int = 0  # only screens whose buttons belong to this game count (0: any)
    chat_id: int = 0
    behind: int = 0  # times my turn was stored but my screen stayed older for 2 s
    notes: list[str] = field(default_factory=list)  # bench-side problems (timeouts, oddities)

    def __post_init__(self) -> None:
        self.chat_id = self.tg.private_chat(self.user).id

    def screen(self):
        """The bot's newest private message with a picture and buttons (of this game)."""
        prefix = f"{self.game_id}:"

        def mine(message) -> bool:
            if not (message.photo and message.buttons):
                return False
            return not self.game_id or any(
                (data or "").startswith(prefix) for row in message.buttons for _, data in row)

        return self.tg.newest_bot_message(self.chat_id, mine)

    @staticmethod
    def version(message) -> int:
        for row in message.buttons:
            for _label, data in row:
                if data and data.count(":") >= 2:
                    return int(data.split(":")[1])
        return -1

    def phase(self) -> str:
        message = self.screen()
        if message is None:
            return "none"
        caption = message.caption or ""
        if caption.startswith("Your turn"):
            return "turn"
        if caption.startswith("Game over"):
            return "over"
        if caption.startswith("Round over"):
            return "round"
        return "wait"

    def button(self, predicate) -> str | None:
        message = self.screen()
        if message is None:
            return None
        for row in message.buttons:
            for label, data in row:
                if data and predicate(label, data):
                    return data
        return None

    async def press(self, data: str, kind: str, *, wait_edit: bool = True,
                    strict: bool = True) -> Press:
        if asyncio.get_running_loop().time() >= self.deadline:
            raise Deadline
        message = self.screen()
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

    async def press_label(self, label: str, kind: str) -> Press | None:
        data = self.button(lambda text, _d: label in text)
        if data is None:
            self.notes.append(f"no button {label!r}")
            return None
        return await self.press(data, kind)

    async def select(self, token: str) -> Press | None:
        """Tap a card, paging (▶) through a long hand to find it."""
        for _ in range(6):
            data = self.button(lambda _t, d: d.endswith(f":s1:{token}"))
            if data is not None:
                return await self.press(data, "select")
            if self.button(lambda _t, d: d.endswith(f":s0:{token}")):
                return None  # already selected
            if await self.press_label("▶", "page") is None:
                break
        self.notes.append(f"card {token} not on any page")
        return None

    async def wait_turn(self, store: Any, game_id: int, seat: int, deadline: float) -> dict | None:
        """Wait until my screen says "Your turn" for the stored state (returned), or the game is
        over (None). If my screen shows no turn of mine for STUCK_S while the store says it is my
        turn, the screen was left behind: count it, and tap Sort to get a fresh one (as a person
        would tap something)."""
        loop = asyncio.get_running_loop()
        while loop.time() < deadline:
            ok = await self.tg.wait_chat(
                self.chat_id, lambda: self.phase() in ("turn", "over"),
                timeout=min(STUCK_S, deadline - loop.time()),
            )
            shown = self.version_now()
            if ok and self.phase() == "over":
                return None
            row = await store.get_game(game_id)
            if row is None or row.status != "playing":
                return None
            state = row.record.get("state") or {}
            mine = state.get("turn") == seat and state.get("phase") == "play"
            if ok and mine and state.get("version") == shown:
                return state
            if not ok:
                if mine and state.get("version", -1) > shown:
                    # The store is ahead of my screen: give the bot another STUCK_S to show it.
                    caught_up = await self.tg.wait_chat(
                        self.chat_id, lambda v=state["version"]: self.version_now() >= v,
                        min(STUCK_S, max(0.0, deadline - loop.time())))
                    if not caught_up and loop.time() < deadline:
                        await self.refresh(shown, state)
                continue
            # "Your turn" is shown but the store moved on (an edit is on its way): wait for it.
            moved = await self.tg.wait_chat(
                self.chat_id, lambda s=shown: self.version_now() != s, STUCK_S)
            if not moved and mine and state.get("version", -1) > shown:
                await self.refresh(shown, state)
        return None

    async def refresh(self, shown: int, state: dict) -> None:
        self.behind += 1
        self.notes.append(f"my turn at version {state.get('version')} but my screen still showed "
                          f"version {self.version_now()} after {STUCK_S:.0f}+{STUCK_S:.0f} s; "
                          "last requests here: " + " | ".join(self.tg.recent(self.chat_id, 4)))
        data = self.button(lambda _t, d: d.endswith(":sort"))
        if data is not None:
            with contextlib.suppress(Deadline):
                await self.press(data, "refresh")

    def version_now(self) -> int:
        message = self.screen()
        return -1 if message is None else self.version(message)


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


# -- the load: 2 people + 1 computer per game ----------------------------------------------------


@dataclass
class LoadGame:
    index: int
    tg: BenchTelegram
    store: Any
    pool: Executor
    rulebook: str
    deadline: float  # loop time
    presses: list[Press]
    game_id: int = 0
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
        tg.group(self.group_id, f"Bench table {self.index}")
        try:
            await open_game(tg, self.group_id, host, [guest], 1, self.rulebook, self.presses)
            row = await self.store.active_game("telegram", str(self.group_id))
            if row is None:
                raise RuntimeError("no active game after Start")
            self.game_id = row.id
            seats = {s["user"]: i for i, s in enumerate(row.record["seats"]) if s.get("user")}
            people = [Person(tg, u, self.presses, self.deadline, row.id) for u in (host, guest)]
            await asyncio.gather(*(self.play(p, seats[str(p.user.id)]) for p in people))
            for person in people:
                self.notes += person.notes
                self.behind += person.behind
        except Exception as error:  # reported as an error of this game, the others go on
            self.error = f"{type(error).__name__}: {error}"[:200]

    async def play(self, person: Person, seat: int) -> None:
        loop = asyncio.get_running_loop()
        for _turn in range(400):
            if loop.time() >= self.deadline:
                return
            state = await person.wait_turn(self.store, self.game_id, seat, self.deadline)
            if state is None or loop.time() >= self.deadline:
                return
            self.turns += 1
            kind, tokens = await loop.run_in_executor(self.pool, decide, state, seat)
            try:
                await self.act(person, kind, tokens)
            except Deadline:
                return

    async def act(self, person: Person, kind: str, tokens: list[str]) -> None:
        if kind in ("commit", "knock") and tokens:
            ok = True
            for token in tokens:
                record = await person.select(token)
                ok = ok and (record is None or not (record.error or record.alert))
            if ok:
                record = await person.press_label("Auto-place", "auto")
                ok = record is not None and not (record.error or record.alert)
            if ok:
                record = await person.press_label("Knock" if kind == "knock" else "Done", "done")
                ok = record is not None and not (record.error or record.alert)
            if not ok:
                await self.fallback(person)
            return
        label = {"draw": "Draw", "pass": "Pass", "knock": "Knock", "done": "Done"}.get(kind)
        if label is None or await person.press_label(label, kind) is None:
            person.notes.append(f"cannot play {kind}")
            await self.fallback(person)

    async def fallback(self, person: Person) -> None:
        """The planned move didn't work out by buttons: put the table back and draw (or pass)."""
        self.fallbacks += 1
        if person.phase() != "turn":
            return
        if person.button(lambda t, _d: "Reset" in t):
            await person.press_label("Reset", "reset")
        for label, kind in (("Draw", "draw"), ("Pass", "pass")):
            if person.button(lambda t, _d, lb=label: t == lb):
                await person.press_label(label, kind)
                return


# -- one person alone, one press at a time ---------------------------------------------------------

SOLO_GROUP = -100_001
SOLO_USER = 900


async def solo(
    tg: BenchTelegram, store: Any, rulebook: str, presses_wanted: int, deadline: float,
) -> tuple[list[Press], list[str]]:
    """Measured presses on an otherwise idle bot. Per turn: a foreign button (the floor: fake
    network + PTB + answer), a noop (+ load and save of the game), two card selections
    (+ screens, keyboard-only edit), New group and Reset (+ engine, picture, media upload) and
    Draw (+ the turn passing: group message, both screens, the computer starting)."""
    loop = asyncio.get_running_loop()
    tg.group(SOLO_GROUP, "Bench solo")
    alice = tg.user(SOLO_USER, "Alice", started=True)
    person = Person(tg, alice, [], deadline)
    setup: list[Press] = []
    measured: list[Press] = []
    games = 0
    game_id, seat = 0, 0

    async def new_game() -> None:
        nonlocal game_id, seat, games
        await open_game(tg, SOLO_GROUP, alice, [], 1, rulebook, setup)
        row = await store.active_game("telegram", str(SOLO_GROUP))
        game_id, games = row.id, games + 1
        person.game_id = game_id
        seat = next(i for i, s in enumerate(row.record["seats"]) if s.get("user"))

    async def quiet() -> None:
        await tg.settle(quiet=0.05, timeout=10)

    async def step(data: str | None, kind: str, **kw: Any) -> Press | None:
        if data is None:
            person.notes.append(f"no button for {kind}")
            return None
        try:
            record = await person.press(data, kind, **kw)
        except Deadline:
            return None
        measured.append(record)
        await quiet()
        return record

    def played() -> int:
        return sum(p.kind not in ("floor", "noop") for p in measured)

    await new_game()
    while played() < presses_wanted and loop.time() < deadline:
        state = await person.wait_turn(store, game_id, seat, deadline)
        if state is None:
            if loop.time() >= deadline:
                break
            row = await store.get_game(game_id)
            if row is not None and row.status == "playing":
                continue  # not over after all: wait on (bounded by the deadline)
            await quiet()
            await new_game()
            continue
        await quiet()
        version = state["version"]
        await step("bench:not-ours", "floor", wait_edit=False, strict=False)
        await step(f"{game_id}:{version}:noop", "noop", wait_edit=False, strict=False)
        for _ in range(2):
            await step(person.button(lambda _t, d: ":s1:" in d), "select")
        await step(person.button(lambda t, _d: t == "New group"), "new")
        await step(person.button(lambda t, _d: "Reset" in t), "reset")
        ending = person.button(lambda t, _d: t == "Draw") or person.button(
            lambda t, _d: t == "Pass")
        await step(ending, "draw")
    person.notes.append(f"{games} solo game(s)")
    return measured, person.notes
