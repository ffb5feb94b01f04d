"""Input decoded once (issue 29): each adapter turns what arrives into one typed thing at its
door — a button's callback data or a Discord component into a `Press` (bot/core/buttons.py,
the one strict parser), a typed line or a slash command into a `Command` (bot/core/commands.py)
— and the core takes those."""

from __future__ import annotations

import pytest

from bot.core.buttons import MAX_GAME_ID, MAX_VERSION, Press, press_of
from bot.core.commands import MAX_TYPED, MAX_VERB, TOO_LONG_VERB, Command


@pytest.mark.parametrize(("line", "verb", "args"), [
    ("/lay 7H 8H 9H", "lay", "7H 8H 9H"),
    ("LAY   7H 8H 9H  ", "lay", "7H 8H 9H"),
    ("/newgame@RummyTableBot tahiti", "newgame", "tahiti"),
    ("done", "done", ""),
    ("", "", ""),
    ("   ", "", ""),
])
def test_a_typed_line_is_read_once(line: str, verb: str, args: str) -> None:
    command = Command.read(line)
    assert (command.verb, command.args) == (verb, args)
    assert command.length <= MAX_TYPED


def test_a_long_verb_or_long_arguments_are_marked_not_read() -> None:
    assert Command.of("x" * (MAX_VERB + 1)).verb == TOO_LONG_VERB
    assert Command.of("x" * 10_000).verb == TOO_LONG_VERB
    long = Command.of("lay", "7H " * 1000)
    assert long.length == 3000 and len(long.args) <= MAX_TYPED + 1
    line = Command.read("lay " + "7H " * 1000)
    assert line.verb == "lay" and line.length > MAX_TYPED
    # within the limit: as typed, however it is spaced
    assert Command.read("lay " + "7" * MAX_TYPED).length == MAX_TYPED


async def test_the_service_refuses_what_the_door_marked(tmp_path) -> None:
    from bot.core.service import Actor, GameService
    from bot.games import default_games
    from bot.store import Store

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    try:
        service = GameService(store, games=default_games())
        actor = Actor("telegram", "-1", "1", "Dana", private=False)
        too_long = await service.command(actor, Command.read("lay " + "7H " * 200))
        assert too_long.alert and str(MAX_TYPED) in (too_long.reply or "")
        unknown = await service.command(actor, Command.of("x" * 100))
        assert unknown.reply and "Unknown command" in unknown.reply
        # a press that is not one of ours, decoded at the door to None
        assert (await service.press(actor, None)).alert
    finally:
        await store.close()


def test_a_screens_action_becomes_a_press_or_nothing() -> None:
    assert press_of(7, 3, "cpu:hard") == Press(7, 3, "cpu", ("hard",))
    assert press_of(7, 3, "cpu:Hard") is None
    assert press_of(MAX_GAME_ID + 1, 3, "join") is None
    assert press_of(7, MAX_VERSION + 1, "join") is None
    assert press_of(7, 3, "join:" + "x" * 100) is None
