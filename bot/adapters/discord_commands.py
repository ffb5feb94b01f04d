"""The slash commands: `/rummy new|join|leave|hand|hint|rules|lesson|end|help`, `/leaderboard`,
`/stats` — with descriptions and rulebook choices. Each hands over to the adapter."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.core.names import clean_name

if TYPE_CHECKING:
    from .discord import DiscordAdapter

HELP = """🃏 **Rummy Table** — rearrangement rummy in this channel.
`/rummy new [rulebook]` open a game here · `/rummy join` / `/rummy leave` take or give up a seat
`/rummy hand` show my cards again · `/rummy hint` a card I can play · `/rummy rules [rulebook]`
`/rummy end` the host ends the game · `/leaderboard [rulebook]` · `/stats [member]`
`/rummy lesson [rulebook]` learn to play, step by step, in your DMs
Your cards come by DM: pick cards in the menu, then New group / Add to / Take from / Auto-place,
and Done. You can also type moves there: `lay 7H 8H 9H` · `add B 10H` · `move B:QS A` ·
`split B 4` · `take B QS` · `done` · `reset` · `draw` · `pass`.
DMs closed? Press **Show my hand** / **My cards** and your cards show here, only to you.
Also here: **Build-to-Ten** (`/rummy new` → Build-to-Ten, or its lesson): a card, then where it
goes; typed: `play 7h 2` · `discard 9c 1` · `joker shift 2` · `hint`."""


def add_commands(tree: app_commands.CommandTree, adapter: DiscordAdapter) -> None:
    # every variant of every hosted game (the rummy rulebooks, build-to-ten …): Discord allows 25
    rulebooks = [
        app_commands.Choice(name=v.title, value=v.name)
        for game in adapter.service.games.values() for v in game.variants()
    ][:25]
    # the lesson service's lessons are the default game's (the rummy rulebooks)
    lessons = [app_commands.Choice(name=v.title, value=v.name)
               for v in adapter.service.default_game.variants()][:25]
    rummy = app_commands.Group(name="rummy", description="Rearrangement rummy in this channel")

    @rummy.command(name="new", description="Open a game in this channel")
    @app_commands.describe(rulebook="The rules to play (default: Manipulation)")
    @app_commands.choices(rulebook=rulebooks)
    async def new(interaction: discord.Interaction, rulebook: str | None = None) -> None:
        await adapter.slash(interaction, "newgame", rulebook or "")

    @rummy.command(name="join", description="Take a seat in this channel's game")
    async def join(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "join")

    @rummy.command(name="leave", description="Leave the game (a computer takes your seat)")
    async def leave(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "leave")

    @rummy.command(name="hand", description="Show my cards again")
    async def hand(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "hand")

    @rummy.command(name="table", description="Show the table again, with its buttons")
    async def table(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "table")

    @rummy.command(name="hint", description="Show a card I can play")
    async def hint(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "hint")

    @rummy.command(name="rules", description="How to play")
    @app_commands.describe(rulebook="One rulebook's rules")
    @app_commands.choices(rulebook=rulebooks)
    async def rules(interaction: discord.Interaction, rulebook: str | None = None) -> None:
        await adapter.slash(interaction, "rules", rulebook or "")

    @rummy.command(name="lesson", description="Learn to play, step by step, in your DMs")
    @app_commands.describe(rulebook="The rules to learn (default: Manipulation)")
    @app_commands.choices(rulebook=lessons)
    async def lesson(interaction: discord.Interaction, rulebook: str | None = None) -> None:
        await adapter.lesson(interaction, rulebook or "")

    @rummy.command(name="end", description="End this channel's game (host only)")
    async def end(interaction: discord.Interaction) -> None:
        await adapter.slash(interaction, "endgame")

    @rummy.command(name="help", description="The commands and how to play here")
    async def help_(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(HELP, ephemeral=True)

    @app_commands.command(name="leaderboard", description="Who wins here")
    @app_commands.describe(rulebook="Only games of this rulebook")
    @app_commands.choices(rulebook=rulebooks)
    async def leaderboard(interaction: discord.Interaction,
                          rulebook: str | None = None) -> None:
        await adapter.slash(interaction, "leaderboard", rulebook or "", public=True)

    @app_commands.command(name="stats", description="A member's results (yours by default)")
    @app_commands.describe(member="Whose results", rulebook="Only games of this rulebook")
    @app_commands.choices(rulebook=rulebooks)
    async def stats(interaction: discord.Interaction, member: discord.User | None = None,
                    rulebook: str | None = None) -> None:
        about = None
        if member is not None:  # the core's stats are the actor's: that member's, looked up
            # for the asker (whose fair-use budget pays: nobody can use up someone else's)
            about = replace(adapter.actor(interaction), user=str(member.id),
                            name=clean_name(member.display_name))
        await adapter.slash(interaction, "stats", rulebook or "", public=True, about=about)

    tree.add_command(rummy)
    tree.add_command(leaderboard)
    tree.add_command(stats)

