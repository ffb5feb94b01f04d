"""The lobby: a game opened in a chat, seats taken and given up, computers added, the variant
and its options chosen, the turn timer, Start. Game-neutral: what a game offers comes from
its declared variants and options (bot/core/hosting.py)."""

from __future__ import annotations

import hashlib
from typing import Any

from bot import i18n
from bot.i18n import fill, listing, using
from render.lobby import render_lobby
from render.views import LobbyView

from . import narrate
from .buttons import LOBBY, TIMER_CHOICES, Press
from .hosting import HostedGame, Refusal
from .record import Record, SeatInfo
from .unit import Unit
from .views import PRIMARY, ActionRow, Button, Choice, ChoiceGroup, Outcome, Part, Screen

LOBBY_ONLY_HOST = frozenset({"menu", "cpu", "rb", "opt", "timer", "start"})
# Pressed on an older lobby (its edit waits for the group's budget), these mean the same: join
# and leave are idempotent per person, a menu only opens, Start starts with whoever is seated.
# Adding a computer and cycling an option stay strict: a double tap must not do it twice.
LOBBY_ANY_VERSION = frozenset({"join", "leave", "menu", "start"})
MENUS = ("", "rulebook", "options", "computer")


MENU_OPTION_ROWS = 3  # options a menu shows a row of values each; more: one button each


def _after(values: tuple, value: Any) -> Any:
    """The value after `value` in `values`, round again to the first."""
    i = values.index(value) if value in values else -1
    return values[(i + 1) % len(values)]


def _option_prompt(choices: list[Choice], key: str) -> str:
    """An option's question, from its answers' words ("must lay: remind" → "Must lay…")."""
    name = choices[0].label.partition(":")[0].strip() if choices else ""
    return (name[:1].upper() + name[1:] or key) + "…"


def most_seats(game: HostedGame, record: Record) -> int:
    """The seats the lobby's variant takes: a game may say per variant (`seats_for`: Rummikub
    is for four of the rummy family's five)."""
    return game.seats_for(record.rulebook)


def seat_names(record: Record) -> list[str]:
    names = []
    for s in record.seats:
        # a Hebrew name before its mark in an English or Russian lobby: its own isolate, or
        # "שרה (host)" shows as ")host( שרה" (a Hebrew lobby lays each seat out as a list item)
        own = s.name if i18n.is_rtl() else i18n.isolate(s.name)
        name = f"🤖 {own} ({narrate.level(s.computer)})" if s.is_computer else own
        if s.user == record.host and not s.is_computer:
            name += narrate.HOST_MARK
        names.append(name)
    return names


def lobby_screen(game: HostedGame, game_id: int, record: Record, menu: str = "") -> Screen:
    """The lobby as the group reads it (in the group's language)."""
    with using(record.lang):
        return _lobby_screen(game, game_id, record, menu)


