"""Whole games in Hebrew, every screen through UAX #9 (python-bidi): a Hebrew group's host lets
every turn time out (the computer plays it for them, and here never takes the seat over), so
the computers play the game to its end. Every text the game sends — the group's table, its
notes and score lines, each private screen, their buttons, replies and log — is laid out as a
right-to-left phone shows it; card runs must read as typed, negative numbers keep their sign in
front, and a line that lists every seat lists them in seat order from the right."""

from __future__ import annotations

import asyncio
import re

import pytest
from bidi import get_display
from test_bidi import misshown_runs, visual
from test_core import env  # noqa: F401  (the fixture)

import bot.core.turns as turns
import bot.games.rummy.host as rummy_host
from bot.core.record import Record
from bot.core.service import Actor, pack
from bot.games.rummy.records import rules_of
from bot.i18n import FSI, PDI, strip_bidi

HOST = Actor("test", "-1", "1", "Alice", lang="he")  # a Latin name in a Hebrew group
SIGNED = re.compile(r"(?<![\w+-])-\d+")


@pytest.fixture
def no_takeover(monkeypatch):
    """The host's seat stays theirs however often its turn times out."""
    for module in (turns, rummy_host):  # the platform's turn flow; rummy's sentence names it
        monkeypatch.setattr(module, "TIMEOUTS_BEFORE_COMPUTER", 10**6)


def texts(outcomes) -> list[str]:
    """Every text a reader sees in these outcomes: messages, captions, buttons, replies."""
    seen = []
    for o in outcomes:
        screens = [s for s in (o.group, *o.notes, *o.private.values()) if s is not None]
        seen += [o.reply or "", *o.private_notes.values(), *o.log]
        for screen in screens:
            seen.append(screen.text)
            seen += [b.label for row in screen.buttons for b in row]
            seen += [b.label for b in screen.cards]
    return [x for x in seen if x]


def shown_name(name: str) -> str:
    return strip_bidi(get_display(FSI + name + PDI, base_dir="R"))


def problems(text: str, names: list[str]) -> list[str]:
    found = [f"cards {run!r}" for run in misshown_runs(text)]
    for line, shown in zip(text.split("\n"), visual(text), strict=True):
        found += [f"sign {m.group()!r}" for m in SIGNED.finditer(strip_bidi(line))
                  if m.group() not in shown]
        if all(strip_bidi(line).count(n) == 1 for n in names):
            places = [shown.find(shown_name(n)) for n in names]
            if places != sorted(places, reverse=True) or -1 in places:
                found.append(f"seat order {shown!r}")
    return found


async def _play_to_the_end(service, store, clock, rulebook: str, options: list[str]) -> Record:
    out = await service.new_game(HOST, rulebook)
    gid = out.game_id

    async def press(action: str) -> None:
        row = await store.get_game(gid)
        await service.press(HOST, pack(gid, row.record.get("lobby_version", 0), action))

    for action in ["cpu:easy", "cpu:easy", *options, "start"]:
        await press(action)
    for _ in range(3000):
        row = await store.get_game(gid)
        if row.status != "playing":
            break
        rec = Record.from_dict(row.record)
        state = rec.state
        if state.get("phase") == "round_over":  # the host starts the next round (or finishes)
            finish = rules_of(rec).game_end.finish_by_choice and state["round"] >= 2
            await service.press(HOST, pack(gid, state["version"], "finish" if finish else "next"))
        elif not rec.seats[state["turn"]].is_computer:
            clock.now += rec.turn_seconds + 1
        await asyncio.sleep(0.02)
    row = await store.get_game(gid)
    assert row.status == "finished", "the game did not end"
    return Record.from_dict(row.record)


@pytest.mark.e2e  # whole games through the service, to their end
@pytest.mark.parametrize("rulebook", ["manipulation", "rummikub", "build-to-ten"])
async def test_a_whole_hebrew_game_reads_right(env, no_takeover, rulebook):
    service, store, clock, delivered = env
    record = await _play_to_the_end(service, store, clock, rulebook, [])
    names = [s.name for s in record.seats]
    seen = texts(delivered)
    assert len(seen) > 30 and any(misshown_runs(x) == [] and "\u2068" in x for x in seen)
    found = {x[:80]: problems(x, names) for x in seen}
    found = {k: v for k, v in found.items() if v}
    assert not found, found
