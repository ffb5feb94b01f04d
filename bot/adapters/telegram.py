"""Telegram adapter: python-telegram-bot's Application around the game service.

Decodes commands and button presses into service calls, and sends the outcomes: the game's
live message in the group (a photo with caption and inline keyboard), and each player's
private view in their private chat with the bot. Rules live in the engine, game flow in the core.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import os
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from aiohttp import web
from telegram import (
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    MenuButtonWebApp,
    Update,
    WebAppInfo,
)
from telegram.error import BadRequest, Forbidden, NetworkError, TelegramError
from telegram.ext import (
    Application,
    BaseRateLimiter,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot import metrics
from bot.adapters.delivery import Chat, Delivery, Gone, Run, Sender, Step, Unreachable
from bot.adapters.intake import Intake, Verdict
from bot.adapters.telegram_http import AiohttpRequest, lighten_update
from bot.adapters.telegram_limiter import ChatRateLimiter
from bot.adapters.telegram_polling import KINDS, Poller
from bot.clock import REAL, Clock
from bot.core import buttons, narrate
from bot.core.commands import Command
from bot.core.cut import ALERT_UNITS, CAPTION_UNITS, MESSAGE_UNITS, cut
from bot.core.fair_use import SLOW_DOWN
from bot.core.service import Actor, GameService, pack
from bot.core.stat_pictures import as_messages
from bot.core.unit import handling
from bot.core.views import Outcome, Screen, phone_rows
from bot.i18n import LANGUAGES, N_, _, isolate, using

log = logging.getLogger(__name__)
PLATFORM = "telegram"
COMMANDS = [  # the command menu; descriptions in English, translated per language_code
    ("newgame", N_("Open a game here: /newgame [rulebook]")),
    ("join", N_("Take a seat in this chat's game")),
    ("leave", N_("Leave the game (a computer takes your seat)")),
    ("hand", N_("Send my cards again")),
    ("hint", N_("Show a whole move I can make")),
    ("table", N_("Show the table again (with its buttons)")),
    ("review", N_("My turns of the last round, reviewed: /review [round]")),
    ("rules", N_("The rules: /rules [rulebook]")),
    ("leaderboard", N_("Leaderboard: /leaderboard [rulebook]")),
    ("stats", N_("My results")),
    ("season", N_("This chat's season: /season [last|hall]")),
    ("notify", N_("Call me privately when a game opens here (again: stop)")),
    ("puzzle", N_("The puzzle of the day: /puzzle [board|on|off]")),
    ("endgame", N_("End this chat's game (host)")),
    ("lesson", N_("Learn to play, step by step: /lesson [rulebook]")),
    ("language", N_("My language (in a group: the group's): /language en|he|ru")),
    ("help", N_("How to play")),
]


def other_commands(moves: frozenset[str]) -> list[str]:
    """Commands the bot answers besides the menu's and the games' typed moves (those are typed
    in the private chat with or without a slash, and not in the command menu)."""
    return ["start", "cards", "new"]


def keyboard(screen: Screen, extra: list[InlineKeyboardButton] | None = None
             ) -> InlineKeyboardMarkup | None:
    """A screen's parts laid out as a phone's keyboard (`phone_rows`: each part's rows, as
    wide as fits a phone uncut) of callback buttons; `extra`: one more row (the web table's)."""
    rows = phone_rows(screen.parts)
    if not rows or screen.game_id is None:
        return InlineKeyboardMarkup([extra]) if extra and screen.game_id is not None else None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    b.label, callback_data=pack(screen.game_id, screen.version, b.action)
                )
                for b in row
            ]
            for row in rows
        ] + ([extra] if extra else [])
    )


def _not_modified(error: BadRequest) -> bool:
    return "not modified" in str(error).lower()


RETRY_DELAYS = (0.5, 1.5, 4.0)  # a lost screen is sent again: a lost ▶ Next round strands a game


