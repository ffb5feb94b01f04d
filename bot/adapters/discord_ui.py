"""discord.py components for core screens: persistent `DynamicItem` buttons and select menus.

Every custom_id carries `rt:<game>:<version>:<action>`, so a
click is understood without any state in this process: the classes are registered in
`setup_hook`, and buttons sent before a restart keep working. The callbacks hand over to the
adapter (`interaction.client.adapter`).

custom_ids and a menu's values come from the client. discord.py runs an item's callback only
for a custom_id that fullmatches its template *and* is on the message clicked; `claims` tells
which interactions those are, and the adapter answers every other one politely. A callback
checks the rest (numbers in range, the values among the menu's own options, at most 25) and
answers anything else the same way — never an exception, never silence.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.core.buttons import MAX_GAME_ID, MAX_VERSION
from bot.core.views import Screen

from .discord_layout import (
    BUTTON_TEMPLATE,
    CARDS_PAGED,
    MAX_CUSTOM_ID,
    MAX_OPTIONS,
    PICK,
    SELECT_TEMPLATE,
    ButtonSpec,
    SelectSpec,
    Spec,
    layout,
)

_BUTTON = re.compile(BUTTON_TEMPLATE)
_SELECT = re.compile(SELECT_TEMPLATE)
BUTTON, STRING_SELECT = 2, 3  # component types

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence


class Handler(Protocol):
    async def on_press(self, interaction: discord.Interaction, data: str) -> None: ...

    async def on_cards(self, interaction: discord.Interaction, game_id: int, version: int,
                       values: Sequence[str], shown: Sequence[str], *, paged: bool) -> None: ...

    async def reject(self, interaction: discord.Interaction) -> None: ...


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
        if match is None:  # never expected: discord.py matched it to get here
            await _handler(interaction).reject(interaction)
            return
        # The core's parser checks the numbers' ranges and the action's grammar.
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
        handler = _handler(interaction)
        match = self.template.fullmatch(self.custom_id)
        values = _offered(self.item)
        if match is None or values is None:
            await handler.reject(interaction)
            return
        game, version, kind = int(match["game"]), int(match["version"]), match["kind"]
        if game > MAX_GAME_ID or version > MAX_VERSION:
            await handler.reject(interaction)
            return
        if kind.startswith(PICK):
            if len(values) != 1:  # a single-choice menu (min_values = max_values = 1)
                await handler.reject(interaction)
                return
            await handler.on_press(interaction, f"{game}:{version}:{values[0]}")
            return
        # What the menu showed as selected: the adapter turns the change into a selection.
        shown = [o.value for o in self.item.options if o.default]
        await handler.on_cards(interaction, game, version, values, shown,
                               paged=kind == CARDS_PAGED)


def _offered(select: discord.ui.Select) -> list[str] | None:
    """The picked values if each is one of the menu's own options (as the message holds them,
    not as the client says), at most 25, no repeats; else None."""
    picked = select.values
    if not isinstance(picked, list) or len(picked) > MAX_OPTIONS:
        return None
    options = {o.value for o in select.options}
    values: list[str] = []
    for value in picked:
        if not isinstance(value, str) or value not in options or value in values:
            return None
        values.append(value)
    return values


def claims(interaction: discord.Interaction) -> bool:
    """Will a GameButton or GameSelect callback run for this component interaction? Only for
    a custom_id of one of their templates, of its component type, on the message clicked
    (what discord.py requires before it calls a DynamicItem)."""
    data: Any = interaction.data or {}
    custom_id, kind = data.get("custom_id"), data.get("component_type")
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        return False
    if _BUTTON.fullmatch(custom_id):
        wanted = BUTTON
    elif _SELECT.fullmatch(custom_id):
        wanted = STRING_SELECT
    else:
        return False
    message = interaction.message
    if kind != wanted or message is None:
        return False
    return any(getattr(c, "custom_id", None) == custom_id and c.type.value == wanted
               for c in _walk(message.components))


def _walk(components: Sequence[Any]) -> Iterator[Any]:
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", None) or ())


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
