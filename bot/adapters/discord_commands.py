"""The slash commands: `/rummy new|join|leave|hand|hint|rules|lesson|notify|end|help`,
`/leaderboard`, `/stats` — with descriptions and rulebook choices. Each hands over to the
adapter."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.core.actor import Actor
from bot.core.names import clean_name
from bot.i18n import N_, _, using


class SlashHost(Protocol):
    """What the slash commands hand over to (bot/adapters/discord.py's DiscordAdapter, which
    adds them: this module depends on that shape, never on the adapter module)."""

    service: Any

    def actor(self, interaction: discord.Interaction) -> Actor: ...
    async def slash(self, interaction: discord.Interaction, verb: str, args: str = "", *,
                    public: bool = False, about: Actor | None = None) -> None: ...
    async def lesson(self, interaction: discord.Interaction, rulebook: str = "") -> None: ...

# the platform's commands; each hosted game's own lines follow (HostedGame.discord_help)
HELP = N_("""🃏 **Rummy Table** — card games in this channel.
`/rummy new [rulebook]` open a game here · `/rummy join` / `/rummy leave` take or give up a seat
`/rummy hand` show my cards again · `/rummy hint` a whole move to make · `/rummy rules [rulebook]`
`/rummy end` the host ends the game · `/leaderboard [rulebook]` · `/stats [member]`
`/rummy lesson [rulebook]` learn to play, step by step, in your DMs
`/rummy notify` a DM with Join when a game opens in this channel (again: stop)
DMs closed? Press **Show my hand** / **My cards** and your cards show here, only to you.
`/rummy language` the language I speak (English, Hebrew, Russian)""")


def help_text(games: Iterable[Any]) -> str:
    """/rummy help in the current language: the platform's commands, then every game's."""
    return "\n".join([_(HELP), *(game.discord_help() for game in games)])


# Discord's locales we speak (it has no Hebrew: Hebrew readers choose with /rummy language)
DISCORD_LANGUAGES = {discord.Locale.russian: "ru"}
TRANSLATED = frozenset({
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
    app_commands.TranslationContextLocation.choice_name,
})


class CatalogTranslator(app_commands.Translator):
    """The slash commands' descriptions and choices from our catalogs (discord.py asks at
    sync time and sends them as description_localizations). Command names stay English: one
    spelling in help texts and docs."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        lang = DISCORD_LANGUAGES.get(locale)
        if lang is None or context.location not in TRANSLATED:
            return None
        with using(lang):
            text = _(string.message)
        return text if text != string.message else None


def add_commands(tree: app_commands.CommandTree, adapter: SlashHost) -> None:
    # every variant of every hosted game (the rummy rulebooks, build-to-ten …): Discord allows 25
    # (titles in English: the choices' names are localised by the translator from the catalogs)
    with using("en"):
        rulebooks = [
            app_commands.Choice(name=v.title, value=v.name)
            for game in adapter.service.games.values() for v in game.variants()
        ][:25]
        # the lesson service's lessons are the default game's (the variants that have one)
        lessons = [app_commands.Choice(name=v.title, value=v.name)
                   for v in adapter.service.default_game.variants() if v.lesson][:25]
    group = app_commands.Group(name="rummy", description=N_("Card games in this channel"))

    _game_commands(group, adapter, rulebooks)
    _chat_commands(group, adapter, lessons)
    tree.add_command(group)
    for command in _results_commands(adapter, rulebooks):
        tree.add_command(command)


def _game_commands(group: app_commands.Group, adapter: SlashHost,
                   rulebooks: list[app_commands.Choice[str]]) -> None:
    """/rummy new, join, leave, hand, table, web, review, hint, rules: a game in a channel."""
    @group.command(name="new", description=N_("Open a game in this channel"))
    @app_commands.describe(rulebook=N_("The game or rules to play (none: the first listed)"))
    @app_commands.choices(rulebook=rulebooks)
    async def new(interaction: discord.Interaction, rulebook: str | None = None) -> None:
        await adapter.slash(interaction, "newgame", rulebook or "")

    @group.command(name="join", description=N_("Take a seat in this channel's game"))
    async def join(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "join")

    @group.command(name="leave", description=N_("Leave the game (a computer takes your seat)"))
    async def leave(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "leave")

    @group.command(name="hand", description=N_("Show my cards again"))
    async def hand(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "hand")

    @group.command(name="table", description=N_("Show the table again, with its buttons"))
    async def table(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "table")

    @group.command(name="web", description=N_("The table on a web page: a link for you only"))
    async def web(interaction: discord.Interaction) -> None:
        await adapter.web_link(interaction)

    @group.command(name="review",
                   description=N_("My turns of the last round, reviewed: /review [round]"))
    @app_commands.describe(round=N_("Which round (the last one over if left out)"))
    async def review(interaction: discord.Interaction,
                     round: app_commands.Range[int, 1, 199] | None = None) -> None:
        await adapter.slash(interaction, "review", str(round) if round else "")

    @group.command(name="hint", description=N_("Show a whole move I can make"))
    async def hint(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "hint")

    @group.command(name="rules", description=N_("How to play"))
    @app_commands.describe(rulebook=N_("One rulebook's rules"))
    @app_commands.choices(rulebook=rulebooks)
    async def rules(interaction: discord.Interaction, rulebook: str | None = None) -> None:
        await adapter.slash(interaction, "rules", rulebook or "")


