"""`rummy party` (issue 37): the lobby's door and the seats' keys on the real aiohttp app —
lobby → the host's choices → start → every seat's own table; a forged key, another seat, the
host's actions, a watcher who never gets a hand; bounds and the meter; a restart that carries
on; a seat handed to a new phone; the party served on this machine's own (non-loopback)
address. The browser tests (three phones) are in tests/test_party_page.py."""

from __future__ import annotations

import contextlib
import json
import shutil
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from bot.core.record import Record
from bot.core.service import GameService
from bot.games import default_games
from bot.store import Store
from bot.web import party as party_mod
from bot.web.party import PLATFORM, ROOM, Party, new_key, read_claim, serve_party, user_of

SECRET = b"party-secret-0123456789abcdef012"


@dataclass
class Room:
    party: Party
    service: GameService
    store: Store
    base: str
    runner: Any

    async def record(self) -> tuple[Any, Record]:
        row = await self.store.active_game(PLATFORM, ROOM) or await self.store.last_game(
            PLATFORM, ROOM)
        return row, Record.from_dict(row.record)


async def open_room(path: Path, *, host: str = "127.0.0.1", delay: float = 0) -> Room:
    store = await Store.open(f"sqlite+aiosqlite:///{path}")
    service = GameService(store, games=default_games(), computer_delay=delay, tick=0.05)
    room = Party(service, SECRET)
    await service.start()
    runner = await serve_party(room, host, 0)
    port = runner.addresses[0][1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "127.0.0.1") else host
    room.address = f"http://{shown}:{port}/"
    return Room(room, service, store, f"http://{shown}:{port}", runner)


async def close_room(room: Room) -> None:
    await room.party.close()
    await room.runner.cleanup()
    await room.service.stop()
    await room.store.close()


@contextlib.asynccontextmanager
async def a_room(tmp_path: Path, template: Path, **kw: Any) -> AsyncIterator[Room]:
    path = tmp_path / "party.db"
    if not path.exists():
        shutil.copy(template, path)
    room = await open_room(path, **kw)
    try:
        yield room
    finally:
        await close_room(room)


class Phone:
    """One device: its own HTTP session and the seat key its page would keep."""

    def __init__(self, room: Room, lang: str = "en", address: str = "127.0.0.1") -> None:
        self.room, self.lang, self.key = room, lang, ""
        self.http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))

    async def close(self) -> None:
        await self.http.close()

    async def post(self, path: str, body: dict, *, key: str | None = None) -> tuple[int, dict]:
        body = {**body, "lang": self.lang}
        if (key if key is not None else self.key):
            body["key"] = key if key is not None else self.key
        async with self.http.post(self.room.base + path, json=body) as answer:
            return answer.status, await answer.json()

    async def do(self, what: str, arg: str | None = None, seat: int | None = None,
                 **kw: Any) -> tuple[int, dict]:
        body: dict[str, Any] = {"do": what}
        if arg is not None:
            body["arg"] = arg
        if seat is not None:
            body["seat"] = seat
        status, data = await self.post("/party/do", body, **kw)
        if "key" in data and status == 200:
            self.key = data["key"]
        return status, data

    async def state(self, **kw: Any) -> tuple[int, dict]:
        return await self.post("/party/state", {"seen": -1}, **kw)

    async def frame(self, table: str) -> dict:
        """The first state frame the table page at `table` gets (its session, its socket)."""
        query = parse_qs(urlsplit(table).query)
        body = {"link": query["k"][0]} if "k" in query else {"game": query["g"][0]}
        async with self.http.post(self.room.base + "/web/session", json=body) as answer:
            assert answer.status == 200, await answer.text()
            token = (await answer.json())["token"]
        async with self.http.ws_connect(self.room.base + "/web/socket",
                                        protocols=("rummy", token)) as ws:
            await ws.send_str('{"t":"hello","v":0}')
            while True:
                message = await ws.receive(timeout=5)
                assert message.type == aiohttp.WSMsgType.TEXT, message
                frame = json.loads(message.data)
                if frame.get("t") == "state":
                    return frame


