"""↻ Rematch (issue 41 item 1): one platform action, from a chat's button under a finished
game's result or from the web table's result panel.

A press records the presser's "I'm in" in the finished game's record (`rematch_call`, so a
restart loses nothing); the new game — the same seats, game, rulebook, options and timer, in
the same chat — starts when every person of the old game is in, or when the old game's host
presses ▶ Start now with those who are (the others' seats are dropped; computers keep their
levels). The call lapses REMATCH_SECONDS after the first press: the finished game's row is due
then (games.due_at / its jobs row, on the service's clock) and the scheduler says so in the chat.
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.i18n import fill, listing, using

from . import narrate
from .actor import Actor
from .hosting import Refusal
from .persist import GameExists
from .record import Record, SeatInfo
from .views import PRIMARY, ActionRow, Button, Outcome, Screen

REMATCH_SECONDS = 300  # "a few minutes": the call lapses this long after its first press


def people(record: Record) -> list[str]:
    """The persons of a game, in seat order: a seat the computer took over is still theirs."""
    return [s.user for s in record.seats if s.user and (not s.is_computer or s.was_human)]


def pending(record: Record) -> dict[str, Any] | None:
    """The rematch call still open (neither started, starting nor lapsed), else None."""
    call = record.rematch_call
    if call is None or record.rematch is not None or call.get("lapsed") or call.get("starting"):
        return None
    return call


def due(record: Record) -> float | None:
    """When a finished game next needs the scheduler: its open call's lapse."""
    call = pending(record)
    return None if call is None else float(call["until"])


def result_buttons(record: Record) -> ActionRow:
    """The ↻ Rematch row under a finished game's result, in the group's language."""
    with using(record.lang):
        return ActionRow([Button(narrate.REMATCH, "rematch", PRIMARY)])


def offer(record: Record, outcome: Outcome) -> None:
    """A game just finished: its result (the note of phase "game_over") offers ↻ Rematch."""
    if record.lesson:
        return
    for note in reversed(outcome.notes):
        if note.phase == "game_over":
            note.parts.append(result_buttons(record))
            return