def _chat_commands(group: app_commands.Group, adapter: SlashHost,
                   lessons: list[app_commands.Choice[str]]) -> None:
    """/rummy lesson, notify, end, help, language."""
    @group.command(name="lesson", description=N_("Learn to play, step by step, in your DMs"))
    @app_commands.describe(rulebook=N_("The rules to learn (none: the first lesson)"))
    @app_commands.choices(rulebook=lessons)
    async def lesson(interaction: discord.Interaction, rulebook: str | None = None) -> None:
        await adapter.lesson(interaction, rulebook or "")

    @group.command(name="notify",
                   description=N_("A DM when a game opens in this channel (again: stop)"))
    async def notify(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "notify")

    @group.command(name="end", description=N_("End this channel's game (host only)"))
    async def end(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "endgame")

    @group.command(name="help", description=N_("The commands and how to play here"))
    async def help_(interaction: discord.Interaction) -> None:
        with using(adapter.actor(interaction).lang):
            text = help_text(adapter.service.games.values())
        await interaction.response.send_message(text, ephemeral=True)

    @group.command(name="language", description=N_("The language I speak to you (in a channel: "
                                                   "the channel's)"))
    @app_commands.describe(language=N_("English, Hebrew or Russian"))
    @app_commands.choices(language=[
        app_commands.Choice(name="English", value="en"),
        app_commands.Choice(name="עברית", value="he"),
        app_commands.Choice(name="Русский", value="ru"),
    ])
    async def language(interaction: discord.Interaction, language: str | None = None) -> None:
        await adapter.slash(interaction, "language", language or "")


def _results_commands(adapter: SlashHost, rulebooks: list[app_commands.Choice[str]]
                      ) -> list[app_commands.Command]:
    """/leaderboard, /stats and /season (top-level: anyone reads them in the channel)."""
    @app_commands.command(name="leaderboard", description=N_("Who wins here"))
    @app_commands.describe(rulebook=N_("Only games of this rulebook"))
    @app_commands.choices(rulebook=rulebooks)
    async def leaderboard(interaction: discord.Interaction,
                          rulebook: str | None = None) -> None:
        await adapter.slash(interaction, "leaderboard", rulebook or "", public=True)

    @app_commands.command(name="stats", description=N_("A member's results (yours by default)"))
    @app_commands.describe(member=N_("Whose results"), rulebook=N_("Only games of this rulebook"))
    @app_commands.choices(rulebook=rulebooks)
    async def stats(interaction: discord.Interaction, member: discord.User | None = None,
                    rulebook: str | None = None) -> None:
        about = None
        if member is not None:  # the core's stats are the actor's: that member's, looked up
            # for the asker (whose fair-use budget pays: nobody can use up someone else's)
            about = replace(adapter.actor(interaction), user=str(member.id),
                            name=clean_name(member.display_name))
        await adapter.slash(interaction, "stats", rulebook or "", public=True, about=about)

    @app_commands.command(name="season",
                          description=N_("This channel's season: standings, the last one, the "
                                         "hall of fame"))
    @app_commands.describe(show=N_("What to show (or, for admins, how long seasons last)"))
    @app_commands.choices(show=[
        app_commands.Choice(name=N_("standings now"), value="now"),
        app_commands.Choice(name=N_("the last season"), value="last"),
        app_commands.Choice(name=N_("hall of fame"), value="hall"),
        app_commands.Choice(name=N_("seasons of a week"), value="weeks"),
        app_commands.Choice(name=N_("seasons of a month"), value="months"),
    ])
    async def season(interaction: discord.Interaction, show: str | None = None) -> None:
        await adapter.slash(interaction, "season", "" if show in (None, "now") else show,
                            public=True)

    @app_commands.command(name="puzzle",
                          description=N_("The puzzle of the day from this channel's games"))
    @app_commands.describe(show=N_("What to show (or, for admins, turn it on or off)"))
    @app_commands.choices(show=[
        app_commands.Choice(name=N_("today's puzzle"), value="today"),
        app_commands.Choice(name=N_("the puzzle board"), value="board"),
        app_commands.Choice(name=N_("turn it on"), value="on"),
        app_commands.Choice(name=N_("turn it off"), value="off"),
    ])
    async def puzzle(interaction: discord.Interaction, show: str | None = None) -> None:
        await adapter.slash(interaction, "puzzle", "" if show in (None, "today") else show,
                            public=True)

    return [leaderboard, stats, season, puzzle]