def _lobby_screen(game: HostedGame, game_id: int, record: Record, menu: str) -> Screen:
    settings = game.settings(record.rulebook, record.options)
    options = settings.describe()
    seats = seat_names(record)
    view = LobbyView(
        settings.title, options, tuple(seats), most_seats(game, record), narrate.picture_words(),
        **settings.picture,
    )
    timer = (
        fill(narrate.TIMER_MINUTES, minutes=record.turn_seconds // 60)
        if record.turn_seconds >= 60
        else fill(narrate.TIMER_SECONDS, seconds=record.turn_seconds)
    )
    text = "\n".join(
        [
            " · ".join([settings.title, *options, timer]),
            fill(narrate.SEATS, names=listing(seats) if seats else narrate.NO_SEATS),
            fill(narrate.LOBBY_HELP, low=game.min_seats, high=most_seats(game, record)),
        ]
    )
    back = ActionRow([Button(narrate.BACK, "menu:")])
    buttons: list[Part]
    if menu == "rulebook":
        choices = [Choice(v.title, f"rb:{v.name}", v.name == record.rulebook)
                   for v in game.variants()]
        buttons = [ChoiceGroup(narrate.RULEBOOK_PROMPT, choices,
                               2 if len(choices) > 2 else 1), back]  # titles uncut
    elif menu == "options":
        variant = next(v for v in game.variants() if v.name == settings.variant)
        if len(variant.options) > MENU_OPTION_ROWS:
            # Many options (Rummikub's six): a button each, showing its value, that moves it
            # on to the next — a row per option would pass Discord's five rows.
            cycle = [
                Button(
                    settings.label(key) + " ↻",
                    f"opt:{key}:{_after(values, settings.options[key])}",
                )
                for key, values in variant.options.items()
            ]
            buttons = [ActionRow(cycle, 1)]  # "name: value ↻" needs a phone's whole row
        else:
            buttons = []
            for key, values in variant.options.items():
                choices = [
                    Choice(game.settings(record.rulebook, {**settings.options, key: v}).choice(key),
                           f"opt:{key}:{v}", v == settings.options[key])
                    for v in values
                ]
                buttons.append(ChoiceGroup(_option_prompt(choices, key), choices, len(choices)))
        timers = [Choice(fill(narrate.TIMER_BUTTON, minutes=t // 60), f"timer:{t}",
                         record.turn_seconds == t) for t in TIMER_CHOICES]
        buttons += [ChoiceGroup(narrate.TIMER_PROMPT, timers, len(timers)), back]
    elif menu == "computer":
        levels = [Choice(f"🤖 {narrate.level(lv)}", f"cpu:{lv}") for lv in game.levels]
        buttons = [ChoiceGroup(narrate.LEVEL_PROMPT, levels, len(levels)), back]
    else:  # two a row: every label uncut on a phone (tests/test_button_widths.py)
        buttons = [ActionRow([
            Button(narrate.JOIN, "join", PRIMARY), Button(narrate.LEAVE, "leave"),
            Button(narrate.ADD_COMPUTER, "menu:computer"),
            Button(narrate.VARIANT_MENU, "menu:rulebook"),
            Button(narrate.OPTIONS_MENU, "menu:options"), Button(narrate.START, "start", PRIMARY),
        ], 2)]
    key = hashlib.blake2b(repr(("lobby", view)).encode(), digest_size=10).hexdigest()
    return Screen(
        text, buttons, key, lambda: render_lobby(view), game_id, record.lobby_version,
        lang=i18n.current(),
    )


class Lobby:
    def __init__(self, unit: Unit) -> None:
        self.unit = unit

    def screen(self, game_id: int, record: Record, menu: str = "") -> Screen:
        return lobby_screen(self.unit.game_of(record), game_id, record, menu)

    def press(
        self, row: Any, record: Record, user: str, name: str, press: Press,
        player_id: int | None = None,
    ) -> Outcome:
        verb = press.verb
        game = self.unit.game_of(record)
        if verb not in LOBBY:
            raise Refusal(narrate.NOT_FOR_LOBBY)
        if verb in LOBBY_ONLY_HOST and user != record.host:
            raise Refusal(narrate.HOST_ONLY)
        if verb not in LOBBY_ANY_VERSION and press.version != record.lobby_version:
            raise Refusal(  # a double tap on "+ Computer" must not add two
                narrate.LOBBY_STALE,
                alert=False,
                outcome=Outcome(group=self.screen(row.id, record)),
            )
        menu = ""
        reply = None
        most = most_seats(game, record)
        full = narrate.full(most)
        if verb == "join":
            if record.seat_of(user) is not None:
                raise Refusal(narrate.ALREADY_SEATED, alert=False)
            if len(record.seats) >= most:
                raise Refusal(full)
            record.seats.append(SeatInfo(name, user, player_id, lang=i18n.current()))
            reply = narrate.JOINED
        elif verb == "leave":
            seat = record.seat_of(user)
            if seat is None:
                raise Refusal(narrate.NOT_SEATED, alert=False)
            record.seats.pop(seat)
            if user == record.host:
                humans = record.humans()
                record.host = record.seats[humans[0]].user if humans else ""
            reply = narrate.LEFT_TABLE
        elif verb == "menu":
            menu = press.str()
            if menu not in MENUS:
                raise Refusal(narrate.NOT_FOR_LOBBY)
        elif verb == "cpu":
            level = press.str()
            if level not in game.levels:
                raise Refusal(narrate.UNKNOWN_LEVEL)
            if len(record.seats) >= most:
                raise Refusal(full)
            number = sum(1 for s in record.seats if s.is_computer) + 1
            with using(record.lang):  # a name everybody reads: the group's language
                name = narrate.computer_name(number)
            record.seats.append(SeatInfo(name, None, None, level))
        elif verb == "rb":
            try:
                settings = game.settings(press.str(), {})
            except ValueError as error:
                raise Refusal(str(error)) from None
            record.rulebook, record.options = settings.variant, dict(settings.options)
            reply = fill(narrate.VARIANT_SET, title=settings.title)
        elif verb == "opt":
            key, value = press.str(0), press.str(1)
            try:
                settings = game.settings(record.rulebook, {**record.options, key: value})
            except ValueError as error:
                raise Refusal(str(error)) from None
            record.options = dict(settings.options)
            menu = "options"
        elif verb == "timer":
            record.turn_seconds = press.int()
            menu = "options"
        else:  # start
            return self.start(row, record)
        record.lobby_version += 1
        return Outcome(reply=reply, alert=False, group=self.screen(row.id, record, menu))

    def start(self, row: Any, record: Record) -> Outcome:
        game = self.unit.game_of(record)
        if len(record.seats) < game.min_seats:
            raise Refusal(narrate.too_few(game.min_seats))
        if not record.humans():
            raise Refusal(narrate.NO_PERSON)
        return game.start(self.unit.table(row, record))
