"""Telegram adapter: python-telegram-bot's Application around the game service.

Decodes commands and button presses into service calls, and sends the outcomes: the game's
live message in the group (a photo with caption and inline keyboard), and each player's
private view in their private chat with the bot. Rules live in the engine, game flow in the core.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from telegram import (
    BotCommand,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Update,
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

from bot.adapters.delivery import Chat, Delivery, Gone, Run, Sender, Step, Unreachable
from bot.adapters.telegram_limiter import ChatRateLimiter
from bot.core import narrate
from bot.core.lessons import PREFIX as LESSON_PREFIX
from bot.core.lessons import VERBS as LESSON_VERBS
from bot.core.lessons import LessonService
from bot.core.service import Actor, GameService, pack
from bot.core.unit import handling
from bot.core.views import Outcome, Screen
from bot.i18n import LANGUAGES, N_, _, isolate, using

log = logging.getLogger(__name__)
PLATFORM = "telegram"
COMMANDS = [  # the command menu; descriptions in English, translated per language_code
    ("newgame", N_("Open a game here: /newgame [rulebook]")),
    ("join", N_("Take a seat in this chat's game")),
    ("leave", N_("Leave the game (a computer takes your seat)")),
    ("hand", N_("Send my cards again")),
    ("hint", N_("Show a card I can play")),
    ("table", N_("Show the table again (with its buttons)")),
    ("rules", N_("The rules: /rules [rulebook]")),
    ("leaderboard", N_("Leaderboard: /leaderboard [rulebook]")),
    ("stats", N_("My results")),
    ("endgame", N_("End this chat's game (host)")),
    ("lesson", N_("Learn to play, step by step: /lesson [rulebook]")),
    ("language", N_("My language (in a group: the group's): /language en|he|ru")),
    ("help", N_("How to play")),
]


def other_commands(moves: frozenset[str]) -> list[str]:
    """Commands the bot answers besides the menu's and the games' typed moves (those are typed
    in the private chat with or without a slash, and not in the command menu)."""
    return ["start", "cards", "new", *sorted(LESSON_VERBS - {*moves, *(c for c, _ in COMMANDS)})]


def keyboard(screen: Screen) -> InlineKeyboardMarkup | None:
    if not screen.buttons or screen.game_id is None:
        return None
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    b.label,
                    # lesson buttons already carry their whole callback data
                    callback_data=b.action
                    if b.action.startswith(LESSON_PREFIX)
                    else pack(screen.game_id, screen.version, b.action),
                )
                for b in row
            ]
            for row in screen.buttons
        ]
    )


def _not_modified(error: BadRequest) -> bool:
    return "not modified" in str(error).lower()


RETRY_DELAYS = (0.5, 1.5, 4.0)  # a lost screen is sent again: a lost ▶ Next round strands a game


async def _retrying(call: Any, *args: Any, **kwargs: Any) -> Any:
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
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")


def update_key(update: Update) -> str:
    """The update's idempotency key: Telegram numbers a bot's updates, and redelivers one (a
    webhook answered late, two pollers) with the same update_id."""
    return f"tg:{update.update_id}"


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
        lessons: LessonService | None = None,
    ) -> None:
        self.service = service
        self.lessons = lessons or LessonService(service.store, play=service.play_computer)
        builder = Application.builder().token(token).concurrent_updates(True)
        if base_url:
            builder = builder.base_url(base_url)
            builder = builder.base_file_url(base_file_url or base_url.replace("/bot", "/file/bot"))
        # One chat's flood control (429) holds back that chat only (AIORateLimiter: all).
        builder = builder.rate_limiter(rate_limiter or ChatRateLimiter(max_retries=3))
        builder = builder.get_updates_read_timeout(poll_timeout + 5)
        self.app: Application = builder.build()
        self.poll_timeout = poll_timeout
        self.delivery = Delivery(
            _TelegramSender(self),
            lambda game_id: self.service.get_refs(game_id),
            lambda game_id, refs: self.service.save_refs(game_id, refs),
            lock=service.message_lock,
        )
        moves = self.service.typed_verbs
        self.app.add_handler(
            CommandHandler(
                [c for c, _ in COMMANDS] + sorted(moves) + other_commands(moves), self.on_command
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
    ) -> None:
        """Start serving: long polling, or with `webhook_url` a webhook server on
        `listen:port/webhook_path` that Telegram reaches at `webhook_url`. A webhook needs a
        `webhook_secret`: Telegram sends it in X-Telegram-Bot-Api-Secret-Token and PTB answers
        403 to a request without it (anyone may find the URL; only Telegram knows the secret)."""
        if webhook_url and not webhook_secret:
            raise ValueError("a webhook needs a secret token (TELEGRAM_WEBHOOK_SECRET)")
        await self.app.initialize()
        await self.app.bot.set_my_commands([BotCommand(c, d) for c, d in COMMANDS])
        for lang in LANGUAGES[1:]:  # Telegram shows a person the list for their language_code
            with using(lang):
                await self.app.bot.set_my_commands(
                    [BotCommand(c, _(d)) for c, d in COMMANDS], language_code=lang
                )
        await self.app.start()
        if not self.app.updater:
            return
        if webhook_url:
            await self.app.updater.start_webhook(
                listen=listen,
                port=port,
                url_path=webhook_path,
                webhook_url=webhook_url,
                secret_token=webhook_secret,
                allowed_updates=["message", "callback_query"],
            )
        elif polling:
            await self.app.updater.start_polling(
                poll_interval=0,
                timeout=self.poll_timeout,
                allowed_updates=["message", "callback_query"],
            )

    async def stop(self) -> None:
        await self.delivery.close()
        if self.app.updater and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()
        await self.app.bot.shutdown()  # its HTTP clients, also after a start that failed midway

    @property
    def username(self) -> str:
        return self.app.bot.username

    # -- incoming -----------------------------------------------------------------------

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
        )

    async def on_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handling(update_key(update))
        message = update.effective_message
        if message is None or not message.text:
            return
        verb = message.text.split()[0].lstrip("/").split("@")[0].lower()
        args = " ".join(context.args or [])
        actor = self._actor(update)
        if verb == "start" and args.startswith("lesson"):  # deep link ?start=lesson-tahiti
            await self._lesson_reply(
                actor, await self.lessons.start(actor, args.partition("-")[2] or None)
            )
            return
        if verb == "lesson" or (actor.private and await self.lessons.handles(actor, verb)):
            await self._lesson_reply(actor, await self.lessons.command(actor, verb, args))
            return
        outcome = await self.service.command(actor, verb, args)
        if outcome.reply and (outcome.alert or outcome.group is None):
            await self._send_text(int(actor.chat_id), outcome.reply)
        await self.deliver(outcome, by=actor.user)
        if verb == "join" and not outcome.alert:
            await self._check_private(outcome, actor)
        if verb == "start" and actor.private and args:
            again = await self.service.command(actor, "hand")
            if not again.alert:
                await self.deliver(again, by=actor.user)

    async def on_private_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handling(update_key(update))
        message = update.effective_message
        if message is None or not message.text:
            return
        verb, _, rest = message.text.strip().partition(" ")
        actor = self._actor(update)
        if await self.lessons.handles(actor, verb):
            await self._lesson_reply(actor, await self.lessons.command(actor, verb, rest))
            return
        if verb.lower() not in self.service.typed_verbs:
            await self._send_text(int(actor.chat_id), _("Type /help for the commands."))
            return
        outcome = await self.service.command(actor, verb, rest)
        if outcome.reply and outcome.alert:
            await self._send_text(int(actor.chat_id), outcome.reply)
        await self.deliver(outcome, by=actor.user)

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        handling(update_key(update))
        query = update.callback_query
        if query is None or query.message is None:
            return
        actor = self._actor(update)
        data = query.data or ""
        if data.startswith(LESSON_PREFIX):
            outcome = await self.lessons.press(actor, data)
        else:
            outcome = await self.service.press(actor, data)
        text = (outcome.reply or "")[:190] or None
        with contextlib.suppress(TelegramError):  # an old query can't be answered: not fatal
            await query.answer(text, show_alert=outcome.alert)
        await self.deliver(outcome, by=actor.user)
        if (query.data or "").endswith(":join") and not outcome.alert:
            await self._check_private(outcome, actor)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("update failed", exc_info=context.error)
        if isinstance(update, Update) and update.effective_chat:
            user = update.effective_user
            with contextlib.suppress(TelegramError), using(user.language_code if user else None):
                await context.bot.send_message(update.effective_chat.id, narrate.SORRY)

    async def _lesson_reply(self, actor: Actor, outcome: Outcome) -> None:
        """A lesson answers in its screen; a text only for an error or when there is none."""
        if outcome.reply and (outcome.alert or not outcome.private):
            await self._send_text(int(actor.chat_id), outcome.reply)
        await self.deliver(outcome, by=actor.user)

    async def _check_private(self, outcome: Outcome, actor: Actor) -> None:
        """A player the bot can't message privately gets a deep link in the group."""
        try:
            await self.app.bot.send_chat_action(int(actor.user), "typing")
        except Forbidden:
            await self._deep_link_advice(actor.chat_id, actor.name, outcome.game_id)
        except TelegramError:
            pass

    async def _deep_link_advice(self, chat_id: str, name: str, game_id: int | None) -> None:
        link = f"https://t.me/{self.username}?start=join-{game_id or 0}"
        # the name isolated, the link bare: an isolate mark would end up inside the URL
        text = _("{name}, open a private chat with me so I can send your cards: {link}").format(
            name=isolate(name), link=link
        )
        await self._send_text(int(chat_id), text)

    # -- outgoing -----------------------------------------------------------------------

    async def _send_text(self, chat_id: int, text: str) -> None:
        with contextlib.suppress(Forbidden, BadRequest):
            await _retrying(self.app.bot.send_message, chat_id, text[:4000])
            if chat_id < 0:
                self.delivery.posted(str(chat_id))  # below the table now

    async def deliver(self, outcome: Outcome, by: str | None = None) -> None:
        """Show an outcome: the group's live message, notes, and private views (through the
        shared delivery: a lane per chat inside its budget, `by`'s own screen first, never an
        older screen over a newer one, message ids saved once per delivery)."""
        await self.delivery.deliver(outcome, by=by)


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
        # A private chat keeps one request of its burst for its person's own next press.
        return limiter.delay(int(chat.id), reserve=0 if urgent or not chat.private else 1)

    async def send(self, to: int, screen: Screen, role: str) -> int:
        markup = keyboard(screen)
        try:
            if screen.image:
                message = await _retrying(
                    self.bot.send_photo,
                    to, screen.image, caption=screen.text[:1024], reply_markup=markup
                )
            else:
                message = await _retrying(
                    self.bot.send_message, to, screen.text[:4000], reply_markup=markup
                )
        except Forbidden as error:
            raise Unreachable(str(error)) from error
        return message.message_id

    async def edit(self, to: int, message_id: int, screen: Screen, role: str, *,
                   picture: bool) -> None:
        markup = keyboard(screen)
        try:
            if picture and screen.image_key and screen.image:
                await _retrying(
                    self.bot.edit_message_media,
                    InputMediaPhoto(screen.image, caption=screen.text[:1024]),
                    chat_id=to,
                    message_id=message_id,
                    reply_markup=markup,
                )
            else:
                await _retrying(
                    self.bot.edit_message_caption,
                    chat_id=to,
                    message_id=message_id,
                    caption=screen.text[:1024],
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
        await self.adapter._send_text(to, text)

    async def run_step(self, run: Run, chat: Chat, step: Step) -> None:
        if not chat.private:
            await super().run_step(run, chat, step)
            return
        try:
            await run.step(int(chat.id), step)
        except Unreachable:  # never started the bot, or blocked it: a deep link, once
            outcome, user = run.outcome, chat.id
            if outcome.chat_id and not run.refs.get(f"advised:{user}"):
                run.refs.set(f"advised:{user}", True)
                name = outcome.names.get(user, "Player")
                await self.adapter._deep_link_advice(outcome.chat_id, name, outcome.game_id)