def call_screen(game_id: int, record: Record) -> Screen:
    """Who is in and who is awaited, with ↻ Rematch and ▶ Start now (the group's language)."""
    call = record.rematch_call or {}
    inside = set(call.get("in", []))
    names = {s.user: s.name for s in record.seats if s.user}
    with using(record.lang):
        lines = [fill(narrate.REMATCH_IN, names=listing([names[u] for u in people(record)
                                                         if u in inside]))]
        waiting = [names[u] for u in people(record) if u not in inside]
        if waiting:
            lines.append(fill(narrate.REMATCH_WAITING, names=listing(waiting)))
        lines.append(fill(narrate.REMATCH_HELP, minutes=REMATCH_SECONDS // 60))
        buttons = ActionRow([Button(narrate.REMATCH, "rematch", PRIMARY),
                             Button(narrate.REMATCH_START, "rmstart")], 2)
        return Screen("\n".join(lines), [buttons], game_id=game_id, lang=i18n.current())


def lapse(row: Any, record: Record, now: float) -> Outcome:
    """The scheduler's change when a finished game is due: its open call lapses, said once."""
    call = pending(record)
    if call is None or now < float(call["until"]):
        return Outcome()
    call["lapsed"] = True
    with using(record.lang):
        return Outcome(notes=[Screen(narrate.REMATCH_LAPSED, game_id=row.id)])


def new_seats(old: Record, confirmed: list[str]) -> list[SeatInfo]:
    """The old seats of those in, and every computer at its level (a person's seat taken over
    by the computer is the person's again)."""
    return [
        SeatInfo(s.name, s.user, s.player_id, None if s.was_human else s.computer, lang=s.lang)
        for s in old.seats
        if (s.user in confirmed) or (s.user is None and s.is_computer)
    ]


class Rematches:
    """↻ Rematch and ▶ Start now for the service (bot/core/service.py `rematch`)."""

    def __init__(self, service: Any) -> None:
        self.service = service

    async def press(self, actor: Actor, game_id: int, *, start: bool = False,
                    lang: str = "", everyone: bool = False) -> Outcome:
        """A person's ↻ Rematch (`start`: the host's ▶ Start now; `everyone`: with every seat,
        as the host of a party in one room does). Answered in `lang` (a web page's language)
        or the person's seat's."""
        svc = self.service
        row = await svc.store.get_game(game_id)
        if row is None:
            raise Refusal(narrate.GONE)
        old = Record.from_dict(row.record)
        if actor.user not in people(old) or row.platform != actor.platform:
            raise Refusal(narrate.PLAYERS_ONLY)
        if not (actor.chat_id == row.chat_id or actor.private):
            raise Refusal(narrate.OTHER_CHAT)
        i18n.set_locale(lang or old.lang_of_user(actor.user) or actor.lang)
        if old.rematch is not None:
            return Outcome(reply=narrate.REMATCH_STARTED, alert=False)
        if row.status != "finished" or old.lesson:
            raise Refusal(narrate.NOT_OVER_YET)
        game = svc.unit.game_of(old)
        now = svc.clock()
        go: list[list[str]] = []

        def confirm(_row: Any, record: Record) -> Outcome:
            if record.rematch is not None or (record.rematch_call or {}).get("starting"):
                return Outcome(reply=narrate.REMATCH_STARTED, alert=False)
            call = record.rematch_call
            if call is None:
                call = record.rematch_call = {"in": [], "until": now + REMATCH_SECONDS,
                                              "lapsed": False}
            if call.get("lapsed") or now >= float(call["until"]):
                raise Refusal(narrate.REMATCH_LAPSED)
            if start and actor.user != record.host:
                raise Refusal(narrate.HOST_ONLY)
            fresh = actor.user not in call["in"]
            inside = [*call["in"], actor.user] if fresh else list(call["in"])
            if start and everyone:
                inside = people(record)
            waiting = [u for u in people(record) if u not in inside]
            if start or not waiting:
                if len(new_seats(record, inside)) < game.min_seats:
                    raise Refusal(narrate.too_few(game.min_seats))
                call["in"], call["starting"] = inside, True
                go.append(inside)
                return Outcome()
            if not fresh:
                raise Refusal(narrate.REMATCH_ALREADY_IN, alert=False)
            call["in"] = inside
            return Outcome(reply=narrate.REMATCH_YOU_IN, alert=False,
                           notes=[call_screen(_row.id, record)])

        out = await svc.unit.mutate(game_id, confirm, status="finished")  # it stays finished
        if not go:
            return out
        await self._settle(out)
        return await self._start(row, game_id, go[0])

    async def _settle(self, out: Outcome) -> None:
        """A save of the old game that shows nothing: delivered (empty) so that, with many
        workers, no screen of it stays owed and is rebuilt later (bot/core/redelivery.py)."""
        if self.service.delivered is not None and out.game_id is not None:
            await self.service.deliver(out)

    async def _start(self, row: Any, game_id: int, confirmed: list[str]) -> Outcome:
        """The new game, started; the old one names it (every page of it follows, bot/web)."""
        svc = self.service
        old = Record.from_dict((await svc.store.get_game(game_id)).record)
        record = Record(
            rulebook=old.rulebook, options=dict(old.options),
            host=old.host if old.host in confirmed else confirmed[0],
            seats=new_seats(old, confirmed), turn_seconds=old.turn_seconds,
            seed=svc.fresh_seed(), game_name=old.game_name, lang=old.lang,
        )
        try:
            new = await svc.store.create_game(row.platform, row.chat_id, record.to_dict())
        except GameExists:  # a game opened here meanwhile: the call stays open for later
            def reopen(_row: Any, finished: Record) -> Outcome:
                if finished.rematch_call is not None:
                    finished.rematch_call.pop("starting", None)
                return Outcome()

            await svc.unit.mutate(game_id, reopen, status="finished")
            raise Refusal(narrate.GAME_HERE_SHORT) from None
        started = await svc.unit.mutate(new.id, lambda r, rec: svc.lobby.start(r, rec))

        def follow(_row: Any, finished: Record) -> Outcome:
            finished.rematch = new.id
            return Outcome()

        await self._settle(await svc.unit.mutate(game_id, follow, status="finished"))
        return started