@contextlib.asynccontextmanager
async def phones(room: Room, *langs: str) -> AsyncIterator[list[Phone]]:
    made = [Phone(room, lang) for lang in langs]
    try:
        yield made
    finally:
        for phone in made:
            await phone.close()


async def seated_game(room: Room, alice: Phone, bob: Phone, *, start: bool = True) -> None:
    """Alice opens the lobby (the host), Bob joins, Rummikub, one computer; started."""
    assert (await alice.do("join", "Alice"))[0] == 200
    assert (await bob.do("join", "Bob"))[0] == 200
    status, data = await alice.do("game", "rummy/rummikub")
    assert status == 200, data
    assert (await alice.do("cpu", "easy"))[0] == 200
    if start:
        status, data = await alice.do("start")
        assert status == 200, data


# -- keys ------------------------------------------------------------------------------------


def test_a_key_is_this_partys_and_a_claim_expires():
    key = new_key(SECRET)
    assert user_of(SECRET, key) is not None
    assert user_of(SECRET, key) == user_of(SECRET, key)
    assert user_of(b"another party's secret 012345678", key) is None
    token, _dot, mac = key.partition(".")
    assert user_of(SECRET, token + "." + mac[:-1] + ("A" if mac[-1] != "A" else "B")) is None
    for junk in (None, 7, "", "x" * 200, "é.é", key + "\n", [key]):
        assert user_of(SECRET, junk) is None
    claim = party_mod.claim_token(SECRET, "p123", 1000.0, seconds=60)
    assert read_claim(SECRET, claim, 1059.0) == "p123"
    assert read_claim(SECRET, claim, 1060.0) is None
    assert read_claim(SECRET, claim.replace("p123", "p124"), 1000.0) is None


# -- the lobby, start, each seat's table -----------------------------------------------------


async def test_lobby_to_every_seats_own_table(tmp_path, sqlite_template):
    async with a_room(tmp_path, sqlite_template) as room, phones(
            room, "en", "en", "en") as (alice, bob, carol):
        _status, empty = await carol.state()
        assert empty["game"] is None and "no_game" in empty["words"]
        await seated_game(room, alice, bob, start=False)
        _status, lobby = await alice.state()
        game = lobby["game"]
        assert game["status"] == "lobby" and game["title"] == "Rummikub"
        assert [s["me"] for s in game["seats"]] == [True, False, False]
        assert lobby["me"]["host"] and "choices" in lobby
        titles = [g["title"] for g in lobby["choices"]["games"]]
        assert "Rummikub" in titles and "Build-to-Ten" in titles  # every game, the registry's
        options = {o["key"]: o for o in lobby["choices"]["options"]}
        assert options, "Rummikub's options"
        meld = options["initial_meld"]  # the option named once, each value alone
        assert meld["prompt"] == "Initial meld" and "30" in [v["label"] for v in meld["values"]]
        assert [v["on"] for v in meld["values"]].count(True) == 1
        _status, guest = await bob.state()
        assert not guest["me"]["host"] and "choices" not in guest
        status, data = await bob.do("start")
        assert status == 409
        status, data = await alice.do("start")
        assert status == 200 and data["game"]["status"] == "playing", data
        _row, record = await room.record()
        assert record.state is not None and record.game_name == "rummy"
        assert record.rulebook == "rummikub" and len(record.seats) == 3
        hands = []
        for phone in (alice, bob):
            _status, seen = await phone.state()
            assert seen["game"]["status"] == "playing" and "&k=" in seen["table"]
            frame = await phone.frame(seen["table"])
            view = frame["view"]
            assert view["hand"], "a seat sees its own hand"
            hands.append({c["id"] for c in view["hand"]})
        assert not hands[0] & hands[1]
        # a late arrival watches: no seat, a watch link, and no hand in its frame
        status, data = await carol.do("join", "Carol")
        assert status == 200 and data["me"]["seat"] is None and "&k=" not in data["table"]
        frame = await carol.frame(data["table"])
        assert frame["view"]["hand"] is None


