"""The fake Telegram Bot API server, exercised by a real python-telegram-bot Application.

Everything goes over HTTP on 127.0.0.1 exactly as it would to api.telegram.org.
"""

from __future__ import annotations

import asyncio
import io
import json
import re

import aiohttp
import pytest
from fakes.telegram_server import FakeTelegram, running
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputMediaPhoto, Update
from telegram.error import BadRequest, EndPointNotFound, Forbidden, InvalidToken, RetryAfter
from telegram.ext import (
    AIORateLimiter,
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

from bot.adapters.telegram_limiter import ChatRateLimiter


def says(description: str) -> str:
    """pytest.raises pattern for a Bot API description (PTB re-capitalises "Bad Request: …")."""
    return "(?i)" + re.escape(description)


# PTB 22 itself reads RetryAfter.retry_after (deprecated int form) when building the error.
ptb_retry_after_warning = pytest.mark.filterwarnings(
    "ignore:.*retry_after.*:telegram.warnings.PTBDeprecationWarning"
)

RED = (200, 30, 30)
BLUE = (30, 30, 200)


def png(color: tuple[int, int, int], size: tuple[int, int] = (64, 48)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="PNG")
    return buffer.getvalue()


def keyboard() -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("Again", callback_data="again"),
                InlineKeyboardButton("Rules", url="https://example.org/rules"),
            ]
        ]
    )


