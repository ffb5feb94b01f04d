"""Games by their titles on Discord (issue 28, item 3), through the fake Discord server and
the real discord.py. Discord lets a member pick only a choice (the fake refuses anything else,
as Discord does): each choice shows its title in the member's locale (Russian: Discord has no
Hebrew), and `/rummy rules` and `/rummy new` answer every choice in the member's language."""

from __future__ import annotations

import pytest
from test_discord_e2e import GUILD, Harness
from test_discord_i18n_e2e import IVAN, harness  # noqa: F401 (the fixture: Ivan's locale is ru)

from bot.adapters.discord_layout import render
from bot.i18n import using

pytestmark = pytest.mark.e2e


async def test_choices_rules_and_new_by_every_title(harness: Harness) -> None:
    fake, service = harness.fake, harness.service
    (rummy,) = [c for c in fake.guild_commands(GUILD) if c["name"] == "rummy"]
    rules = next(o for o in rummy["options"] if o["name"] == "rules")
    (rulebook,) = rules["options"]
    russian = {c["value"]: c.get("name_localizations", {}).get("ru") for c in rulebook["choices"]}
    with using("ru"):
        assert russian == {v.name: v.title for g in service.games.values() for v in g.variants()}

    for variant in russian:
        answers = await harness.slash(IVAN, "rules", {"rulebook": variant})
        game, _words = service.game_named(variant)
        with using("ru"):  # Ivan's client speaks Russian
            expected = render(game.rules_text(variant))
        assert answers and answers[0] == expected, (variant, answers[:1])

    for variant in ("rummikub", "buildten", "tahiti"):
        await harness.slash(IVAN, "new", {"rulebook": variant})
        row = await harness.game()
        assert row is not None and row.record["rulebook"] == variant, variant
        await harness.slash(IVAN, "end")