async def test_two_first_joins_at_once_share_one_lobby(tmp_path, sqlite_template):
    import asyncio

    async with a_room(tmp_path, sqlite_template) as room, phones(room, "en", "en", "en") as (
            a, b, c):
        answers = await asyncio.gather(a.do("join", "A"), b.do("join", "B"), c.do("join", "C"))
        assert [status for status, _data in answers] == [200, 200, 200], answers
        _row, record = await room.record()
        assert sorted(s.name for s in record.seats) == ["A", "B", "C"]
        assert sum(data["me"]["host"] for _status, data in answers) == 1


async def test_a_forged_key_is_refused_everywhere(tmp_path, sqlite_template):
    async with a_room(tmp_path, sqlite_template) as room, phones(room, "en", "en") as (
            alice, mallory):
        await alice.do("join", "Alice")
        forged = [new_key(b"not this party's secret 01234567"), alice.key[:-2] + "xx",
                  alice.key.split(".")[0], "a.b"]
        for key in forged:
            status, data = await mallory.state(key=key)
            assert status == 403 and "not valid" in data["error"]
            for what, arg in (("start", None), ("cpu", "easy"), ("join", "Mallory"),
                              ("leave", None)):
                status, data = await mallory.do(what, arg, key=key)
                assert status == 403, (what, data)
        _row, record = await room.record()
        assert len(record.seats) == 1 and record.state is None


async def test_only_the_host_chooses_and_starts(tmp_path, sqlite_template):
    async with a_room(tmp_path, sqlite_template) as room, phones(room, "en", "en", "en") as (
            alice, bob, eve):
        await seated_game(room, alice, bob, start=False)
        await eve.do("join", "Eve")
        _row, before = await room.record()
        for phone in (bob, eve):
            for what, arg in (("start", None), ("cpu", "hard"), ("game", "build-to-ten/classic"),
                              ("timer", "60"), ("opt", "jokers=2")):
                status, data = await phone.do(what, arg)
                assert status == 409 and data["error"] == "Only the host can do that.", (
                    what, data)
            status, data = await phone.do("handover", seat=0)
            assert status == 409 and "claim" not in data
        _row, after = await room.record()
        assert after.seats == before.seats and after.rulebook == before.rulebook
        assert after.state is None
        # a game of the registry by a name it does not have: refused, nothing changed
        status, _data = await alice.do("game", "chess/classic")
        assert status == 409


async def test_no_page_acts_for_another_seat_or_sees_its_hand(tmp_path, sqlite_template):
    async with a_room(tmp_path, sqlite_template) as room, phones(room, "en", "en") as (
            alice, bob):
        await seated_game(room, alice, bob)
        _status, mine = await bob.state()
        link = parse_qs(urlsplit(mine["table"]).query)["k"][0]
        payload, _dot, mac = link.partition(".")
        # Bob's link with Alice's user id in it: the signature no longer fits
        import base64

        fields = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        _row, record = await room.record()
        fields[1] = record.seats[0].user
        forged = base64.urlsafe_b64encode(json.dumps(fields).encode()).rstrip(b"=").decode()
        async with bob.http.post(room.base + "/web/session",
                                 json={"link": f"{forged}.{mac}"}) as answer:
            assert answer.status == 403
        # Bob's own table: Bob's seat; its hand is none of Alice's cards
        frame = await bob.frame(mine["table"])
        assert frame["view"]["seat"] == 1
        _status, hers = await alice.state()
        alice_hand = {c["id"] for c in (await alice.frame(hers["table"]))["view"]["hand"]}
        assert not alice_hand & {c["id"] for c in frame["view"]["hand"]}
        # the lobby's view of Bob names no key and no other seat's secret
        text = json.dumps(mine)
        assert alice.key not in text and alice.key.split(".")[0] not in text