async def ping(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    suffix = " ".join(context.args or [])
    text = f"pong {suffix}".strip()
    await update.effective_message.reply_text(text, reply_markup=keyboard())


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer("got it")
    await query.edit_message_text(f"pressed by {query.from_user.first_name}")


async def picture(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    sent = await update.effective_chat.send_photo(png(RED), caption="table v1")
    await sent.edit_media(InputMediaPhoto(png(BLUE), caption="table v2"), reply_markup=keyboard())


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    await update.effective_message.reply_text(f"welcome {' '.join(context.args or [])}".strip())


def build_app(fake: FakeTelegram, *, rate_limiter: BaseRateLimiter | None = None) -> Application:
    builder = fake.application_builder().concurrent_updates(True)
    if rate_limiter is not None:
        builder = builder.rate_limiter(rate_limiter)
    app = builder.build()
    app.add_handler(CommandHandler("ping", ping))
    app.add_handler(CommandHandler("picture", picture))
    app.add_handler(CommandHandler("start", start))
    app.add_handler(CallbackQueryHandler(pressed))
    return app


@pytest.fixture
async def fake() -> FakeTelegram:
    async with FakeTelegram() as server:
        yield server
        assert not server.internal_errors


async def test_command_reply_button_press_and_edit(fake: FakeTelegram) -> None:
    group = fake.group(-1001, "Table 1")
    alice = fake.user(1, "Alice", "alice")
    async with running(build_app(fake)):
        asked = await fake.send_text(group, alice, "/ping@rummy_table_bot now")
        sent = await fake.wait_for("sendMessage")
        assert sent.ok and sent.chat_id == group.id
        assert sent.params["reply_parameters"]["message_id"] == asked.message_id

        reply = fake.last_message(group)
        assert reply is not None and reply.from_bot
        assert reply.text == "pong now" and reply.reply_to is asked
        assert fake.buttons(reply) == [[("Again", "again"), ("Rules", None)]]

        button = fake.find_button(group, "Again")
        assert button is not None and button.message is reply
        query_id = await fake.press(group, button.message_id, button.callback_data, alice)
        await fake.wait_for("editMessageText")

    assert fake.answers[query_id]["text"] == "got it"
    assert reply.text == "pressed by Alice" and reply.edit_count == 1
    assert reply.buttons == []  # an edit without reply_markup drops the keyboard
    assert [r.method for r in fake.calls()] == [
        "getMe",
        "deleteWebhook",
        "sendMessage",
        "answerCallbackQuery",
        "editMessageText",
    ]
    assert not [(r.method, r.status) for r in fake.calls() if not r.ok]
    assert fake.transcript(group).splitlines() == [
        "#1 Alice: /ping@rummy_table_bot now",
        "#2 bot: pressed by Alice",
    ]


async def test_photo_upload_then_edit_media(fake: FakeTelegram) -> None:
    group = fake.group(-1002, "Table 2")
    bob = fake.user(2, "Bob")
    app = build_app(fake)
    async with running(app):
        await fake.send_text(group, bob, "/picture")
        await fake.wait_for("editMessageMedia")
        shown = fake.last_message(group)
        assert shown is not None
        largest = shown.to_api()["photo"][-1]
        downloaded = await (await app.bot.get_file(largest["file_id"])).download_as_bytearray()
        assert bytes(downloaded) == png(BLUE)  # getFile + base_file_url serve the upload

    assert fake.photo(shown) == png(BLUE)
    assert shown.caption == "table v2" and shown.edit_count == 1
    assert fake.buttons(shown)[0][0] == ("Again", "again")
    assert fake.calls("sendPhoto")[0].files["photo"] == png(RED)
    media = fake.calls("editMessageMedia")[0].params["media"]
    assert media["type"] == "photo" and media["media"].startswith("attach://")
    sizes = shown.to_api()["photo"]
    assert (sizes[-1]["width"], sizes[-1]["height"]) == (64, 48)


async def test_private_chat_needs_start_and_respects_blocking(fake: FakeTelegram) -> None:
    carol = fake.user(3, "Carol", "carol")
    app = build_app(fake)
    async with running(app):
        with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
            await app.bot.send_message(carol.id, "your hand")

        await fake.start_private(carol, "join-42")  # deep link t.me/<bot>?start=join-42
        await fake.wait_for("sendMessage")
        welcome = fake.last_message(carol.id)
        assert welcome is not None and welcome.text == "welcome join-42"
        await app.bot.send_message(carol.id, "your hand")

        await fake.block(carol)
        with pytest.raises(Forbidden, match="bot was blocked by the user"):
            await app.bot.send_message(carol.id, "still there?")
    refused = fake.calls("sendMessage", ok=False)
    assert [r.status for r in refused] == [403, 403]


async def test_bad_requests_match_telegram(fake: FakeTelegram) -> None:
    group = fake.group(-1003, "Table 3")
    markup = keyboard()
    app = build_app(fake)
    async with running(app):
        bot = app.bot
        sent = await bot.send_message(group.id, "<b>score</b> 10", "HTML", reply_markup=markup)
        assert sent.text == "score 10" and sent.entities[0].type == "bold"

        with pytest.raises(BadRequest, match=says("message is not modified: specified new")):
            await bot.edit_message_text(
                "<b>score</b> 10", group.id, sent.message_id, parse_mode="HTML", reply_markup=markup
            )
        not_modified = fake.calls("editMessageText")[-1]
        assert not_modified.status == 400
        assert not_modified.description == (
            "Bad Request: message is not modified: specified new message content and reply "
            "markup are exactly the same as a current content and reply markup of the message"
        )

        await bot.delete_message(group.id, sent.message_id)
        with pytest.raises(BadRequest, match=says("message to edit not found")):
            await bot.edit_message_text("score 11", group.id, sent.message_id)
        with pytest.raises(BadRequest, match=says("message to delete not found")):
            await bot.delete_message(group.id, sent.message_id)
        assert fake.messages(group) == []
        assert fake.messages(group, include_deleted=True)[0].deleted

        too_long_data = InlineKeyboardMarkup([[InlineKeyboardButton("x", callback_data="x" * 65)]])
        with pytest.raises(BadRequest, match=says("button_data_invalid")):
            await bot.send_message(group.id, "hi", reply_markup=too_long_data)
        many = [[InlineKeyboardButton(str(i), callback_data=str(i))] for i in range(101)]
        with pytest.raises(BadRequest, match=says("reply markup is too long")):
            await bot.send_message(group.id, "hi", reply_markup=InlineKeyboardMarkup(many))
        wide = [[InlineKeyboardButton(str(i), callback_data=str(i)) for i in range(9)]]
        with pytest.raises(BadRequest, match=says("reply markup is too long")):
            await bot.send_message(group.id, "hi", reply_markup=InlineKeyboardMarkup(wide))
        with pytest.raises(BadRequest, match=says("message is too long")):
            await bot.send_message(group.id, "x" * 4097)
        with pytest.raises(BadRequest, match=says("message caption is too long")):
            await bot.send_photo(group.id, png(RED), caption="x" * 1025)
        # Telegram counts UTF-16 code units: an emoji outside the BMP is two.
        with pytest.raises(BadRequest, match=says("message caption is too long")):
            await bot.send_photo(group.id, png(RED), caption="😀" * 513)
        with pytest.raises(BadRequest, match=says("message is too long")):
            await bot.send_message(group.id, "😀" * 2049)
        fitting = await bot.send_photo(group.id, png(RED), caption="😀" * 512)
        await bot.delete_message(group.id, fitting.message_id)
        with pytest.raises(BadRequest, match=says("query is too old and response timeout expired")):
            await bot.answer_callback_query("1234567890")
        with pytest.raises(BadRequest, match=says('unsupported start tag "br" at byte offset 5')):
            await bot.send_message(group.id, "score<br>10", "HTML")
        with pytest.raises(BadRequest, match=says("character '.' is reserved")):
            await bot.send_message(group.id, "1.5 points", "MarkdownV2")
        with pytest.raises(BadRequest, match=says("chat not found")):
            await bot.send_message(-999, "anyone?")
    assert fake.messages(group) == []  # nothing refused became visible


@ptb_retry_after_warning
async def test_flood_control_is_retried_by_aioratelimiter(fake: FakeTelegram) -> None:
    group = fake.group(-1004, "Table 4")
    limiter = AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=2)
    app = build_app(fake, rate_limiter=limiter)
    async with running(app):
        fake.fail_next("sendMessage", retry_after=1, chat_id=group.id)
        message = await app.bot.send_message(group.id, "after the flood")
    assert message.text == "after the flood"
    first, second = fake.calls("sendMessage")
    assert first.status == 429
    assert first.response == {
        "ok": False,
        "error_code": 429,
        "description": "Too Many Requests: retry after 1",
        "parameters": {"retry_after": 1},
    }
    assert second.ok and second.time - first.time >= 1.0
    assert [m.text for m in fake.messages(group)] == ["after the flood"]


@ptb_retry_after_warning
async def test_flood_control_surfaces_as_retry_after_without_limiter(fake: FakeTelegram) -> None:
    group = fake.group(-1005, "Table 5")
    app = build_app(fake)
    async with running(app):
        fake.fail_next("sendMessage", retry_after=7)
        with pytest.raises(RetryAfter, match="Retry in 7 seconds"):
            await app.bot.send_message(group.id, "too fast")
        await app.bot.send_message(group.id, "later")  # only the next call failed
        fake.fail_next("editMessageText", error_code=502, description="Bad Gateway", times=2)
    assert [r.status for r in fake.calls("sendMessage")] == [429, 200]
    assert [m.text for m in fake.messages(group)] == ["later"]


async def test_wrong_token_and_unknown_method(fake: FakeTelegram) -> None:
    impostor = Bot("999999:WRONG-token", base_url=fake.base_url, base_file_url=fake.base_file_url)
    with pytest.raises(InvalidToken, match="was rejected by the server"):
        await impostor.initialize()
    await impostor.shutdown()
    rejected = fake.requests[-1]
    assert (rejected.method, rejected.status) == ("getMe", 401)
    assert rejected.description == "Unauthorized"

    async with Bot(fake.token, base_url=fake.base_url) as bot:
        with pytest.raises(EndPointNotFound):
            await bot.do_api_request("sendTelepathy", api_kwargs={"chat_id": 1})
        assert fake.requests[-1].response == {
            "ok": False,
            "error_code": 404,
            "description": "Not Found: method not found",
        }
        me = await bot.get_me()
        assert (me.id, me.username, me.is_bot) == (fake.bot.id, "rummy_table_bot", True)

    url = f"{fake.base_url}999999:WRONG-token/getMe"
    async with aiohttp.ClientSession() as http, http.post(url) as response:
        assert response.status == 401
        assert await response.json() == {
            "ok": False,
            "error_code": 401,
            "description": "Unauthorized",
        }


async def test_get_updates_long_polling_semantics(fake: FakeTelegram) -> None:
    group = fake.group(-1006, "Table 6")
    dave = fake.user(4, "Dave")
    url = f"{fake.base_url}{fake.token}/getUpdates"
    loop = asyncio.get_running_loop()

    async with aiohttp.ClientSession() as http:

        async def call(**params: object) -> tuple[int, dict]:
            form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
            async with http.post(url, data=form) as response:  # encoded like PTB does
                return response.status, await response.json()

        async def get_updates(**params: object) -> list[dict]:
            status, body = await call(**params)
            assert status == 200 and body["ok"], body
            return body["result"]

        began = loop.time()
        assert await get_updates(timeout=0.3) == []  # the timeout is honoured when idle
        assert 0.25 <= loop.time() - began < 1.5

        began = loop.time()
        poll = asyncio.create_task(get_updates(timeout=10))
        await asyncio.sleep(0.1)
        await fake.send_text(group, dave, "hello")
        (update,) = await asyncio.wait_for(poll, 2)  # returns as soon as an update is queued
        assert loop.time() - began < 1.5
        assert update["message"]["text"] == "hello"
        assert update["message"]["from"]["first_name"] == "Dave"
        assert update["message"]["chat"] == {"id": -1006, "type": "group", "title": "Table 6"}

        again = await get_updates(timeout=0)  # not confirmed by an offset yet: delivered again
        assert [u["update_id"] for u in again] == [update["update_id"]]

        await fake.send_text(group, dave, "/ping")
        await fake.queue_update("edited_message", update["message"])
        only = await get_updates(
            offset=update["update_id"] + 1, timeout=0, allowed_updates=["edited_message"]
        )
        assert [next(k for k in u if k != "update_id") for u in only] == ["edited_message"]
        assert await get_updates(offset=only[-1]["update_id"] + 1, timeout=0) == []

        older = asyncio.create_task(call(timeout=10))
        await asyncio.sleep(0.1)
        assert await get_updates(timeout=0) == []
        status, body = await asyncio.wait_for(older, 2)  # a second poller ends the first one
        assert status == 409
        assert body["description"].startswith("Conflict: terminated by other getUpdates request")


async def test_privacy_mode_delivers_only_what_concerns_the_bot() -> None:
    async with FakeTelegram(privacy_mode=True) as fake:
        group = fake.group(-1008, "Table 8")
        gina = fake.user(7, "Gina")
        for text in ("just chatting", "/ping@other_bot", "/ping", "hey @rummy_table_bot"):
            await fake.send_text(group, gina, text)
        async with Bot(fake.token, base_url=fake.base_url) as bot:
            updates = await bot.get_updates(timeout=0)
        assert [u.message.text for u in updates if u.message] == ["/ping", "hey @rummy_table_bot"]
        assert len(fake.messages(group)) == 4  # the members still see every message


async def test_fifty_games_in_parallel(fake: FakeTelegram) -> None:
    players = [fake.user(100 + i, f"P{i}") for i in range(50)]
    groups = [fake.group(-2000 - i, f"Game {i}") for i in range(50)]
    pairs = list(zip(groups, players, strict=True))

    def every_group_shows(prefix: str) -> bool:
        shown = [fake.last_message(group, from_bot=True) for group in groups]
        return all(m is not None and (m.text or "").startswith(prefix) for m in shown)

    # 100 requests at once: past Telegram's 30 a second, so the bot needs its limiter (about
    # 3.5 s at 29 a second) — without it the fake refuses with 429 like Telegram.
    async with running(build_app(fake, rate_limiter=ChatRateLimiter())):
        await asyncio.gather(*(fake.send_text(g, p, f"/ping {g.title}") for g, p in pairs))
        await fake.wait_until(lambda: every_group_shows("pong"), timeout=15)
        query_ids = await asyncio.gather(*(fake.press_button(g, "Again", p) for g, p in pairs))
        await fake.wait_until(lambda: every_group_shows("pressed by"), timeout=15)

    assert all(fake.last_message(g).text == f"pressed by {p.first_name}" for g, p in pairs)
    assert set(fake.answers) == set(query_ids)
    assert len(fake.calls("sendMessage", ok=True)) == 50
    assert not [(r.method, r.status) for r in fake.calls() if not r.ok]


async def test_commands_chat_info_and_webhook(fake: FakeTelegram) -> None:
    erin = fake.user(5, "Erin", "erin")
    stranger = fake.user(6, "Frank")
    group = fake.group(-1007, "Table 7", members=[(erin, "administrator")])
    async with Bot(fake.token, base_url=fake.base_url) as bot:
        await bot.set_my_commands([("ping", "Check the bot"), ("new", "Start a game")])
        assert [c.command for c in await bot.get_my_commands()] == ["ping", "new"]
        await bot.delete_my_commands()
        assert await bot.get_my_commands() == ()

        chat = await bot.get_chat(group.id)
        assert (chat.id, chat.type, chat.title) == (group.id, "group", "Table 7")
        assert (await bot.get_chat_member(group.id, erin.id)).status == "administrator"
        assert (await bot.get_chat_member(group.id, stranger.id)).status == "left"
        assert (await bot.get_chat_member(group.id, fake.bot.id)).status == "member"
        assert await bot.send_chat_action(group.id, "upload_photo")

        assert (await bot.get_webhook_info()).url == ""
        with pytest.raises(BadRequest, match=says("an https url must be provided")):
            await bot.set_webhook("http://example.org/hook")
        assert await bot.set_webhook("https://example.org/hook")
        assert (await bot.get_webhook_info()).url == "https://example.org/hook"
        assert fake.webhook is not None and fake.webhook["url"] == "https://example.org/hook"
        assert await bot.delete_webhook()
        assert fake.webhook is None


async def test_flood_control_answers_like_telegram() -> None:
    """Past 20 requests a minute in a group, a burst of 3 in a private chat, 30 a second
    overall: 429 "Too Many Requests: retry after N" with parameters.retry_after (whole
    seconds); a refused request spends nothing, and other chats are not held."""
    async with FakeTelegram() as tg:
        tg.group(-5001, "Busy")
        tg.group(-5002, "Quiet")
        dora = tg.user(9, "Dora", started=True)
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            for i in range(20):
                await bot.send_message(-5001, f"move {i}")
            with pytest.raises(RetryAfter) as refused:
                await bot.send_message(-5001, "one too many")
            assert 50 <= refused.value._retry_after.total_seconds() <= 60
            assert tg.calls("sendMessage", ok=False)[-1].description.startswith(
                "Too Many Requests: retry after ")
            await bot.send_message(-5002, "another group")  # its own budget
            for i in range(3):
                await bot.send_message(dora.id, f"hand {i}")
            with pytest.raises(RetryAfter):
                await bot.send_message(dora.id, "a fourth at once")
            await bot.send_chat_action(dora.id, "typing")  # not counted
        assert tg.flood is not None and tg.flood.refused == 2
    async with FakeTelegram() as tg:
        people = [tg.user(100 + i, f"P{i}", started=True) for i in range(31)]
        async with Bot(tg.token, base_url=tg.base_url) as bot:
            results = await asyncio.gather(
                *(bot.send_message(p.id, "hi") for p in people), return_exceptions=True)
        assert sum(isinstance(r, RetryAfter) for r in results) >= 1  # 31 in one second
