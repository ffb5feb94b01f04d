"""The web table as a Telegram Mini App, end to end: the real python-telegram-bot adapter
against the fake Bot API server, the page in Debian's Chromium opened with Telegram's signed
initData (the WebApp object as Telegram's script gives it, set before the page runs). A turn
dragged on the page reaches the group's table and the private chat; the group's message carries
the Direct Link, the private one a web_app button; forged and expired initData get a clear
page."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from fakes.telegram_server import FakeTelegram
from test_web_table import signed_init_data
from web_browser import CHROMIUM, PHONE, SECRET, SHOTS, need_chromium, touch_drag

from bot.adapters.telegram import TelegramAdapter, WebEntry
from bot.core.record import Record
from bot.core.service import GameService
from bot.games import default_games
from bot.games.rummy.records import state_of
from bot.store import Store
from bot.web import auth
from bot.web.server import WebServer, serve
from bot.web.table import WebTable
from engine.rummy.state import conservation_errors

pytestmark = pytest.mark.e2e
GROUP = -100777
WEB_URL = "https://table.example"

# What telegram-web-app.js gives a page opened from Telegram (only what the page uses); the
# MainButton's handler is kept so the test can press it as the person would.
WEBAPP_SHIM = """
window.__main = { text: "", shown: false, enabled: false, click: null };
window.Telegram = { WebApp: {
  initData: %s, themeParams: {}, ready() {}, expand() {}, disableVerticalSwipes() {},
  HapticFeedback: { impactOccurred() {}, notificationOccurred() {} },
  MainButton: {
    setText(t) { __main.text = t; return this; }, onClick(f) { __main.click = f; return this; },
    show() { __main.shown = true; return this; }, hide() { __main.shown = false; return this; },
    enable() { __main.enabled = true; return this; },
    disable() { __main.enabled = false; return this; } } } };