async def test_a_name_is_text_and_every_body_is_bounded_and_metered(tmp_path, sqlite_template):
    async with a_room(tmp_path, sqlite_template) as room, phones(room, "en", "en") as (
            alice, bob):
        status, data = await alice.do("join", "<img src=x onerror=alert(1)>\u202e\u200b" + "x" * 60)
        assert status == 200
        name = data["game"]["seats"][0]["name"]
        assert name.startswith("<img src=x") and "\u202e" not in name and len(name) <= 40
        status, data = await bob.do("join", "   ")
        assert status == 409 and data["error"] == "Pick a name first."
        async with bob.http.post(room.base + "/party/do", data=b"{" * 5000,
                                 headers={"Content-Type": "application/json"}) as answer:
            assert answer.status == 400
        for body in ({"do": "join", "arg": "B", "extra": 1}, {"do": "explode"}, [],
                     {"do": "join", "arg": 7}, {"do": "computer", "seat": -1},
                     {"do": "join", "arg": "x" * 700}, {"seen": "1", "junk": True}):
            async with bob.http.post(room.base + "/party/do", json=body) as answer:
                assert answer.status == 400, body
        # a flood from one address: slowed, not served
        answers = []
        for _ in range(120):
            async with bob.http.post(room.base + "/party/state", json={"seen": -1}) as answer:
                answers.append(answer.status)
        assert 429 in answers and answers[0] == 200


async def test_a_restart_carries_on_with_the_same_keys(tmp_path, sqlite_template):
    async with a_room(tmp_path, sqlite_template) as room, phones(room, "en", "en") as (
            alice, bob):
        await seated_game(room, alice, bob)
        keys = alice.key, bob.key
        _row, record = await room.record()
        game = _row.id
    async with a_room(tmp_path, sqlite_template) as again, phones(again, "en", "en") as (
            alice2, bob2):
        alice2.key, bob2.key = keys
        _status, seen = await bob2.state()
        assert seen["game"]["id"] == game and seen["game"]["status"] == "playing"
        assert seen["me"]["seat"] == 1
        frame = await bob2.frame(seen["table"])
        assert frame["view"]["hand"]
        row, after = await again.record()
        assert after.seed == record.seed and row.id == game


async def test_a_seat_handed_to_a_new_phone_and_one_taken_by_a_computer(
        tmp_path, sqlite_template):
    async with a_room(tmp_path, sqlite_template) as room, phones(
            room, "en", "en", "en") as (alice, bob, new):
        await seated_game(room, alice, bob)
        old_key = bob.key
        status, data = await alice.do("handover", seat=1)
        assert status == 200 and "?claim=" in data["claim"]
        assert data["claim_qr"].startswith("data:image/svg+xml;base64,")
        claim = parse_qs(urlsplit(data["claim"]).query)["claim"][0]
        status, data = await new.do("claim", claim)
        assert status == 200 and data["me"]["seat"] == 1 and new.key != old_key
        _status, seen = await bob.state(key=old_key)
        assert seen["me"]["seat"] is None  # the old phone no longer has the seat
        assert (await new.do("claim", claim))[0] == 409  # a claim works once
        # the host lets a computer play the seat of someone who went home
        status, data = await alice.do("computer", seat=1)
        assert status == 200, data
        _row, record = await room.record()
        assert record.seats[1].is_computer and record.seats[1].was_human
        # only the host ends the room's game; then whoever joins first opens the next lobby
        assert (await bob.do("end", key=new.key))[0] == 409
        status, data = await alice.do("end")
        assert status == 200 and data["game"]["status"] == "ended", data
        status, data = await new.do("join", "Bob")
        assert status == 200 and data["game"]["status"] == "lobby" and data["me"]["host"]


# -- the network -----------------------------------------------------------------------------


