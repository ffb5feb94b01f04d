"""Discord adapter: a discord.py client around the game service (the same core as Telegram).

Slash commands (`/rummy …`, `/leaderboard`, `/stats`) and persistent components in; out: the
game's live message in the channel (table image, caption, lobby/score buttons), each player's
private view by DM, or — for members whose DMs are closed — as an ephemeral message that only
they see. Rules live in the engine, game flow in the core; this file only talks Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket

from bot import metrics
from bot.clock import REAL, Clock
from bot.core import narrate
from bot.core.buttons import Press
from bot.core.commands import Command
from bot.core.cut import cut
from bot.core.fair_use import SLOW_DOWN, paid_at_door
from bot.core.names import clean_name
from bot.core.per_game import LimitedDict
from bot.core.service import Actor, GameService
from bot.core.unit import handling
from bot.core.views import PRIMARY, ActionRow, Button, Outcome, Screen
from bot.i18n import N_, _, current, every, set_locale, t, using

from .budgets import Bucket
from .delivery import (
    NOTE,
    PRIVATE,
    TABLE,
    Chat,
    Delivery,
    Gone,
    Refs,
    Run,
    Sender,
    Step,
    Unreachable,
)
from .discord_commands import CatalogTranslator, add_commands
from .discord_layout import render
from .discord_ui import GameButton, GameSelect, build_view, claims
from .intake import Intake, Verdict

log = logging.getLogger(__name__)
PLATFORM = "discord"
TOKEN_LIFETIME = 14 * 60  # interaction tokens die after 15 min; leave a margin
CLOSED_DMS = 50007  # "Cannot send messages to this user"
OLD_EDITS = 30046  # "Maximum number of edits to messages older than 1 hour reached"
# Joining is done where the lobby is. /leave and /endgame do work in a DM: they mean the DM's
# own game (one against the computer), which has no channel to go to.
CHANNEL_ONLY = ("join",)
OPEN_TABLE = N_("🃏 Open the table")
WEB_LINK = N_("Your own link to this table (it works for 15 minutes):")
WEB_NOT_SET = N_("The web table is not set up on this bot.")
# Typed in a DM, for the DM's own game too (slash commands synced to one server only are not
# offered in DMs): the word typed -> the core's verb.
TYPED_GAME = {"leave": "leave", "end": "endgame", "endgame": "endgame", "language": "language"}


def configure_endpoints(api_base: str | None, gateway_url: str | None) -> None:
    """Point discord.py at a Discord-compatible server (both settings are process-wide)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


@dataclass
class _Ctx:
    """The interaction being answered — the only way to show someone an ephemeral message."""

    interaction: discord.Interaction
    user: str
    on_ephemeral: bool = False  # pressed on an ephemeral private view: edit that one
    thinking: bool = False  # a deferred slash command: the first followup fills its placeholder
    alive: bool = True  # acknowledged in time (False: unknown or expired token)
    answered: bool = False
    showed_private: bool = False  # the private view went to this interaction
    problems: list[str] = field(default_factory=list)


@dataclass
class _Handle:
    """A member's ephemeral private view, editable through an interaction token for 15 min."""

    interaction: discord.Interaction | None  # None: another worker's, edited by its webhook
    message_id: int
    original: bool  # the interaction's own response (else one of its followups)
    image_key: str | None
    at: float  # the clock's epoch seconds: shared across workers
    webhook: discord.Webhook | None = None

    def fresh(self, now: float) -> bool:
        return now - self.at < TOKEN_LIFETIME

    def shared(self) -> list[Any]:
        """What the game's refs keep so any worker can edit it (the token lives 15 min)."""
        assert self.interaction is not None
        return [self.interaction.token, self.message_id, self.at]


class RummyClient(discord.Client):
    def __init__(self, adapter: DiscordAdapter, *, guild_ready_timeout: float,
                 **shards: Any) -> None:
        intents = discord.Intents.none()  # no privileged intents; DMs carry typed moves
        intents.guilds = True
        intents.dm_messages = True
        super().__init__(intents=intents, guild_ready_timeout=guild_ready_timeout,
                         allowed_mentions=discord.AllowedMentions.none(), max_messages=None,
                         **shards)
        self.adapter = adapter
        self.tree = app_commands.CommandTree(self)
        self.tree.error(adapter.on_command_error)

    async def setup_hook(self) -> None:
        # Registered on every start, so components sent by an earlier process still work.
        self.add_dynamic_items(GameButton, GameSelect)
        await self.tree.set_translator(CatalogTranslator())  # descriptions per member locale
        await self.adapter.sync_commands()

    async def on_message(self, message: discord.Message) -> None:
        await self.adapter.on_message(message)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.adapter.on_interaction(interaction)


