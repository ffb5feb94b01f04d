"""discord.py components for core screens: persistent `DynamicItem` buttons and select menus.

Every custom_id carries `rt:<game>:<version>:<action>`, so a click is understood without any
state in this process: the classes are registered in `setup_hook`, and buttons sent before a
restart keep working. The callbacks hand over to the adapter (`interaction.client.adapter`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core.views import Screen

from .discord_layout import (
    BUTTON_TEMPLATE,
    CARDS_PAGED,
    PICK,
    SELECT_TEMPLATE,
    ButtonSpec,
    SelectSpec,
    Spec,
    layout,
)

if TYPE_CHECKING:
    from collections.abc import Sequence


class Handler(Protocol):
    async def on_press(self, interaction: discord.Interaction, data: str) -> None: ...

    async def on_cards(self, interaction: discord.Interaction, game_id: int, version: int,
                       values: Sequence[str], shown: Sequence[str], *, paged: bool) -> None: ...


def _handler(interaction: discord.Interaction) -> Handler:
    return interaction.client.adapter  # type: ignore[attr-defined]


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_TEMPLATE):
    def __init__(self, button: discord.ui.Button) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GameButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.template.fullmatch(self.custom_id)
        if match is None:
            return
        data = f"{match['game']}:{match['version']}:{match['action']}"
        await _handler(interaction).on_press(interaction, data)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_TEMPLATE):
    """The hand's multi-select (`@cards`, `@cardsp`) or a menu of actions (`@pick<n>`)."""

    def __init__(self, select: discord.ui.Select) -> None:
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GameSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        match = self.template.fullmatch(self.custom_id)
        if match is None:
            return
        game, version, kind = int(match["game"]), int(match["version"]), match["kind"]
        values = list(self.item.values)
        if kind.startswith(PICK):
            if values:
                await _handler(interaction).on_press(interaction, f"{game}:{version}:{values[0]}")
            return
        # What the menu showed as selected: the adapter turns the change into a selection.
        shown = [o.value for o in self.item.options if o.default]
        await _handler(interaction).on_cards(interaction, game, version, values, shown,
                                             paged=kind == CARDS_PAGED)


def _item(spec: Spec, row: int) -> discord.ui.Item[Any]:
    if isinstance(spec, ButtonSpec):
        button: discord.ui.Button = discord.ui.Button(
            label=spec.label, custom_id=spec.custom_id, style=discord.ButtonStyle(spec.style),
            disabled=spec.disabled, row=row)
        return GameButton(button)
    assert isinstance(spec, SelectSpec)
    select: discord.ui.Select = discord.ui.Select(
        custom_id=spec.custom_id, placeholder=spec.placeholder, min_values=spec.min_values,
        max_values=spec.max_values, row=row,
        options=[discord.SelectOption(label=o.label, value=o.value, default=o.default)
                 for o in spec.options])
    return GameSelect(select)


def build_view(screen: Screen) -> discord.ui.View | None:
    """The screen's components, or None for a message without any."""
    rows = layout(screen)
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for spec in row:
            view.add_item(_item(spec, number))
    return view