def own_address() -> str | None:
    """This machine's own IPv4 address that is not loopback, if it has one."""
    found = []
    with contextlib.suppress(OSError):
        found += [i[4][0] for i in socket.getaddrinfo(socket.gethostname(), None,
                                                      socket.AF_INET)]
    with contextlib.suppress(OSError):
        found += [str(urlsplit(a).hostname) for a in party_mod.addresses("0.0.0.0", 1)]
    return next((a for a in found if not a.startswith("127.")), None)


async def test_the_party_serves_on_this_machines_own_address(tmp_path, sqlite_template):
    address = own_address()
    if address is None:
        pytest.skip("this machine has no IPv4 address but loopback")
    assert f"http://{address}:8765/" in party_mod.addresses("0.0.0.0", 8765)
    async with a_room(tmp_path, sqlite_template, host="0.0.0.0") as room:
        room.base = room.base.replace("127.0.0.1", address)
        room.party.address = room.base + "/"
        phone_a, phone_b = Phone(room, "en", address), Phone(room, "he", address)
        try:
            async with phone_a.http.get(room.base + "/") as answer:
                assert answer.status == 200 and "lobby.js" in await answer.text()
            async with phone_a.http.get(room.base + "/party/qr.svg") as answer:
                assert answer.status == 200 and b"<svg" in await answer.read()
            await seated_game(room, phone_a, phone_b)
            _status, seen = await phone_b.state()
            assert seen["address"] == room.base + "/"
            frame = await phone_b.frame(seen["table"])
            assert frame["view"]["hand"] and frame["view"]["seat"] == 1
            _row, record = await room.record()
            assert [s.lang for s in record.seats[:2]] == ["en", "he"]  # each seat's own
        finally:
            await phone_a.close()
            await phone_b.close()


# -- `rummy party` itself --------------------------------------------------------------------


async def test_rummy_party_prints_its_address_and_a_restart_carries_on(tmp_path):
    import asyncio

    lines: list[str] = []
    data = tmp_path / "data"
    data.mkdir()

    async def run(until) -> None:
        stop = asyncio.Event()
        ready = asyncio.Event()
        seen: dict = {}

        def on_ready(party, shown) -> None:
            seen["party"], seen["shown"] = party, shown
            ready.set()

        task = asyncio.create_task(party_mod.run_party(
            data=data, host="127.0.0.1", port=0, write=lines.append, stop=stop,
            computer_delay=0, ready=on_ready))
        await asyncio.wait_for(ready.wait(), 60)
        try:
            await until(seen["shown"][0])
        finally:
            stop.set()
            await task

    keys: dict[str, str] = {}

    async def first(address: str) -> None:
        assert address.startswith("http://127.0.0.1:")
        body = {"do": "join", "arg": "Ann"}
        async with aiohttp.ClientSession() as http, http.post(address + "party/do",
                                                             json=body) as a:
            assert a.status == 200
            keys["ann"] = (await a.json())["key"]

    await run(first)
    assert any("Rummy party: open http://127.0.0.1:" in line for line in lines)
    assert any("▀" in line or "█" in line for line in lines), "the QR code"
    assert (data / "party.db").exists() and (data / "party-secret").stat().st_mode & 0o077 == 0

    async def again(address: str) -> None:
        async with aiohttp.ClientSession() as http, http.post(address + "party/state",
                             json={"key": keys["ann"], "seen": -1}) as a:
            assert a.status == 200
            seen = await a.json()
        assert seen["me"]["seat"] == 0 and seen["me"]["host"]
        assert seen["game"]["status"] == "lobby"

    await run(again)


@pytest.mark.parametrize("argv", [["party"], ["play", "--party"]])
def test_make_play_party_and_rummy_party_are_the_same_command(argv, tmp_path, monkeypatch):
    from bot import cli

    called: list[dict] = []

    async def fake(**kw: Any) -> None:
        called.append(kw)

    monkeypatch.setattr(party_mod, "run_party", fake)
    assert cli.main([*argv, "--data", str(tmp_path / "d"), "--port", "0"]) == 0
    assert called and called[0]["host"] == "0.0.0.0" and called[0]["port"] == 0
    assert called[0]["data"] == tmp_path / "d"