class ShardedRummyClient(RummyClient, discord.AutoShardedClient):
    """This worker's shards of the bot (shard_ids of shard_count): an interaction is answered
    by the shard that received it; deliveries go by REST from whichever worker did the work."""


class DiscordAdapter:
    def __init__(self, service: GameService, token: str, *, guild_id: int | None = None,
                 api_base: str | None = None, gateway_url: str | None = None,
                 guild_ready_timeout: float = 2.0, sync: bool = True,
                 shards: tuple[list[int], int] | None = None,
                 clock: Clock | None = None) -> None:
        self.service = service
        # the one clock: pacing, the door's meter, interaction tokens' age
        self.clock: Clock = clock or getattr(service, "time", None) or REAL
        self.token = token
        guild = guild_id or os.environ.get("DISCORD_GUILD_ID")
        self.guild_id = int(guild) if guild else None
        self.api_base = api_base or os.environ.get("DISCORD_API_BASE")
        self.gateway_url = gateway_url or os.environ.get("DISCORD_GATEWAY_URL")
        self.sync = sync
        if shards is None:
            self.client: RummyClient = RummyClient(self, guild_ready_timeout=guild_ready_timeout)
        else:
            self.client = ShardedRummyClient(self, guild_ready_timeout=guild_ready_timeout,
                                             shard_ids=shards[0], shard_count=shards[1])
            self.sync = sync and 0 in shards[0]  # the commands are the bot's: one worker syncs
        self._task: asyncio.Task | None = None
        self.delivery = Delivery(_DiscordSender(self),
                                 lambda game_id: self.service.get_refs(game_id),
                                 lambda game_id, refs: self.service.save_refs(game_id, refs),
                                 lock=getattr(service, "message_lock", None),
                                 delivered=getattr(service, "delivered", None),
                                 clock=self.clock)
        self._dm_ids: LimitedDict = LimitedDict(20_000)  # user -> DM channel id
        self._ephemeral: LimitedDict = LimitedDict(2_000)  # user -> handle (15 min of life)
        # the door: metered before any work
        self.intake = Intake(lambda: service.fair_use, clock=self.clock.monotonic)
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        # the web table (bot/web): (member, game id) -> a short-lived signed link to its page
        self.web: Callable[[Actor, int], str] | None = None
        add_commands(self.client.tree, self)
        service.register(PLATFORM, self.deliver)

    # -- life cycle ---------------------------------------------------------------------

    async def start(self, *, ready_timeout: float = 60) -> None:
        configure_endpoints(self.api_base, self.gateway_url)
        await self.client.login(self.token)  # runs setup_hook: dynamic items, command sync
        self._task = asyncio.create_task(self.client.connect(reconnect=True),
                                         name="discord-gateway")
        ready = asyncio.create_task(self.client.wait_until_ready())
        done, _ = await asyncio.wait({ready, self._task}, timeout=ready_timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready in done:
            return
        ready.cancel()
        task, self._task = self._task, None
        await self.client.close()
        if task.done() and task.exception() is not None:
            raise task.exception()  # type: ignore[misc]  # e.g. PrivilegedIntentsRequired
        task.cancel()
        raise TimeoutError("the Discord gateway did not become ready")

    async def stop(self) -> None:
        await self.wait_idle(10)
        await self.delivery.close()
        await self.client.close()
        if self._task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._task, 5)
            self._task = None

    async def wait_closed(self) -> None:
        if self._task is not None:
            await self._task

    @property
    def busy(self) -> int:
        """Interactions and deliveries being handled right now."""
        return self._busy

    async def wait_idle(self, timeout: float | None = None) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._idle.wait(), timeout)

    @contextlib.asynccontextmanager
    async def _working(self) -> AsyncIterator[None]:
        self._busy += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    async def sync_commands(self) -> None:
        if not self.sync:
            return
        tree = self.client.tree
        try:
            if self.guild_id:  # instant in one server (tests, development)
                guild = discord.Object(self.guild_id)
                tree.copy_global_to(guild=guild)
                await tree.sync(guild=guild)
            else:  # everywhere; Discord may take a while to show new commands
                await tree.sync()
        except discord.HTTPException:
            log.exception("could not sync the slash commands (applications.commands scope?)")

    # -- commands -----------------------------------------------------------------------

    async def on_command_error(self, interaction: discord.Interaction,
                               error: app_commands.AppCommandError) -> None:
        log.error("slash command failed", exc_info=error)
        await self._apologize(interaction)

    @staticmethod
    async def _apologize(interaction: discord.Interaction) -> None:
        text = narrate.SORRY
        with contextlib.suppress(discord.HTTPException):
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)

    async def _door(self, interaction: discord.Interaction, *, command: bool) -> bool:
        """Meter an interaction before any work (each is its own task on Discord: no shared
        handler slots to hold, but nothing past fair use gets work). Turned away: a press is
        only acknowledged; a command is told to slow down (an interaction's answer spends no
        channel budget). True: go ahead."""
        verdict = self.intake.meter(PLATFORM, str(interaction.user.id),
                                    str(interaction.channel_id or 0))
        if verdict is Verdict.GO:
            paid_at_door()  # this task's first fair-use check is this one
            return True
        with contextlib.suppress(discord.HTTPException):
            if command or verdict is Verdict.WARN:  # as any answer: thinking, then the text
                await interaction.response.defer(ephemeral=True, thinking=command)
                with using(str(getattr(interaction.locale, "value", "") or "")):
                    await interaction.followup.send(_(SLOW_DOWN), ephemeral=True)
            else:
                await interaction.response.defer()
        return False

    @staticmethod
    def actor(interaction: discord.Interaction) -> Actor:
        user = interaction.user
        # The member's client language (Discord has no Hebrew: /rummy language chooses it).
        lang = str(getattr(interaction.locale, "value", "") or "")
        set_locale(lang)  # until the service knows better (a /language choice, a seat)
        # a chat admin: who may manage the server (Discord computes the member's permissions
        # in this channel and sends them with the interaction)
        perms = interaction.permissions
        channel = getattr(interaction.channel, "name", None)  # a /notify call names it
        return Actor(PLATFORM, str(interaction.channel_id or 0), str(user.id),
                     clean_name(user.display_name), private=interaction.guild_id is None,
                     lang=lang, admin=bool(perms.manage_guild or perms.administrator),
                     chat_name=f"#{channel}" if channel else "")

    @staticmethod
    async def _defer(interaction: discord.Interaction, **kwargs: Any) -> bool:
        """Acknowledge first (Discord's 3 s), then take the time rendering needs. Names the
        interaction as the update being handled: one delivered twice changes a game once."""
        handling(f"dc:{interaction.id}")
        try:
            await interaction.response.defer(**kwargs)
        except discord.InteractionResponded:
            pass
        except discord.HTTPException as error:  # 10062: unknown or expired interaction
            log.info("interaction %s could not be acknowledged: %s", interaction.id, error)
            return False
        return True

    async def slash(self, interaction: discord.Interaction, verb: str, args: str = "", *,
                    public: bool = False, about: Actor | None = None) -> None:
        """A slash command: acknowledge (ephemeral unless `public`), ask the core, answer.
        `about`: /stats of another member (the asker's fair-use budget pays for it)."""
        if not await self._door(interaction, command=True):
            return
        async with self._working():
            ctx = _Ctx(interaction, str(interaction.user.id), thinking=True)
            try:
                ctx.alive = await self._defer(interaction, ephemeral=not public, thinking=True)
                actor = self.actor(interaction)
                if actor.private and verb in CHANNEL_ONLY:
                    outcome = Outcome(reply=_("Use this in the server channel where you play."))
                elif about is not None:
                    slow = self.service.fair_use.check(actor.platform, actor.user, actor.chat_id)
                    outcome = (Outcome(reply=slow, alert=True) if slow else
                               await self.service.stats_of(about, args or None))
                else:
                    outcome = await self.service.command(actor, Command.of(verb, args))
                if verb == "join" and not outcome.alert and outcome.game_id is not None:
                    await self._check_dms(outcome, actor)
                if verb == "hint" and outcome.reply in every("OK"):
                    outcome.reply = _("💡 The hint is on your cards.")
                await self._answer(ctx, outcome)
            except Exception:
                log.exception("/%s failed", verb)
                await self._apologize(interaction)

    async def web_link(self, interaction: discord.Interaction) -> None:
        """/rummy web: this channel's game on the web table, by a link button only the
        member sees (a signed link for that member: it speaks for their seat, or watches)."""
        if not await self._door(interaction, command=True):
            return
        async with self._working():
            try:
                await self._defer(interaction, ephemeral=True, thinking=True)
                actor = self.actor(interaction)
                await self.service.speak_to(actor)
                row = await self.service.store.active_game(PLATFORM, actor.chat_id)
                if self.web is None:
                    await interaction.followup.send(_(WEB_NOT_SET), ephemeral=True)
                    return
                if row is None:
                    await interaction.followup.send(narrate.NO_GAME, ephemeral=True)
                    return
                view = discord.ui.View()
                view.add_item(discord.ui.Button(style=discord.ButtonStyle.link,
                                                label=_(OPEN_TABLE), url=self.web(actor, row.id)))
                await interaction.followup.send(_(WEB_LINK), view=view, ephemeral=True)
            except Exception:
                log.exception("/rummy web failed")
                await self._apologize(interaction)

    # -- lessons --------------------------------------------------------------------------

    async def lesson(self, interaction: discord.Interaction, rulebook: str = "") -> None:
        """/rummy lesson [rulebook]: the lesson runs in the member's DM (resumed if one is
        running there); with DMs closed its screen shows ephemerally, like a game's cards."""
        if not await self._door(interaction, command=True):
            return
        async with self._working():
            ctx = _Ctx(interaction, str(interaction.user.id), thinking=True)
            try:
                ctx.alive = await self._defer(interaction, ephemeral=True, thinking=True)
                actor = await self._learner(interaction)
                outcome = await self.service.command(actor, "lesson", rulebook)
                if outcome.private and not outcome.reply:
                    outcome.reply = "🎓 Your lesson is in your DMs."
                await self._answer(ctx, outcome)
            except Exception:
                log.exception("/rummy lesson failed")
                await self._apologize(interaction)

    async def _learner(self, interaction: discord.Interaction) -> Actor:
        """The member as a learner: a lesson's chat is their DM, wherever they pressed."""
        user = interaction.user
        channel = await self._dm(str(user.id))
        return Actor(PLATFORM, str(channel.id), str(user.id), clean_name(user.display_name),
                     private=True, lang=str(getattr(interaction.locale, "value", "") or ""))

    # -- components and messages --------------------------------------------------------

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every interaction passes here (after discord.py handed it to its handlers): a
        component interaction none of our items will answer — a forged or unknown custom_id,
        one not on the message — gets a polite answer instead of "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component or claims(interaction):
            return
        data: Any = interaction.data or {}
        log.info("component %.120r is not ours", data.get("custom_id"))
        await self.reject(interaction)

    async def reject(self, interaction: discord.Interaction) -> None:
        """A button or menu that is not exactly one of ours (the core's words for it)."""
        async with self._working():
            with contextlib.suppress(discord.HTTPException):
                if interaction.response.is_done():
                    await interaction.followup.send(narrate.NOT_OURS, ephemeral=True)
                else:
                    await interaction.response.send_message(narrate.NOT_OURS, ephemeral=True)

    async def on_press(self, interaction: discord.Interaction, press: Press | None) -> None:
        """A button or a menu's choice, decoded at the door (discord_ui: None, not ours)."""
        started = time.perf_counter()
        if not await self._door(interaction, command=False):
            return
        async with self._working():
            ctx = self._component_ctx(interaction)
            try:
                ctx.alive = await self._defer(interaction)
                actor = self.actor(interaction)
                learner = None  # 🧩 Solve: the try runs in the member's DM
                if press is not None and press.verb == "solve":
                    learner = await self._learner(interaction)
                outcome = await self.service.press(actor, press, learner=learner)
                joined = press is not None and press.verb == "join"
                if joined and not outcome.alert and outcome.game_id is not None:
                    await self._check_dms(outcome, actor)
                await self._answer(ctx, outcome)
                metrics.PRESSES.labels(PLATFORM).inc()
                metrics.PRESS_SECONDS.labels(PLATFORM).observe(time.perf_counter() - started)
            except Exception:
                log.exception("button %s failed", press)
                await self._apologize(interaction)

    async def on_cards(self, interaction: discord.Interaction, game_id: int, version: int,
                       values: Sequence[str], shown: Sequence[str], *, paged: bool) -> None:
        """The hand's multi-select changed. On a one-page hand the menu is the whole selection;
        on a paged hand only this page's changes apply (the core keeps the other pages'). One
        change and one save, metered once at the door."""
        if not await self._door(interaction, command=False):
            return
        async with self._working():
            ctx = self._component_ctx(interaction)
            try:
                ctx.alive = await self._defer(interaction)
                actor = self.actor(interaction)
                # one change and one save, however many cards the menu changed
                outcome = await self.service.set_selection(
                    actor, game_id, version, list(values), page=list(shown) if paged else None)
                await self._answer(ctx, outcome)
            except Exception:
                log.exception("card selection failed")
                await self._apologize(interaction)

    @staticmethod
    def _component_ctx(interaction: discord.Interaction) -> _Ctx:
        message = interaction.message
        return _Ctx(interaction, str(interaction.user.id),
                    on_ephemeral=bool(message is not None and message.flags.ephemeral))

    async def on_message(self, message: discord.Message) -> None:
        """Typed moves in a DM (`lay 7H 8H 9H`, `done`…); the buttons are the main path."""
        if message.author.bot or message.guild is not None or not message.content:
            return
        verb, _sep, rest = message.content.strip().lstrip("/!").partition(" ")
        verb = verb.lower()
        verb = TYPED_GAME.get(verb, verb)
        handling(f"dcm:{message.id}")  # a gateway without sharding may hand it to two shards
        verdict = self.intake.meter(PLATFORM, str(message.author.id), str(message.channel.id))
        if verdict is not Verdict.GO:
            if verdict is Verdict.WARN:
                self.delivery.say(Chat(str(message.author.id), private=True), _(SLOW_DOWN))
            return
        paid_at_door()
        async with self._working():
            try:
                if (verb not in self.service.typed_verbs and verb not in TYPED_GAME.values()
                        and verb != "lesson"):
                    await message.channel.send(_(
                        "Use the buttons on your cards, or type a move: `lay 7H 8H 9H` · "
                        "`add B 10H` · `move B:QS A` · `split B 4` · `take B QS` · `done` · "
                        "`draw`."
                    ))
                    return
                actor = Actor(PLATFORM, str(message.channel.id), str(message.author.id),
                              clean_name(message.author.display_name), private=True)
                outcome = await self.service.command(actor, Command.of(verb, rest))
                said = verb in TYPED_GAME.values() and actor.user not in outcome.private_notes
                if outcome.reply and (outcome.alert or said):
                    await message.channel.send(render(outcome.reply))
                if actor.user in outcome.private:  # below the typed line, not edited above it
                    outcome.private_new.add(actor.user)
                await self.deliver(outcome)
            except discord.HTTPException:
                log.exception("typed move failed")

    async def _answer(self, ctx: _Ctx, outcome: Outcome) -> None:
        """Show the outcome, then the reply to whoever acted (ephemeral, like a toast)."""
        if not ctx.alive:  # nothing can answer this interaction: a fresh DM instead
            if ctx.user in outcome.private:
                outcome.private_new.add(ctx.user)
            if outcome.reply and outcome.alert and outcome.game_id is not None:
                note = outcome.private_notes.get(ctx.user, "")
                outcome.private_notes[ctx.user] = (note + "\n" + outcome.reply).strip()
        if outcome.called:  # /notify's calls go out while the opener is answered, unwaited
            calls = Outcome(
                private_extras={u: outcome.private_extras.pop(u) for u in outcome.called
                                if u in outcome.private_extras},
                called=outcome.called, where=replace(outcome.where, names={}, next_up=""))
            outcome.called = set()
            self.delivery.soon(self.deliver(calls))
        await self.deliver(outcome, ctx)
        if not ctx.alive:
            return
        text = render(outcome.reply or "")
        if outcome.reply in every("OK") or (ctx.showed_private and not outcome.alert):
            text = ""  # the private view itself is the answer
        text = "\n".join([text, *ctx.problems]).strip()
        if outcome.picture is not None:  # /stats, /leaderboard: the text beside the picture
            png = await asyncio.to_thread(lambda: outcome.picture.image)
            if png:
                await self._followup(ctx, text, files=[discord.File(io.BytesIO(png), PICTURE)])
                return
        if text or (ctx.thinking and not ctx.answered):
            await self._followup(ctx, text or "Done.")

    async def _followup(self, ctx: _Ctx, text: str, *, view: discord.ui.View | None = None,
                        files: list[discord.File] | None = None) -> tuple[int, bool] | None:
        """Send to the interaction (ephemeral unless a public command's placeholder is being
        filled); returns the message id and whether it is the interaction's original."""
        kwargs: dict[str, Any] = {"content": cut(text, 2000), "ephemeral": True, "wait": True}
        if view is not None:
            kwargs["view"] = view
        if files:
            kwargs["files"] = files
        original = ctx.thinking and not ctx.answered
        try:
            message = await ctx.interaction.followup.send(**kwargs)
        except discord.HTTPException as error:
            log.info("followup failed: %s", error)
            return None
        ctx.answered = True
        return message.id, original

    async def _check_dms(self, outcome: Outcome, actor: Actor) -> None:
        """A new player gets a DM; if their DMs are closed they learn about Show my hand now."""
        if outcome.game_id is None:
            return
        try:
            channel = await self._dm(actor.user)
            await channel.send(_(
                "You're seated at Rummy Table in {channel}. Your cards will come here when "
                "the game starts."
            ).format(channel=f"<#{outcome.chat_id}>"))
            closed = False
        except discord.Forbidden as error:
            if error.code != CLOSED_DMS:
                log.warning("cannot DM %s: %s", actor.user, error)
                return
            closed = True
            outcome.reply = _(
                "You joined. Your DMs are closed, so I'll show your cards here, only to you: "
                "press Show my hand (or My cards) once the game starts."
            )
        await self.delivery.remember(outcome.game_id, {f"dmclosed:{actor.user}": closed},
                                     outcome.refs)

    # -- outgoing -----------------------------------------------------------------------

    async def deliver(self, outcome: Outcome, ctx: _Ctx | None = None) -> None:
        """Show an outcome: notes and the live message in the channel, then private views
        (through the shared delivery: one game at a time, never an older screen over a newer
        one, message ids saved once per delivery when they change)."""
        if outcome.game_id is None and not outcome.notes:  # notes alone: a chat's post
            return
        async with self._working():
            await self.delivery.deliver(outcome, ctx)

    async def _advise_closed(self, run: Run) -> None:
        """Members we can't reach privately learn about Show my hand before the table is
        posted, so the table stays the newest message."""
        outcome, refs, ctx = run.outcome, run.refs, run.context
        if not outcome.chat_id:
            return
        channel = self.client.get_partial_messageable(int(outcome.chat_id))
        try:
            for user in outcome.private:
                if refs.get(f"dmclosed:{user}") and not (ctx and ctx.user == user):
                    handle = self._handle(refs, user)
                    if handle is None or not handle.fresh(self.clock.now()):
                        await self._advise(channel, user, outcome, refs)
        except discord.Forbidden:
            _no_permission(channel.id, ctx)

    async def _advise(self, channel: discord.PartialMessageable, user: str, outcome: Outcome,
                      refs: Refs) -> None:
        """Once per game and member: their DMs are closed, the button shows their cards."""
        if refs.get(f"advised:{user}"):
            return
        refs.set(f"advised:{user}", True)
        name = outcome.names.get(user, "Player")
        with using(outcome.group.lang if outcome.group is not None else current()):  # channel
            text = t("{name}, your DMs are closed — use Show my hand (only you will see "
                     "your cards).", name=name)
            screen = Screen(text, [ActionRow([Button(_("🂠 Show my hand"), "cards", PRIMARY)])],
                            game_id=outcome.game_id, version=0)
        await channel.send(render(screen.text), view=build_view(screen))

    async def _show_private(self, run: Run, step: Step) -> None:
        """A member's private view is one message, by DM or ephemeral, whichever worker
        shows it: under its lock, with the refs that say where it is and what it shows (a
        worker posting her new ephemeral view while another edits her old one for a computer's
        move would leave her looking at the older state)."""
        user, key = step.user, step.key
        assert user is not None and key is not None
        more = (f"eph:{user}", f"dmclosed:{user}", f"advised:{user}")
        async with run.locked(key, *more):
            await self._show_private_held(run, step)

    async def _show_private_held(self, run: Run, step: Step) -> None:
        """DM the private view; for closed DMs answer the member's own interaction ephemerally,
        edit their last ephemeral view while its token lives, or point them to Show my hand."""
        user, screen, key = step.user, step.screen, step.key
        assert user is not None and screen is not None and key is not None
        outcome, refs, ctx = run.outcome, run.refs, run.context
        if not run.current(key):
            return  # an older screen than the one shown (a computer's outcome overtook it)
        new = step.new
        mine = ctx is not None and ctx.user == user
        own = mine and ctx is not None and ctx.alive
        if own and ctx is not None and ctx.on_ephemeral and ctx.interaction.message is not None:
            message_id = ctx.interaction.message.id
            prior = self._ephemeral.get(user)
            known = prior.image_key if prior and prior.message_id == message_id else None
            handle = _Handle(ctx.interaction, message_id, True, known, self.clock.now())
            if await self._edit_handle(handle, screen):
                self._keep_handle(refs, user, handle)
                ctx.showed_private = True
                run.shown(key)
                return
        closed = refs.get(f"dmclosed:{user}", False)
        if not closed or (mine and new):  # asked for the cards again: DMs may be open now
            try:
                await run.show(await self._dm(user), step, held=True)
                if closed:
                    refs.set(f"dmclosed:{user}", False)
                return
            except (Unreachable, discord.Forbidden) as error:
                cause = error.__cause__ if isinstance(error, Unreachable) else error
                if getattr(cause, "code", None) != CLOSED_DMS:
                    log.warning("cannot DM %s: %s", user, cause)
                refs.set(f"dmclosed:{user}", True)
        if own and ctx is not None:
            files = await _files(screen, FILES[PRIVATE])
            sent = await self._followup(ctx, render(screen.text), view=build_view(screen),
                                        files=files)
            if sent is not None:
                old = self._handle(refs, user)
                self._keep_handle(refs, user, _Handle(ctx.interaction, sent[0], sent[1],
                                                      screen.image_key, self.clock.now()))
                ctx.showed_private = True
                run.shown(key)
                if old is not None and old.fresh(self.clock.now()) and old.message_id != sent[0]:
                    await _delete(old)  # one ephemeral view at a time: no stale buttons
            return
        handle = self._handle(refs, user)
        fresh = handle is not None and handle.fresh(self.clock.now())
        if handle is not None and fresh and await self._edit_handle(handle, screen):
            run.shown(key)
            return
        self._ephemeral.pop(user, None)
        if outcome.chat_id:
            channel = self.client.get_partial_messageable(int(outcome.chat_id))
            with contextlib.suppress(discord.HTTPException):
                await self._advise(channel, user, outcome, refs)

    def _keep_handle(self, refs: Refs, user: str, handle: _Handle) -> None:
        self._ephemeral[user] = handle
        refs.set(f"eph:{user}", handle.shared())

    def _handle(self, refs: Refs, user: str) -> _Handle | None:
        """The member's ephemeral view: this worker's handle, or — when another worker's shard
        answered their last press — one made from the token it saved in the game's refs."""
        handle = self._ephemeral.get(user)
        shared = refs.get(f"eph:{user}")
        if not shared or (handle is not None and handle.at >= shared[2]):
            return handle
        token, message_id, at = shared
        webhook = discord.Webhook.partial(self.client.application_id or 0, token,
                                          client=self.client)
        # Its picture is not known here: the edit sends it again.
        return _Handle(None, int(message_id), False, None, at=float(at), webhook=webhook)

    async def _edit_handle(self, handle: _Handle, screen: Screen) -> bool:
        kwargs: dict[str, Any] = {"content": render(screen.text), "view": build_view(screen)}
        if screen.image_key != handle.image_key:
            kwargs["attachments"] = await _files(screen, FILES[PRIVATE])
        try:
            if handle.webhook is not None:  # the original response too, by its message id
                await handle.webhook.edit_message(handle.message_id, **kwargs)
            elif handle.original:
                assert handle.interaction is not None
                await handle.interaction.edit_original_response(**kwargs)
            else:
                assert handle.interaction is not None
                await handle.interaction.followup.edit_message(handle.message_id, **kwargs)
        except discord.HTTPException as error:  # expired token, or the member dismissed it
            log.info("ephemeral view %s not editable: %s", handle.message_id, error)
            return False
        handle.image_key = screen.image_key
        return True

    async def _note(self, run: Run, user: str, text: str) -> None:
        refs, ctx = run.refs, run.context
        if not refs.get(f"dmclosed:{user}", False):
            try:
                await (await self._dm(user)).send(cut(text, 2000))
                return
            except discord.Forbidden:
                refs.set(f"dmclosed:{user}", True)
            except discord.HTTPException as error:
                log.info("note to %s failed: %s", user, error)
                return
        if ctx is not None and ctx.alive and ctx.user == user:
            await self._followup(ctx, text)

    async def _extra(self, run: Run, user: str, screen: Screen) -> None:
        """A one-off private message with its picture (a review): by DM, or with DMs closed
        as an ephemeral answer to the member's own command or press."""
        refs, ctx = run.refs, run.context
        if not refs.get(f"dmclosed:{user}", False):
            try:
                await self._send(await self._dm(user), screen, REVIEW_FILE)
                return
            except discord.Forbidden:
                refs.set(f"dmclosed:{user}", True)
            except discord.HTTPException as error:
                log.info("private message to %s failed: %s", user, error)
                return
        if ctx is not None and ctx.alive and ctx.user == user:
            sent = await self._followup(ctx, render(screen.text),
                                        files=await _files(screen, REVIEW_FILE))
            # the answer itself is the review: not "it is in your private chat" after it
            ctx.showed_private = ctx.showed_private or sent is not None

    async def _dm(self, user: str) -> discord.PartialMessageable:
        channel_id = self._dm_ids.get(user)
        if channel_id is None:
            data = await self.client.http.start_private_message(int(user))
            channel_id = self._dm_ids[user] = int(data["id"])
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _send(self, channel: discord.PartialMessageable, screen: Screen,
                    filename: str) -> discord.Message:
        kwargs: dict[str, Any] = {"content": render(screen.text)}
        view = build_view(screen)
        if view is not None:
            kwargs["view"] = view
        files = await _files(screen, filename)
        if files:
            kwargs["files"] = files
        return await channel.send(**kwargs)