"""


@pytest.fixture
async def mini_app(tmp_path, sqlite_template):
    need_chromium()
    async with FakeTelegram() as tg:
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'rummy.db'}")
        service = GameService(store, games=default_games(), computer_delay=0.0, tick=0.05)
        adapter = TelegramAdapter(service, tg.token, base_url=tg.base_url,
                                  base_file_url=tg.base_file_url, poll_timeout=1)
        server = WebServer(WebTable(service), SECRET, bot_token=tg.token)
        adapter.web = WebEntry(WEB_URL, "table", watch=server.watch_param)  # as bot/app.py
        runner = await serve(server, "127.0.0.1", 0)
        await adapter.start()
        await service.start()
        try:
            yield tg, store, adapter, f"http://127.0.0.1:{runner.addresses[0][1]}"
        finally:
            await service.stop()
            await server.close_all()
            await runner.cleanup()
            await adapter.stop()
            await store.close()


async def say(tg, chat, user, text):
    await tg.send_text(chat, user, text)
    await tg.wait_for(lambda r: r.method not in ("getUpdates", "sendChatAction"), timeout=20)
    await tg.settle(quiet=0.3, timeout=20)


async def press(tg, chat, user, label):
    await tg.wait_until(lambda: tg.find_button(chat, label) is not None, 10)
    found = tg.find_button(chat, label)
    query = await tg.press(chat, found.message.message_id, found.callback_data, user)
    await tg.wait_until(lambda: query in tg.answers, timeout=20)
    await tg.settle(quiet=0.3, timeout=20)


def markup_buttons(message) -> list[dict]:
    return [b for row in (message.reply_markup or {}).get("inline_keyboard", []) for b in row]


async def test_a_turn_on_the_mini_app_shows_in_the_group_and_the_private_chat(mini_app):
    tg, store, adapter, base = mini_app
    # the bot's menu button opens the table (the page finds the game one sits in)
    assert tg.menu_buttons[""]["type"] == "web_app"
    assert tg.menu_buttons[""]["web_app"]["url"] == f"{WEB_URL}/web/table"
    alice = tg.user(11, "Alice", started=True)
    bob = tg.user(12, "Bob", started=True)
    group = tg.group(GROUP, "Friday rummy", members=[alice, bob])
    await say(tg, group, alice, "/newgame manipulation")
    await press(tg, group, bob, "Join")
    await press(tg, group, alice, "Start")
    row = await store.active_game("telegram", str(GROUP))
    game = row.id
    # Alice to move with 5H 6H, the table 7H-10H (every card still in one place)
    record = Record.from_dict(row.record)
    state = state_of(record)
    assert state is not None, tg.buttons(tg.last_message(group, from_bot=True))
    pool = state.stock + [c for h in state.hands for c in h]

    def take(face):
        card = next(c for c in pool if c.face == face)
        pool.remove(card)
        return card

    state.hands = [[take(f) for f in ("5H", "6H", "QS", "2C")], [take(f) for f in ("3D", "KC")]]
    state.table, state.stock, state.turn = [[take(f) for f in ("7H", "8H", "9H", "10H")]], pool, 0
    assert not conservation_errors(state)
    record.state = state.to_dict()
    await store.save_game(game, record.to_dict(), expected_version=row.version)
    # the group's table carries the Direct Link, the private chat a web_app button
    await say(tg, group, alice, "/table")
    await tg.wait_until(lambda: any(
        "url" in b for b in markup_buttons(tg.last_message(group, from_bot=True))), 10)
    link = next(b for b in markup_buttons(tg.last_message(group, from_bot=True)) if "url" in b)
    watch = auth.watch_param(SECRET, game)  # the game's watch link: the group may watch
    assert link["url"] == f"https://t.me/{adapter.username}/table?startapp={watch}"
    assert not any("web_app" in b for b in markup_buttons(tg.last_message(group, from_bot=True)))
    private = tg.private_chat(alice)
    await tg.wait_until(lambda: any("web_app" in b for m in tg.messages(private)
                                    for b in markup_buttons(m)), 10)
    button = next(b for m in tg.messages(private) for b in markup_buttons(m) if "web_app" in b)
    assert button["web_app"]["url"] == f"{WEB_URL}/web/table?g={watch}"

    from playwright.async_api import async_playwright

    user = json.dumps({"id": 11, "first_name": "Alice", "language_code": "en"})
    init = signed_init_data({"auth_date": str(int(time.time())), "user": user,
                             "start_param": str(game)}, token=tg.token)
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = await chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                             device_scale_factor=2)
        # Telegram's client stands behind its script: the shim is both (the vendored script
        # would replace the shim's WebApp with one that talks to a Telegram client)
        await context.route("**/telegram-web-app.js", lambda route: route.fulfill(
            status=200, content_type="text/javascript", body=""))
        page = await context.new_page()
        await page.add_init_script(WEBAPP_SHIM % json.dumps(init))
        # as Telegram opens a Mini App: its launch data in the address's hash
        await page.goto(f"{base}/web/table?tgWebAppStartParam={game}#tgWebAppData=x")
        await page.wait_for_selector('[data-hand] [data-card="5H"]', timeout=10_000)
        # the whole turn by dragging with a finger: hand -> new group, hand -> that group, a
        # card taken from one group into another, then the MainButton (Done)
        hand = page.locator("[data-hand]")
        await touch_drag(page, hand.locator('[data-card="5H"]'), page.locator('[data-drop="new"]'))
        await page.wait_for_selector('[data-group="B"]', timeout=10_000)
        await touch_drag(page, hand.locator('[data-card="6H"]'), page.locator('[data-group="B"]'))
        await page.wait_for_selector('[data-group="B"] [data-card="6H"]', timeout=10_000)
        await touch_drag(page, page.locator('[data-group="A"] [data-card="7H"]'),
                         page.locator('[data-group="B"]'))
        await page.wait_for_selector('[data-group="B"] [data-card="7H"]', timeout=10_000)
        main = await page.evaluate("({...window.__main, click: !!window.__main.click})")
        assert main == {"text": "✔ Done", "shown": True, "enabled": True, "click": True}
        SHOTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(SHOTS / "telegram-mini-app.png"), full_page=True)
        await page.evaluate("window.__main.click()")  # the person presses the MainButton
        for _ in range(200):
            if (await store.get_game(game)).record["state"]["turn"] == 1:
                break
            await asyncio.sleep(0.05)
        # forged and expired initData: a clear page, no table
        for bad in (init.replace("Alice", "Mallory"),
                    signed_init_data({"auth_date": str(int(time.time()) - 9 * 86400),
                                      "user": user, "start_param": str(game)}, token=tg.token)):
            other = await context.new_page()
            await other.add_init_script(WEBAPP_SHIM % json.dumps(bad))
            await other.goto(f"{base}/web/table#tgWebAppData=x")
            await other.wait_for_selector("p[data-refused]", timeout=10_000)
            assert await other.locator("[data-hand]").count() == 0
        await other.screenshot(path=str(SHOTS / "telegram-refused.png"))
        await chromium.close()
    state = state_of(Record.from_dict((await store.get_game(game)).record))
    assert state.turn == 1
    assert sorted([c.face for c in g] for g in state.table) == [["5H", "6H", "7H"],
                                                                ["8H", "9H", "10H"]]
    await tg.settle(quiet=0.5, timeout=20)

    def says(chat, text):
        return any(text in (m.text or m.caption or "") for m in tg.messages(chat))

    await tg.wait_until(lambda: says(group, "Alice laid 5♥ 6♥"), 15)

    def hand_line(chat) -> str:  # the newest private screen's hand line
        text = (tg.messages(chat)[-1].caption or tg.messages(chat)[-1].text or "")
        return next((line for line in text.split("\n") if line.startswith("Hand")), "")

    await tg.wait_until(lambda: "Q♠" in hand_line(private) and "5♥" not in hand_line(private), 15)
