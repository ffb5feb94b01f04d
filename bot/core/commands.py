"""Typed and slash commands: /help, /rules, /newgame, /join, /leave, /endgame, /table,
/leaderboard, /stats, /language, /notify, and a game's typed moves (handed to the game)."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot import i18n
from bot.i18n import fill, using

from . import guard, narrate
from .actor import Actor
from .buttons import Press
from .hosting import HostedGame, Refusal
from .record import Record
from .scheduler import close
from .stat_pictures import board_screen, stats_screen
from .views import Outcome

MAX_VERB = 32
MAX_TYPED = 300  # characters of a typed move's arguments (Telegram allows 4,096)


@dataclass(frozen=True)
class Command:
    """A typed command or move, decoded once at the adapter's door (`of`, `read`): its verb
    lower-case without the slash or a Telegram `@bot` ("" if there was none; `TOO_LONG_VERB`
    past MAX_VERB) and its arguments, stripped and bounded (`length`: as many characters as
    were typed — past MAX_TYPED the core refuses it and nothing reads them)."""

    verb: str
    args: str = ""
    length: int = 0

    @classmethod
    def of(cls, verb: str, args: str = "") -> Command:
        verb = verb[: MAX_VERB + 64].strip().lower().lstrip("/").split("@")[0]
        if len(verb) > MAX_VERB:
            verb = TOO_LONG_VERB
        return cls(verb, args[: MAX_TYPED + 1].strip(), len(args))

    @classmethod
    def read(cls, line: str) -> Command:
        """A typed line: `/lay 7H 8H 9H`, `done`."""
        verb, _sep, rest = line[: MAX_VERB + MAX_TYPED + 128].strip().partition(" ")
        length = len(line.strip()) - len(verb) - 1 if rest else 0
        command = cls.of(verb, rest)
        return cls(command.verb, command.args, max(length, command.length))


TOO_LONG_VERB = "\u2026"  # never a verb: answered "Unknown command"


class CommandHost(Protocol):
    """What the commands ask of the game service (bot/core/service.py's GameService, which
    runs them: the commands depend on this, never on the service module)."""

    store: Any
    unit: Any
    scheduler: Any
    lobby: Any
    reviews: Any  # bot/core/reviews.py
    seasons: Any  # bot/core/seasons.py
    notify: Any  # bot/core/notify.py
    games: Mapping[str, HostedGame]
    default_game: HostedGame

    @property
    def typed_verbs(self) -> frozenset[str]: ...
    def game_named(self, words: str | None) -> tuple[HostedGame, str | None]: ...
    def welcome(self, actor: Actor) -> str: ...
    def lesson(self, actor: Actor, words: str | None = None) -> Awaitable[Outcome]: ...
    def new_game(self, actor: Actor, variant: str | None = None) -> Awaitable[Outcome]: ...
    def press(self, actor: Actor, data: str, *, metered: bool = True) -> Awaitable[Outcome]: ...
    def speak_to(self, actor: Actor) -> Awaitable[str]: ...
    def from_here(self, row: Any, actor: Actor, seat: int | None) -> bool: ...


class Commands:
    def __init__(self, service: CommandHost) -> None:
        self.service = service
        self.unit = service.unit

    async def run(self, actor: Actor, verb: str, args: str) -> Outcome:
        svc = self.service
        game = svc.default_game
        if verb not in svc.typed_verbs:  # a move answers in the seat's language (the record's)
            await svc.speak_to(actor)
        if verb in ("language", "lang"):
            return await self.language(actor, args)
        if verb == "help" and args:  # /help build-to-ten: that game's help
            return Outcome(reply=svc.game_named(args)[0].help_text(), alert=False)
        if verb == "start" and actor.private and not args:  # a newcomer's first message
            return Outcome(reply=svc.welcome(actor), alert=False)
        if verb == "lesson":
            return await svc.lesson(actor, args or None)
        if verb == "start" and args.startswith("lesson"):  # deep link ?start=lesson-tahiti
            return await svc.lesson(actor, args.partition("-")[2] or None)
        if verb in ("help", "start") and not (verb == "start" and args):
            return Outcome(reply=game.help_text() + self.other_games(), alert=False)
        if verb == "start":  # deep link: /start join-<game>
            return Outcome(reply=narrate.WELCOME + game.help_text(), alert=False)
        if verb == "rules":
            game, variant = svc.game_named(args)  # refuses words naming no game of ours
            return Outcome(reply=game.rules_text(variant), alert=False)
        if verb in ("newgame", "new"):
            return await svc.new_game(actor, args or None)
        if verb == "notify":  # a private call when a game opens in this chat (on/off)
            return await svc.notify.command(actor)
        if verb == "leaderboard":
            return await self.board(actor, args or None)
        if verb == "stats":
            return await self.player_stats(actor, args or None)
        if verb == "season":
            return await self.service.seasons.command(actor, args)
        if verb == "puzzle":
            return await self.service.puzzles.command(actor, args)
        if verb in ("join", "leave", "endgame", "end"):
            # In a private chat these mean the chat's own game (a finished lesson's [Play a
            # real game] opens one there): whoever can start a game there can end or leave it.
            row = await svc.store.active_game(actor.platform, actor.chat_id)
            if row is not None and row.record.get("lesson"):
                raise Refusal(narrate.LESSON_QUIT)
            if row is None:
                raise Refusal(
                    narrate.JOIN_THERE if actor.private and verb == "join" else narrate.NO_GAME
                )
            if verb == "join":
                return (
                    await svc.press(actor, Press(row.id, 0, "join"))
                    if row.status == "lobby"
                    else Outcome(reply=narrate.STARTED_JOIN_NEXT, alert=True)
                )
            if verb == "leave":
                return await self.leave(row.id, actor)
            return await self.end(row.id, actor)
        if verb == "table":
            return await self.table(actor)
        if verb == "review":  # issue 32: the asker's own turns, privately
            return await svc.reviews.command(actor, args)
        if verb in ("hand", "cards"):
            row = await self.game_for(actor)
            return await svc.press(actor, Press(row.id, 0, "cards"))
        if verb in svc.typed_verbs:  # a move of some hosted game: the game of the row reads it
            row = await self.lesson_here(actor) or await self.game_for(actor)
            return await self.unit.mutate(
                row.id, lambda r, rec: self.typed(rec, r, actor, verb, args)
            )
        raise Refusal(fill(narrate.UNKNOWN_VERB, verb=verb), alert=False)

    def other_games(self) -> str:
        """/help's last line: the other games this bot hosts, and how to open one."""
        others = list(self.service.games.values())[1:]
        if not others:
            return ""
        # each game by its first variant's title in the reader's language (/newgame takes it)
        names = " · ".join(i18n.isolate(f"/newgame {g.variants()[0].title}") for g in others)
        return "\n" + narrate.OTHER_GAMES.format(games=names)

    def typed(self, record: Record, row: Any, actor: Actor, verb: str, args: str) -> Outcome:
        seat = record.seat_of(actor.user)
        guard.speak_as_seat(record, seat, actor.lang)
        if record.state is None:
            raise Refusal(narrate.NOT_STARTED)
        seat = record.seat_of(actor.user)
        if seat is None:
            raise Refusal(narrate.NOT_PLAYING)
        game = self.unit.game_of(record)
        if verb not in game.typed_verbs:
            raise Refusal(narrate.UNKNOWN_VERB.format(verb=verb), alert=False)
        return game.typed(self.unit.table(row, record), seat, actor.user, verb, args)

    async def table(self, actor: Actor) -> Outcome:
        """/table: the game's table (or lobby) posted again as the newest message, with its
        buttons — and the asker's own screen — so no lost message can strand a game."""
        row = await self.game_for(actor, running=False)
        svc = self.service

        def change(row: Any, record: Record) -> Outcome:
            seat = record.seat_of(actor.user)
            if not svc.from_here(row, actor, seat):
                raise Refusal(narrate.ANOTHER_CHAT)
            if record.state is None:
                return Outcome(group=svc.lobby.screen(row.id, record), group_new=True)
            game, table = self.unit.game_of(record), self.unit.table(row, record)
            out = Outcome(group=game.table_screen(table), group_new=True)
            out.log = record.log[-5:]  # for context: how the game got here
            if seat is not None:
                out.private[actor.user] = game.private_screen(table, seat)
                out.private_new.add(actor.user)
            return out

        return await self.unit.mutate(row.id, change)

    async def lesson_here(self, actor: Actor) -> Any:
        """The lesson running in this private chat, if any: its typed moves are its own."""
        if not actor.private:
            return None
        row = await self.service.store.active_game(actor.platform, actor.chat_id)
        return row if row is not None and row.record.get("lesson") else None

    async def game_for(self, actor: Actor, *, running: bool = True) -> Any:
        """The game a player means: this chat's, or (in private) the one where it's their turn."""
        store = self.service.store
        if not actor.private:
            row = await store.active_game(actor.platform, actor.chat_id)
            if row is None:
                raise Refusal(narrate.NO_GAME)
            return row
        player_id = await store.player(actor.platform, actor.user, actor.name)
        rows = [
            r for r in await store.games_for_player(player_id)
            if r.status == "playing" or (not running and r.status == "lobby")
        ]
        if not rows:
            raise Refusal(narrate.NOT_RUNNING)
        for r in rows:
            rec = Record.from_dict(r.record)
            seat = rec.seat_of(actor.user)
            if seat is not None and seat == self.unit.to_move(rec, r.status):
                return r
        return rows[-1]

    async def leave(self, game_id: int, actor: Actor) -> Outcome:
        svc = self.service

        def change(row: Any, record: Record) -> Outcome:
            seat = record.seat_of(actor.user)
            if seat is None:
                raise Refusal(narrate.NOT_SEATED_GAME)
            if record.state is None:
                return svc.lobby.press(
                    row, record, actor.user, actor.name,
                    Press(row.id, record.lobby_version, "leave"),
                )
            game = self.unit.game_of(record)
            info = record.seats[seat]
            info.computer, info.was_human = game.default_level, True
            narrate.log_said(record, lambda: fill(narrate.LEFT_FOR_COMPUTER, name=info.name))
            out = game.screens(self.unit.table(row, record))
            out.reply, out.alert = narrate.YOU_LEFT, False
            if not record.humans():
                out.group = close(self.unit, row, record, "NOBODY_LEFT")
            out.private_notes[actor.user] = narrate.YOU_LEFT_NOTE
            return out

        return await self.unit.mutate(game_id, change)

    async def end(self, game_id: int, actor: Actor) -> Outcome:
        def change(row: Any, record: Record) -> Outcome:
            if actor.user != record.host:
                raise Refusal(narrate.HOST_ENDS_ONLY)
            narrate.log_said(record, lambda: narrate.HOST_ENDED_LOG)
            out = Outcome(reply=narrate.GAME_ENDED, alert=False)
            why = "HOST_ENDED" if record.state else "HOST_CLOSED"
            out.group = close(self.unit, row, record, why)
            return out

        out = await self.unit.mutate(game_id, change, status="ended")
        self.service.scheduler.forget(game_id)
        return out

    async def language(self, actor: Actor, args: str) -> Outcome:
        """/language [en|he|ru]: a person's language in private (stored with the player, and
        their seats' screens follow), the group's in a group (the game's table follows)."""
        store = self.service.store
        lang = i18n.supported(args.split()[0]) if args.strip() else None
        if lang is None:
            current = i18n.language_name(i18n.current())
            if not actor.private:
                chosen = await store.chat_language(actor.platform, actor.chat_id)
                row = await store.active_game(actor.platform, actor.chat_id)
                group = chosen or (row.record.get("lang") if row else None) or i18n.current()
                current = i18n.language_name(group)
            return Outcome(reply=fill(narrate.LANGUAGE_NOW, name=current), alert=False)
        if actor.private:
            await store.set_language(actor.platform, actor.user, actor.name, lang)
            i18n.set_locale(lang)
            out = Outcome()
            player_id = await store.player(actor.platform, actor.user, actor.name)
            for row in await store.games_for_player(player_id):
                if row.status in ("lobby", "playing"):
                    changed = await self.unit.mutate(
                        row.id, lambda r, rec: self._seat_language(r, rec, actor.user, lang)
                    )
                    # One outcome goes out (a person is rarely in two games at once: the
                    # other's screens follow at its next change).
                    if changed.private and not out.private:
                        out = changed
            out.reply, out.alert = narrate.LANGUAGE_SET, False
            return out
        row = await store.active_game(actor.platform, actor.chat_id)
        if row is not None and row.record.get("host") not in ("", actor.user):
            raise Refusal(narrate.LANGUAGE_HOST)  # mid-game, the host decides
        await store.set_chat_language(actor.platform, actor.chat_id, lang)
        with using(lang):
            reply = narrate.LANGUAGE_GROUP
        if row is None:
            return Outcome(reply=reply, alert=False)
        out = await self.unit.mutate(row.id, lambda r, rec: self._group_language(r, rec, lang))
        out.reply, out.alert = reply, False
        return out

    def _seat_language(self, row: Any, record: Record, user: str, lang: str) -> Outcome:
        seat = record.seat_of(user)
        if seat is None:
            return Outcome()
        record.seats[seat].lang = lang
        if record.state is None:
            return Outcome()
        game = self.unit.game_of(record)
        return Outcome(private={user: game.private_screen(self.unit.table(row, record), seat)})

    def _group_language(self, row: Any, record: Record, lang: str) -> Outcome:
        record.lang = lang
        if record.state is None:  # posted anew: the newest message, in the new language
            return Outcome(group=self.service.lobby.screen(row.id, record), group_new=True)
        game = self.unit.game_of(record)
        return Outcome(group=game.table_screen(self.unit.table(row, record)), group_new=True)

    def _title(self, variant: str) -> str:
        """A variant's title in the reader's language (an unknown one as it was saved)."""
        try:
            game, words = self.service.game_named(variant)  # a rummy rulebook, buildten …
            return game.settings(words, {}).title
        except (Refusal, ValueError):
            return variant.title()

    async def leaderboard(self, actor: Actor, variant: str | None) -> str:
        return (await self.board(actor, variant)).reply or ""

    async def board(self, actor: Actor, variant: str | None) -> Outcome:
        """The leaderboard as a picture with medals, its text the caption (screen readers)."""
        if variant:
            try:
                game, words = self.service.game_named(variant)
            except Refusal as refusal:
                return Outcome(reply=refusal.text, alert=False)
            variant = game.settings(words, {}).variant
        chat = None if actor.private else actor.chat_id
        rows = await self.service.store.leaderboard(actor.platform, chat, variant)
        title = fill(narrate.BOARD_TITLE,
            scope=narrate.BOARD_OVERALL if chat is None else narrate.BOARD_CHAT,
            variant=self._title(variant) if variant else narrate.BOARD_ALL,
        )
        if not rows:
            return Outcome(reply=title + "\n" + narrate.BOARD_EMPTY, alert=False)
        lines = [title]
        for i, r in enumerate(rows, 1):
            lines.append(
                narrate.board_line(
                    rank=i, name=r.name, rating=r.rating, games=r.games, wins=r.wins,
                    rate=r.win_rate, points=r.avg_points,
                )
            )
        example = self.service.default_game.example_variant  # the platform names no variant
        lines.append(narrate.BOARD_MORE.format(variant=example))
        text = "\n".join(lines)
        return Outcome(reply=text, alert=False,
                       picture=board_screen(rows, title, text, narrate.BOARD_EMPTY))

    async def stats(self, actor: Actor, variant: str | None) -> str:
        return (await self.player_stats(actor, variant)).reply or ""

    async def player_stats(self, actor: Actor, variant: str | None) -> Outcome:
        """A player's numbers as a picture — rating over time, a row per game — its text the
        caption."""
        stats = await self.service.store.stats(actor.platform, actor.user, variant)
        if stats is None:
            return Outcome(reply=narrate.STATS_NONE, alert=False)
        lines = [
            narrate.stats_line(
                name=stats.name, rating=stats.rating, games=stats.games, wins=stats.wins,
                rate=stats.win_rate, points=stats.avg_points,
            )
        ]
        for when, rb, points, won in stats.history:
            lines.append(
                fill(narrate.STATS_GAME, when=when, variant=self._title(rb), points=points,
                                          won=" 🏆" if won else "")
            )
        text = "\n".join(lines)
        if not stats.games:
            return Outcome(reply=text, alert=False)
        return Outcome(reply=text, alert=False, picture=stats_screen(stats, text, self._title))