FILES = {TABLE: "table.png", NOTE: "scores.png", PRIVATE: "hand.png"}
PICTURE = "stats.png"  # a command's picture (/stats, /leaderboard)
REVIEW_FILE = "review.png"


class _DiscordSender(Sender):
    """discord.py calls for the shared delivery: a screen is a message with content, an
    attached picture and components; a member's private chat is their DM.

    Budgets: Discord allows about 5 message requests per 5 s in one channel (discord.py
    waits out a bucket it knows is empty, retries a 429); the lane waits *before* choosing
    what to send so no stale screen queues inside discord.py. A table message older than 50
    minutes is posted anew rather than edited (edits of messages older than an hour are
    limited: error 30046)."""

    edit_age = 50 * 60.0

    def __init__(self, adapter: DiscordAdapter) -> None:
        self.adapter = adapter
        self._budgets: LimitedDict = LimitedDict(5000)  # chat id -> its Bucket

    def _budget(self, chat: Chat) -> Bucket:
        budget = self._budgets.get(chat.id)
        if budget is None:
            budget = self._budgets[chat.id] = Bucket(4, 1 / 1.2)
        return budget

    def delay(self, chat: Chat, urgent: bool) -> float:
        now = self.adapter.clock.monotonic()
        return self._budget(chat).delay(now, 0 if urgent or not chat.private else 1)

    async def address(self, run: Run, chat: Chat) -> discord.PartialMessageable:
        if chat.private:
            return await self.adapter._dm(chat.id)
        return self.adapter.client.get_partial_messageable(int(chat.id))

    async def send(self, to: discord.PartialMessageable, screen: Screen, role: str) -> int:
        try:
            return (await self.adapter._send(to, screen, FILES[role])).id
        except discord.Forbidden as error:
            raise Unreachable(str(error)) from error

    async def edit(self, to: discord.PartialMessageable, message_id: int, screen: Screen,
                   role: str, *, picture: bool) -> None:
        kwargs: dict[str, Any] = {"content": render(screen.text), "view": build_view(screen)}
        if picture:
            kwargs["attachments"] = await _files(screen, FILES[role])
        try:
            await to.get_partial_message(message_id).edit(**kwargs)
        except discord.NotFound as error:
            raise Gone(str(error)) from error
        except discord.Forbidden as error:
            raise Unreachable(str(error)) from error
        except discord.HTTPException as error:
            if error.code == OLD_EDITS:  # too old to edit now: post it anew
                raise Gone(str(error)) from error
            raise

    async def delete(self, to: discord.PartialMessageable, message_id: int) -> None:
        with contextlib.suppress(discord.HTTPException):
            await to.get_partial_message(message_id).delete()

    async def send_text(self, to: discord.PartialMessageable, text: str) -> None:
        await to.send(render(text))

    async def before(self, run: Run) -> None:
        await self.adapter._advise_closed(run)

    async def run_step(self, run: Run, chat: Chat, step: Step) -> None:
        self._budget(chat).spend(self.adapter.clock.monotonic())  # about one request
        if not chat.private:
            try:
                await super().run_step(run, chat, step)
            except Unreachable:
                _no_permission(int(chat.id), run.context)
            return
        if step.role == PRIVATE:
            try:
                await self.adapter._show_private(run, step)
            except discord.HTTPException:  # one member's trouble must not stop the rest
                log.exception("private view for %s failed", chat.id)
        elif step.role == NOTE and step.screen is not None:  # a one-off picture (/review)
            await self.adapter._extra(run, chat.id, step.screen)
        else:
            await self.adapter._note(run, chat.id, render(step.text))


