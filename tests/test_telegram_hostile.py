"""Hostile and unlucky Telegram traffic through the real Application and the fake Bot API:
a forged button naming another group's game, a screen lost to a network error, /table."""

from __future__ import annotations

from players.telegram import Person
from test_telegram_delivery import GROUP, bot, game_against_a_computer, say  # noqa: F401


async def test_a_screen_lost_to_a_server_error_is_sent_again(bot):
    """A card selection's screen edit meets one 502: no later screen would carry it (nothing
    else happens until the player's next press), so the adapter must send it again."""
    tg, counted, _service, _adapter = bot
    alice, _gid, _state = await game_against_a_computer(tg, counted)
    person = Person(tg, alice)
    message = person.private_message()
    select = next(d for row in tg.buttons(message) for _t, d in row if ":s1:" in d)
    tg.fail_next("editMessageCaption", error_code=502, chat_id=alice.id)
    query = await tg.press(tg.private_chat(alice), message.message_id, select, alice)
    await tg.wait_until(lambda: query in tg.answers, timeout=20)
    await tg.settle(quiet=1.5, timeout=30)  # the retry waits 0.5 s
    assert any(c.status == 502 for c in tg.calls(chat_id=alice.id)), "nothing failed"
    shown = person.private_message()
    assert any(":s0:" in d for row in tg.buttons(shown) for _t, d in row), "selection lost"


async def test_a_forged_button_from_another_group_seats_nobody(bot):
    tg, counted, _service, _adapter = bot
    home = tg.group(GROUP, "Home")
    alice = tg.user(71, "Alice", started=True)
    await say(tg, home, alice, "/newgame")
    row = await counted.inner.active_game("telegram", str(GROUP))
    own = tg.group(-100999, "Mallory's own")
    mallory = tg.user(66, "Mallory", started=True)
    await say(tg, own, mallory, "/help")
    last = tg.last_message(own, from_bot=True)
    query = await tg.press(own, last.message_id, f"{row.id}:0:join", mallory, strict=False)
    await tg.wait_until(lambda: query in tg.answers, timeout=20)
    answer = tg.answers[query]
    assert "another chat" in (answer.get("text") or "")
    seats = (await counted.inner.get_game(row.id)).record["seats"]
    assert [s["name"] for s in seats] == ["Alice"]
    assert "Mallory" not in tg.transcript(GROUP)


async def test_table_posts_the_table_again(bot):
    tg, counted, _service, _adapter = bot
    alice, _gid, _state = await game_against_a_computer(tg, counted)
    old = [m.message_id for m in tg.messages(GROUP) if m.from_bot and m.buttons]
    await say(tg, tg.group(GROUP, "Delivery"), alice, "/table")

    def posted() -> bool:  # the group's budget may hold it a few seconds
        live = [m for m in tg.messages(GROUP) if m.from_bot and m.buttons]
        return bool(live) and live[-1].message_id not in old

    await tg.wait_until(posted, timeout=20)
    live = [m for m in tg.messages(GROUP) if m.from_bot and m.buttons]
    assert live and live[-1].message_id not in old and live[-1].photo_bytes
    assert "My cards" in str(tg.buttons(live[-1]))


async def test_plain_private_text_gets_the_help_pointer_not_an_apology(bot):
    """Any private text that is no typed move ("hi", a forwarded message) is answered with the
    pointer to /help — it crashed the handler (the gettext `_` rebound by a tuple unpack)."""
    tg, _counted, _service, _adapter = bot
    carol = tg.user(73, "Carol", started=True)
    chat = tg.private_chat(carol)
    for text in ("hi", "hello there, how do I play?", "²", "lay"):
        before = len(tg.messages(chat))
        await tg.send_text(chat, carol, text)
        await tg.wait_until(lambda b=before: any(
            m.from_bot for m in tg.messages(chat)[b:]), timeout=10)
    said = [m.text for m in tg.messages(chat) if m.from_bot]
    assert not any("went wrong" in (s or "") for s in said), said
    assert sum("/help" in (s or "") for s in said) >= 3, said
