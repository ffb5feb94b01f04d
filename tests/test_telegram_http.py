"""The aiohttp transport for python-telegram-bot (bot/adapters/telegram_http.py): what PTB expects
of a BaseRequest — status and body, an upload as multipart, its timeouts as TimedOut, a network
failure as NetworkError — against real sockets on loopback."""

from __future__ import annotations

import asyncio
import contextlib
import io
import socket

import pytest
from aiohttp import web
from PIL import Image
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, InputFile
from telegram.error import NetworkError, RetryAfter, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.adapters.telegram_http import AiohttpRequest


@contextlib.asynccontextmanager
async def serving(**routes):
    """An aiohttp server on a free loopback port with these POST handlers; its base URL."""
    app = web.Application()
    for path, handler in routes.items():
        app.router.add_post(f"/{path}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"
    finally:
        await runner.cleanup()


@pytest.fixture
async def server():
    """/echo notes what it got."""
    seen: list[dict] = []

    async def echo(request: web.Request) -> web.Response:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            parts = {k: (v.filename, v.file.read()) if hasattr(v, "file") else v
                     for k, v in form.items()}
        else:
            parts = dict(await request.post())
        seen.append({"ua": request.headers.get("User-Agent"), "parts": parts})
        return web.json_response({"ok": True, "result": True}, status=200)

    async with serving(echo=echo) as url:
        yield url, seen


async def test_fields_and_an_upload_arrive_as_sent(server) -> None:
    url, seen = server
    request = AiohttpRequest()
    await request.initialize()
    try:
        param = RequestParameter.from_input
        fields = RequestData([param("chat_id", 42), param("caption", "7H")])
        status, body = await request.do_request(f"{url}/echo", "POST", fields)
        assert status == 200 and b'"ok": true' in body
        assert seen[-1]["parts"] == {"chat_id": "42", "caption": "7H"}
        assert "python-telegram-bot" in seen[-1]["ua"]
        photo = InputFile(b"\x89PNG...", filename="table.png", attach=True)
        upload = RequestData([param("chat_id", 42), param("photo", photo)])
        status, _ = await request.do_request(f"{url}/echo", "POST", upload)
        assert status == 200
        (name,) = [k for k, v in seen[-1]["parts"].items() if isinstance(v, tuple)]
        assert seen[-1]["parts"][name] == ("table.png", b"\x89PNG...")
        assert seen[-1]["parts"]["chat_id"] == "42"
    finally:
        await request.shutdown()


async def test_a_late_answer_is_timed_out_and_a_closed_port_a_network_error() -> None:
    request = AiohttpRequest(read_timeout=0.3)
    await request.initialize()
    try:
        async def slow(_request: web.Request) -> web.Response:
            await asyncio.sleep(2)
            return web.json_response({"ok": True})

        async with serving(slow=slow) as url:
            with pytest.raises(TimedOut):
                await request.do_request(f"{url}/slow", "POST")
        with socket.socket() as sock:  # a port nobody listens on
            sock.bind(("127.0.0.1", 0))
            closed = sock.getsockname()[1]
        with pytest.raises(NetworkError):
            await request.do_request(f"http://127.0.0.1:{closed}/x", "POST")
    finally:
        await request.shutdown()


async def test_a_bot_speaks_through_it_to_the_fake_bot_api() -> None:
    from fakes.telegram_server import FakeTelegram

    async with FakeTelegram() as tg:
        user = tg.user(7, "Ann", started=True)
        bot = Bot(tg.token, base_url=tg.base_url, request=AiohttpRequest(),
                  get_updates_request=AiohttpRequest())  # as the adapter builds it
        async with bot:
            png = io.BytesIO()
            Image.new("RGB", (64, 48), "green").save(png, "PNG")
            sent = await bot.send_photo(user.id, png.getvalue(), caption="hi")
            assert sent.message_id and tg.last_message(tg.private_chat(user)).caption == "hi"
            # What only echoes the request is not parsed back (the bot reads the message id)
            keys = InlineKeyboardMarkup([[InlineKeyboardButton("Draw", callback_data="d")]])
            edited = await bot.edit_message_caption(
                user.id, sent.message_id, caption="again", reply_markup=keys)
            assert edited.message_id == sent.message_id and edited.chat.id == user.id
            assert edited.reply_markup is None and not edited.photo
            assert tg.last_message(tg.private_chat(user)).caption == "again"
            me = await bot.get_me()  # other results are whole
            assert me.username
            # A press's update: the message the button was on keeps its id and chat, not the
            # keyboard and photos it echoes (the bot reads neither)
            await tg.press(tg.private_chat(user), sent.message_id, "d", user)
            (update,) = await bot.get_updates(timeout=0)
            query = update.callback_query
            assert (query.data, query.from_user.id) == ("d", user.id)
            assert (query.message.message_id, query.message.chat.id) == (sent.message_id, user.id)
            assert query.message.reply_markup is None and not query.message.photo
            assert tg.find_button(tg.private_chat(user).id, "Draw") is not None  # still shown
            # The fake's flood control: past a private chat's burst, a 429 that PTB reads
            with pytest.raises(RetryAfter):
                for _ in range(5):
                    await bot.send_message(user.id, "again")
