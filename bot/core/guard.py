"""One guard for a person's request that changes a game — a button press, a menu's selection,
a web page's edit: the request's language set once, the game found running and the person
seated (a place they may play it from), and every way it can end mapped to one answer: a
`Refusal` its own sentence (with the fresh screen it may carry), anything else "sorry" (the
game is as it was saved; the error is logged, never shown).

The language is passed in from the door (the person's; a seated person's becomes their seat's
once the record is read) and the rest of the request reads it from the context.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot import i18n

from . import narrate
from .hosting import Refusal
from .record import Record
from .unit import answer
from .views import Outcome

log = logging.getLogger(__name__)


async def guarded(lang: str, what: str, work: Callable[[], Awaitable[Outcome]]) -> Outcome:
    """Run `work` for a person answered in `lang`: its outcome, its refusal's answer, or
    "sorry" for anything else (`what` names the request in the log)."""
    i18n.set_locale(lang)
    try:
        return await work()
    except Refusal as refusal:
        return answer(refusal)
    except Exception:  # never a traceback in chat; the game is as it was saved
        log.exception("%s failed", what)
        return Outcome(reply=narrate.SORRY, alert=True)


def speak_as_seat(record: Record, seat: int | None, lang: str) -> None:
    """A seated person reads the language of their seat (none chosen: `lang`, their own)."""
    if seat is not None:
        i18n.set_locale(record.lang_of(seat) or lang)


def seated(row: Any, record: Record, user: str, lang: str,
           may: Callable[[int], bool]) -> int:
    """The seat `user` plays this running game from, its language set; a Refusal when the
    game is not running or `user` is no player here (`may`: the seat may act from where the
    request came)."""
    seat = record.seat_of(user)
    speak_as_seat(record, seat, lang)
    if record.state is None or row.status != "playing":
        raise Refusal(narrate.NOT_RUNNING_GAME)
    if seat is None or not may(seat):
        raise Refusal(narrate.PLAYERS_ONLY)
    return seat