def _no_permission(channel_id: int, ctx: _Ctx | None) -> None:
    log.warning("no permission to post in channel %s", channel_id)
    problem = ("I can't post in this channel: I need Send Messages, Attach Files and Embed "
               "Links here.")
    if ctx is not None and problem not in ctx.problems:
        ctx.problems.append(problem)


async def _delete(handle: _Handle) -> None:
    with contextlib.suppress(discord.HTTPException):
        if handle.webhook is not None:
            await handle.webhook.delete_message(handle.message_id)
        elif handle.interaction is None:
            pass
        elif handle.original:
            await handle.interaction.delete_original_response()
        else:
            await handle.interaction.followup.delete_message(handle.message_id)


async def _files(screen: Screen, filename: str) -> list[discord.File]:
    # Rendering takes ~50–100 ms of CPU: keep it off the event loop (heartbeats, other clicks).
    png = await asyncio.to_thread(lambda: screen.image)
    return [discord.File(io.BytesIO(png), filename=filename)] if png else []


async def run_discord(service: GameService, token: str, *, guild_id: int | None = None,
                      api_base: str | None = None, gateway_url: str | None = None) -> None:
    """Serve Discord until cancelled (`rummy run` starts this when DISCORD_TOKEN is set)."""
    adapter = DiscordAdapter(service, token, guild_id=guild_id, api_base=api_base,
                             gateway_url=gateway_url)
    await adapter.start()
    try:
        await adapter.wait_closed()
    finally:
        await adapter.stop()