async def _retrying(clock: Clock, call: Any, *args: Any, **kwargs: Any) -> Any:
    """A Bot API call, tried again after a network error or a 5xx (NetworkError that is not a
    BadRequest: BadRequest is one of its subclasses, and is final)."""
    for delay in (*RETRY_DELAYS, None):
        try:
            return await call(*args, **kwargs)
        except BadRequest:
            raise
        except NetworkError:
            if delay is None:
                raise
            log.warning("Telegram call failed; trying again in %s s", delay)
            await clock.sleep(delay)
    raise AssertionError("unreachable")


def _count_429s(limiter: Any) -> None:
    """Count the flood-control answers the limiter is told of (/metrics)."""
    block = getattr(limiter, "_block", None)
    if block is None:
        return

    def counted(chat: Any, seconds: float) -> None:
        metrics.RATE_LIMITED.labels(PLATFORM).inc()
        block(chat, seconds)

    limiter._block = counted


def update_key(update: Update) -> str:
    """The update's idempotency key: Telegram numbers a bot's updates, and redelivers one (a
    webhook answered late, two pollers) with the same update_id."""
    return f"tg:{update.update_id}"


SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
ANSWER_WITHIN = 10.0  # seconds a webhook post waits for its update before answering anyway
MAX_IN_FLIGHT = 200  # webhook updates one worker handles at once; past it 503 (sent again)
DRAIN = 20.0  # seconds a stopping worker gives the updates in hand


@dataclass(frozen=True)
class WebEntry:
    """Where the web table is: `url` the public HTTPS base (RUMMY_WEB_URL), `app` the Mini
    App's short name (BotFather /newapp; RUMMY_WEB_APP). A group gets a url button to the
    Direct Link (web_app buttons are refused in groups), a private chat a web_app button."""

    url: str
    app: str
    phases: frozenset[str] = frozenset({"play", "round_over"})
    # game -> the game as its links carry it, with its watch key (bot/web/auth.watch_param:
    # whoever the chat shows the button may watch; an id alone lets only the seats in)
    watch: Callable[[int], str] = str

    def row(self, bot: str, game_id: int, group: bool, lang: str
            ) -> list[InlineKeyboardButton]:
        with using(lang):
            label = _(OPEN_TABLE)
        game = self.watch(game_id)
        if group:
            return [InlineKeyboardButton(label, url=f"https://t.me/{bot}/{self.app}"
                                                    f"?startapp={game}")]
        return [InlineKeyboardButton(label, web_app=WebAppInfo(f"{self.page()}?g={game}"))]

    def page(self) -> str:
        """The table's address (no game named: the menu button's, the page finds the game
        the person sits in)."""
        return f"{self.url.rstrip('/')}/web/table"


OPEN_TABLE = N_("🃏 Open the table")


class Webhook:
    """The webhook server of one worker (aiohttp): POST /<path> with Telegram's secret token
    header takes an update (403 without it, 503 while stopping: the proxy or Telegram sends it
    again, to this or another worker, and its idempotency key makes a repeat change nothing);
    GET /healthz says whether this worker takes updates; GET /metrics is the Prometheus page.
    An update is answered 200 when it was handled — its change committed; its screens go out
    after, within the chats' budgets — (or after ANSWER_WITHIN seconds), so a worker dying
    mid-update leaves Telegram to deliver it again. At most MAX_IN_FLIGHT at once (503 past
    it: Telegram sends it again later)."""

    def __init__(self, handle: Callable[[dict], Awaitable[None]], path: str, secret: str, *,
                 listen: str = "0.0.0.0", port: int = 8443,
                 store: Any = None,
                 routes: Sequence[Callable[[web.Application], None]] = ()) -> None:
        self.handle = handle
        self.path = "/" + path.strip("/")
        self.secret = secret.encode()
        self.listen, self.port = listen, port
        self.store = store
        self.routes = tuple(routes)  # more routes on the same port (the web table's)
        self.closing = False
        self.inflight: set[asyncio.Task[None]] = set()
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application(client_max_size=1024 * 1024)
        app.router.add_post(self.path, self._post)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        for add in self.routes:
            add(app)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.listen, self.port).start()

    async def _post(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self.secret):
            metrics.UPDATES.labels("403").inc()
            return web.Response(status=403)
        if self.closing or len(self.inflight) >= MAX_IN_FLIGHT:
            metrics.UPDATES.labels("503").inc()
            return web.Response(status=503)
        try:
            data = await request.json()
        except ValueError:
            metrics.UPDATES.labels("400").inc()
            return web.Response(status=400)
        if not isinstance(data, dict) or not isinstance(data.get("update_id"), int):
            metrics.UPDATES.labels("400").inc()
            return web.Response(status=400)
        task = asyncio.create_task(self._run(data))
        self.inflight.add(task)
        task.add_done_callback(self.inflight.discard)
        await asyncio.wait({task}, timeout=ANSWER_WITHIN)
        metrics.UPDATES.labels("200").inc()
        return web.Response(status=200)

    async def _run(self, data: dict) -> None:
        metrics.IN_FLIGHT.inc()
        try:
            await self.handle(data)
        except Exception:
            log.exception("webhook update failed")
        finally:
            metrics.IN_FLIGHT.dec()

    async def _healthz(self, request: web.Request) -> web.Response:
        if self.closing:
            return web.Response(status=503, text="stopping\n")
        return web.Response(text="ok\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        try:
            body = await metrics.render(self.store, time.time())
        except Exception:  # the database away: the process's own figures still
            log.warning("jobs due not read for /metrics", exc_info=True)
            body = await metrics.render()
        return web.Response(body=body, headers={"Content-Type": metrics.CONTENT_TYPE})

    async def drain(self, timeout: float = DRAIN) -> None:
        """Take no more updates (503: the proxy tries another worker) and finish those in
        hand."""
        self.closing = True
        if self.inflight:
            await asyncio.wait(set(self.inflight), timeout=timeout)

    async def stop(self) -> None:
        await self.drain()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


class TelegramAdapter:
    def __init__(
        self,
        service: GameService,
        token: str,
        *,
        base_url: str | None = None,
        base_file_url: str | None = None,
        rate_limiter: BaseRateLimiter | None = None,
        poll_timeout: float = 10,
        clock: Clock | None = None,
    ) -> None:
        self.service = service
        # the one clock: the limiter's budgets, the delivery's waits, the door's meter
        self.clock: Clock = clock or getattr(service, "time", None) or REAL
        # Updates come through the door (`_dispatch`): our own poller or the webhook; PTB's
        # updater (which acknowledged a batch before handling it) is not used.
        builder = Application.builder().token(token).concurrent_updates(True).updater(None)
        if base_url:
            builder = builder.base_url(base_url)
            builder = builder.base_file_url(base_file_url or base_url.replace("/bot", "/file/bot"))
        # One chat's flood control (429) holds back that chat only (AIORateLimiter: all).
        limiter = rate_limiter or ChatRateLimiter(max_retries=3, clock=self.clock)
        _count_429s(limiter)
        builder = builder.rate_limiter(limiter)
        # aiohttp: the HTTP parsing in C (bot/adapters/telegram_http.py); httpx: PTB's own.
        if (os.environ.get("TELEGRAM_HTTP") or "aiohttp") == "aiohttp":
            builder = builder.request(AiohttpRequest()).get_updates_request(
                AiohttpRequest(connection_pool_size=2, read_timeout=poll_timeout + 5))
        else:
            builder = builder.get_updates_read_timeout(poll_timeout + 5)
        self.app: Application = builder.build()
        self.poll_timeout = poll_timeout
        self.webhook: Webhook | None = None
        self.poller: Poller | None = None
        # the web table (bot/web): its routes join the webhook's port; `web` says where the
        # page is (RUMMY_WEB_URL and the Mini App's short name) for the "Open the table" row
        self.web_routes: list[Callable[[web.Application], None]] = []
        self.web: WebEntry | None = None
        self.intake = Intake(lambda: service.fair_use, clock=self.clock.monotonic)
        self.delivery = Delivery(
            _TelegramSender(self),
            lambda game_id: self.service.get_refs(game_id),
            lambda game_id, refs: self.service.save_refs(game_id, refs),
            lock=getattr(service, "message_lock", None),
            delivered=getattr(service, "delivered", None),
            clock=self.clock,
        )
        moves = self.service.typed_verbs
        self.app.add_handler(
            CommandHandler(
                [c for c, _ in COMMANDS] + sorted(moves) + other_commands(moves),
                self.on_command
            )
        )
        self.app.add_handler(CallbackQueryHandler(self.on_button))
        self.app.add_handler(
            MessageHandler(
                filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, self.on_private_text
            )
        )
        self.app.add_error_handler(self.on_error)
        service.register(PLATFORM, self.deliver)

    # -- life cycle ---------------------------------------------------------------------

    async def start(
        self,
        *,
        polling: bool = True,
        webhook_url: str | None = None,
        webhook_path: str = "telegram",
        webhook_secret: str | None = None,
        listen: str = "0.0.0.0",
        port: int = 8443,
        owner: bool = True,
    ) -> None:
        """Start serving: long polling, or with `webhook_url` a webhook server on
        `listen:port/webhook_path` that Telegram reaches at `webhook_url` (see `Webhook`:
        also /healthz and /metrics). A webhook needs a `webhook_secret`: Telegram sends it in
        X-Telegram-Bot-Api-Secret-Token and a post without it is answered 403 (anyone may
        find the URL; only Telegram knows the secret). `owner`: this worker registers the bot
        with Telegram (setWebhook, setMyCommands); of many workers only one does."""
        if webhook_url and not webhook_secret:
            raise ValueError("a webhook needs a secret token (TELEGRAM_WEBHOOK_SECRET)")
        await self.app.initialize()
        self.service.group_links[PLATFORM] = f"https://t.me/{self.username}?startgroup="
        if owner:
            await self.app.bot.set_my_commands([BotCommand(c, d) for c, d in COMMANDS])
            for lang in LANGUAGES[1:]:  # Telegram shows a person the list for their language
                with using(lang):
                    await self.app.bot.set_my_commands(
                        [BotCommand(c, _(d)) for c, d in COMMANDS], language_code=lang
                    )
            if self.web is not None:  # the menu button opens the table of the game one sits in
                await self.app.bot.set_chat_menu_button(menu_button=MenuButtonWebApp(
                    _(OPEN_TABLE), WebAppInfo(self.web.page())))
        await self.app.start()
        if webhook_url:
            assert webhook_secret is not None
            self.webhook = Webhook(self._webhook_update, webhook_path, webhook_secret,
                                   listen=listen, port=port, store=self.service.store,
                                   routes=self.web_routes)
            await self.webhook.start()
            if owner:
                await self.app.bot.set_webhook(
                    webhook_url, secret_token=webhook_secret,
                    allowed_updates=["message", "callback_query"],
                )
            return
        if polling:
            self.poller = Poller(self.app.bot, self.service.store, self._dispatch,
                                 timeout=self.poll_timeout, kinds=KINDS, clock=self.clock)
            self.poller.start()

    async def _webhook_update(self, data: dict) -> None:
        await self._dispatch(Update.de_json(lighten_update(data), self.app.bot))

    async def drain(self) -> None:
        """Stop taking updates and finish the ones in hand (a graceful stop: first)."""
        if self.webhook is not None:
            await self.webhook.drain()
        if self.poller is not None:
            await self.poller.stop()

    async def stop(self) -> None:
        if self.webhook is not None:
            await self.webhook.stop()
        if self.poller is not None:
            await self.poller.stop()
            self.poller = None
        await self.intake.drain(DRAIN / 2)
        await self.delivery.close()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()
        await self.app.bot.shutdown()  # its HTTP clients, also after a start that failed midway

    @property
    def username(self) -> str:
        return self.app.bot.username

    # -- incoming -----------------------------------------------------------------------

    async def _dispatch(self, update: Update) -> None:
        """The door every update passes (polling and webhook): metered before any work, then
        handled in its chat's line (at most a few of one chat's at once). Returns when it was
        handled — its change committed; its screens go out after — or turned away."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None:
            return
        verdict = self.intake.meter(PLATFORM, str(user.id), str(chat.id))
        if verdict is Verdict.GO:
            ran = await self.intake.submit(str(chat.id), lambda: self.app.process_update(update))
            if ran:
                return
            verdict = Verdict.QUIET  # the chat's line was full: turned away
        await self._turn_away(update, verdict)

    async def _turn_away(self, update: Update, verdict: Verdict) -> None:
        """Past the limit: a press gets only its callback answer (no chat budget spent), a
        command or text one "slow down" a window (through the lane), then silence."""
        user = update.effective_user
        with using(user.language_code if user else None):
            text = _(SLOW_DOWN)
        query = update.callback_query
        if query is not None:
            with contextlib.suppress(TelegramError):
                await query.answer(text if verdict is Verdict.WARN else None)
            return
        chat = update.effective_chat
        if verdict is Verdict.WARN and chat is not None:
            self._send_text(chat.id, text)

    @staticmethod
    def _actor(update: Update) -> Actor:
        chat = update.effective_chat
        user = update.effective_user
        name = (user.first_name or user.username or str(user.id)) if user else "?"
        return Actor(
            PLATFORM,
            str(chat.id),
            str(user.id if user else 0),
            name,
            private=chat.type == "private",
            lang=(user.language_code or "") if user else "",
            chat_name=chat.title or "",  # a group's title (a /notify call names it)
        )

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handling(update_key(update))
        message = update.effective_message
        if message is None or not message.text:
            return
        args = " ".join(context.args or [])
        command = Command.of(message.text.split()[0], args)  # decoded here, once
        verb = command.verb
        actor = self._actor(update)
        admin_words = {"season": ("weeks", "months"), "puzzle": ("on", "off")}.get(verb, ())
        if args.strip().lower() in admin_words and not actor.private:
            actor = replace(actor, admin=await self._is_admin(int(actor.chat_id), actor.user))
        outcome = await self.service.command(actor, command)
        # in a private chat, a screen posted anew below the command is the answer (a lesson's)
        answered = actor.private and actor.user in outcome.private_new
        if outcome.picture is not None:  # its caption holds the reply
            self.delivery.show(Chat(actor.chat_id, private=actor.private),
                               as_messages(outcome.picture))
        elif outcome.reply and (outcome.alert or (outcome.group is None and not answered)):
            self._send_text(int(actor.chat_id), outcome.reply)
        self._deliver_soon(outcome, by=actor.user)
        if verb == "join" and not outcome.alert:
            await self._check_private(outcome, actor)
        if verb == "notify" and not actor.private and not outcome.alert:
            await self._check_callable(actor)
        if verb == "start" and actor.private and args and not args.startswith("lesson"):
            again = await self.service.command(actor, "hand")
            if not again.alert:
                self._deliver_soon(again, by=actor.user)

    async def _is_admin(self, chat_id: int, user: str) -> bool:
        """Is the person an admin (or the creator) of the group? Asked only for the commands
        that need it; an error answers no."""
        try:
            member = await self.app.bot.get_chat_member(chat_id, int(user))
        except TelegramError:
            return False
        return member.status in ("administrator", "creator")

    async def on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handling(update_key(update))
        message = update.effective_message
        if message is None or not message.text:
            return
        actor = self._actor(update)
        command = Command.read(message.text)  # decoded here, once
        if command.verb not in self.service.typed_verbs | {"lesson"}:
            self._send_text(int(actor.chat_id), _("Type /help for the commands."))
            return
        outcome = await self.service.command(actor, command)
        if outcome.reply and outcome.alert:
            self._send_text(int(actor.chat_id), outcome.reply)
        self._deliver_soon(outcome, by=actor.user)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handling(update_key(update))
        started = time.perf_counter()
        query = update.callback_query
        if query is None or query.message is None:
            return
        actor = self._actor(update)
        # decoded here, once: the core takes the typed press (None: not one of ours)
        press = buttons.parse(query.data or "")
        learner = None
        if press is not None and press.verb == "solve":  # the try runs in the private chat
            learner = replace(actor, chat_id=actor.user, private=True)
        outcome = await self.service.press(actor, press, learner=learner)
        text = cut(outcome.reply or "", ALERT_UNITS) or None
        with contextlib.suppress(TelegramError):  # an old query can't be answered: not fatal
            await query.answer(text, show_alert=outcome.alert)
        metrics.PRESSES.labels(PLATFORM).inc()
        metrics.PRESS_SECONDS.labels(PLATFORM).observe(time.perf_counter() - started)
        self._deliver_soon(outcome, by=actor.user)
        if press is not None and press.verb in ("join", "solve") and not outcome.alert:
            await self._check_private(outcome, actor)  # (a puzzle's try is private too)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("update failed", exc_info=context.error)
        if isinstance(update, Update) and update.effective_chat:
            user = update.effective_user
            with using(user.language_code if user else None):
                self._send_text(update.effective_chat.id, narrate.SORRY)

    async def _check_private(self, outcome: Outcome, actor: Actor) -> None:
        """A player the bot can't message privately gets a deep link in the group."""
        try:
            await self.app.bot.send_chat_action(int(actor.user), "typing")
        except Forbidden:
            self._deep_link_advice(actor.chat_id, actor.name, outcome.game_id)
        except TelegramError:
            pass

    async def _check_callable(self, actor: Actor) -> None:
        """/notify from someone the bot can't write to privately (never opened its chat): the
        calls could not reach them, so the group gets the link that opens it, once."""
        try:
            await self.app.bot.send_chat_action(int(actor.user), "typing")
        except Forbidden:
            link = f"https://t.me/{self.username}?start=notify"
            text = _("{name}, open a private chat with me so I can call you when a game "
                     "opens: {link}").format(name=isolate(actor.name), link=link)
            self._send_text(int(actor.chat_id), text)
        except TelegramError:
            pass

    def _deep_link_advice(self, chat_id: str, name: str, game_id: int | None) -> None:
        link = f"https://t.me/{self.username}?start=join-{game_id or 0}"
        # the name isolated, the link bare: an isolate mark would end up inside the URL
        text = _("{name}, open a private chat with me so I can send your cards: {link}").format(
            name=isolate(name), link=link
        )
        self._send_text(int(chat_id), text)

    # -- outgoing -----------------------------------------------------------------------

    def _send_text(self, chat_id: int, text: str) -> None:
        """A reply to a chat, through its lane: a handler never waits for a chat's budget."""
        self.delivery.say(Chat(str(chat_id), private=chat_id > 0), text)

    def _deliver_soon(self, outcome: Outcome, by: str | None) -> None:
        """An outcome a handler answers with, delivered while the handler goes on."""
        if outcome.game_id is not None and not self.delivery.closed:
            self.delivery.soon(self.deliver(outcome, by=by))

    async def _send_now(self, chat_id: int, text: str) -> None:
        with contextlib.suppress(Forbidden, BadRequest):
            await _retrying(
                self.clock, self.app.bot.send_message, chat_id, cut(text, MESSAGE_UNITS))
            if chat_id < 0:
                self.delivery.posted(str(chat_id))  # below the table now

    async def deliver(self, outcome: Outcome, by: str | None = None) -> None:
        """Show an outcome: the group's live message, notes, and private views (through the
        shared delivery: a lane per chat inside its budget, `by`'s own screen first, never an
        older screen over a newer one, message ids saved once per delivery)."""
        if outcome.game_id is not None:
            metrics.DELIVERIES.labels(PLATFORM).inc()
        await self.delivery.deliver(outcome, by=by)


# A private chat's updates leave one request of its burst for its person's own next press.
PRIVATE_RESERVE = 1


class _TelegramSender(Sender):
    """Bot API calls for the shared delivery: a screen is a photo with a caption and an inline
    keyboard (a text message without a picture); a private chat's id is the user's id."""

    def __init__(self, adapter: TelegramAdapter) -> None:
        self.adapter = adapter

    @property
    def bot(self) -> Any:
        return self.adapter.app.bot

    async def address(self, run: Run, chat: Chat) -> int:
        return int(chat.id)

    def delay(self, chat: Chat, urgent: bool) -> float:
        limiter = self.bot.rate_limiter
        if not isinstance(limiter, ChatRateLimiter):
            return 0.0
        return limiter.delay(int(chat.id),
                             reserve=0 if urgent or not chat.private else PRIVATE_RESERVE)

    def web_row(self, screen: Screen, role: str) -> list[InlineKeyboardButton] | None:
        entry = self.adapter.web
        if entry is None or screen.game_id is None or screen.phase not in entry.phases:
            return None
        return entry.row(self.adapter.username, screen.game_id, role == "table", screen.lang)

    async def send(self, to: int, screen: Screen, role: str) -> int:
        markup = keyboard(screen, self.web_row(screen, role))
        try:
            if screen.image:
                message = await _retrying(
                    self.adapter.clock, self.bot.send_photo,
                    to, screen.image, caption=cut(screen.text, CAPTION_UNITS), reply_markup=markup
                )
            else:
                message = await _retrying(
                    self.adapter.clock, self.bot.send_message, to, cut(screen.text, MESSAGE_UNITS),
                    reply_markup=markup,
                )
        except Forbidden as error:
            raise Unreachable(str(error)) from error
        return message.message_id

    async def edit(self, to: int, message_id: int, screen: Screen, role: str, *,
                   picture: bool) -> None:
        markup = keyboard(screen, self.web_row(screen, role))
        try:
            if picture and screen.image_key and screen.image:
                await _retrying(
                    self.adapter.clock, self.bot.edit_message_media,
                    InputMediaPhoto(screen.image, caption=cut(screen.text, CAPTION_UNITS)),
                    chat_id=to,
                    message_id=message_id,
                    reply_markup=markup,
                )
            else:
                await _retrying(
                    self.adapter.clock, self.bot.edit_message_caption,
                    chat_id=to,
                    message_id=message_id,
                    caption=cut(screen.text, CAPTION_UNITS),
                    reply_markup=markup,
                )
        except Forbidden as error:
            raise Unreachable(str(error)) from error
        except BadRequest as error:
            if _not_modified(error):
                return
            raise Gone(str(error)) from error  # too old, deleted, or no longer a photo

    async def delete(self, to: int, message_id: int) -> None:
        with contextlib.suppress(TelegramError):
            await self.bot.delete_message(to, message_id)

    async def send_text(self, to: int, text: str) -> None:
        await self.adapter._send_now(to, text)

    async def run_step(self, run: Run, chat: Chat, step: Step) -> None:
        if not chat.private:
            await super().run_step(run, chat, step)
            return
        try:
            await run.step(int(chat.id), step)
        except Unreachable:  # never started the bot, or blocked it: a deep link, once
            outcome, user = run.outcome, chat.id
            if user in outcome.called:  # a /notify call, no seat: nothing to advise in the group
                log.info("no private chat with %s: call to play not sent", user)
                return
            if outcome.chat_id and not run.refs.get(f"advised:{user}"):
                run.refs.set(f"advised:{user}", True)
                name = outcome.names.get(user, "Player")
                self.adapter._deep_link_advice(outcome.chat_id, name, outcome.game_id)
