"""/review and the 🔎 Review button (issue 32, UX.md §10): a seat's own review of a finished
round, sent to that person only — their private chat (Telegram, Discord's DM or, with DMs
closed, an ephemeral answer), printed in a terminal.

The platform finds the game and the asker's seat and hands both to the game (`HostedGame.review`,
which reads the seat's own views only); it never names a card. A review reads the game row and
changes nothing, so it is not a save. Nobody reviews another's turns: a spectator, a stranger
or a seat the computer took over is told so. A game's record is kept whole for 90 days after
it ends, then pruned to a stub (bot/store: `prune`): its rounds can't be reviewed any more,
and the asker is told that.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.i18n import _, using

from . import narrate
from .actor import Actor
from .buttons import MAX_INDEX, Press, ascii_number
from .hosting import Refusal
from .record import Record
from .unit import WORK_TIMEOUT
from .views import Outcome, Screen, Where

CAPTION_LINES = 2  # the picture's caption: the review's title and summary (the text follows)


def round_asked(args: str) -> int | None:
    """/review [round]: no words, the last round over; else a plain round number."""
    words = args.split()
    if not words:
        return None
    n = ascii_number(words[0], MAX_INDEX) if len(words) == 1 else None
    if not n:
        raise Refusal(_("Use /review for the last round, or /review 2 for round 2."),
                      alert=False)
    return n


class Reviews:
    def __init__(self, service: Any) -> None:
        self.service = service

    async def command(self, actor: Actor, args: str) -> Outcome:
        """/review [round]: the asker's game here (this chat's, or in private the one they
        sit in), running or the last one finished."""
        round = round_asked(args)
        return await self.answer(await self._game_for(actor), actor, round)

    async def press(self, actor: Actor, press: Press) -> Outcome:
        """🔎 Review under a round's scores: that round of that game, for whoever pressed."""
        row = await self.service.store.get_game(press.game_id)
        return await self.answer(row, actor, press.int() or None)

    async def _game_for(self, actor: Actor) -> Any:
        store = self.service.store
        if actor.private:
            player_id = await store.player(actor.platform, actor.user, actor.name)
            seated = [r for r in await store.games_for_player(player_id)
                      if r.status == "playing" and not r.record.get("lesson")]
            if seated:
                return seated[-1]
        row = await store.active_game(actor.platform, actor.chat_id)
        if row is None or row.status != "playing" or row.record.get("lesson"):
            row = await store.last_game(actor.platform, actor.chat_id)
        if row is None:
            raise Refusal(_("There is no game to review in this chat."), alert=False)
        return row

    async def answer(self, row: Any, actor: Actor, round: int | None) -> Outcome:
        if row is None:
            raise Refusal(narrate.GONE)
        if row.record.get("pruned"):
            raise Refusal(_("That game ended long ago: only its scores are kept now, not its "
                            "turns, so it can't be reviewed."))
        record = Record.from_dict(row.record)
        if record.lesson:
            raise Refusal(narrate.NOT_OURS)
        seat = record.seat_of(actor.user)
        if seat is None:
            raise Refusal(_("Only the players of this game can review it, each their own "
                            "turns."))
        if not self.service.from_here(row, actor, seat):
            raise Refusal(narrate.ANOTHER_CHAT)
        unit = self.service.unit
        game = unit.game_of(record)
        if not game.offers_review:
            raise Refusal(_("This game has no review yet."))
        if record.state is not None:  # the action log lives in its own table (bot/core/unit.py)
            logged = await self.service.store.game_actions(row.id)
            record.state = {**record.state,
                            "actions": [*logged, *record.state.get("actions", [])]}
        # the solver's work off the event loop, as a game's changes are (bot/core/unit.py)
        try:
            screen = await asyncio.wait_for(
                asyncio.to_thread(game.review, unit.table(row, record), seat, round),
                WORK_TIMEOUT)
        except TimeoutError:
            raise Refusal(narrate.TOO_SLOW) from None
        with using(record.lang_of(seat)):
            sent = _("🔎 Your review is in your private chat with me.")
        out = Outcome(reply=sent if not actor.private else None, alert=False,
                      where=Where(row.id, row.platform, row.chat_id))
        out.private_extras[actor.user] = split(screen)
        return out


def split(screen: Screen) -> list[Screen]:
    """The picture with a short caption (its first lines), then the whole text as a message:
    a caption holds 1,024 units, the text up to 4,096 (the game cut it to that)."""
    lines = screen.text.split("\n")
    if screen.painter is None:
        return [screen]
    caption = "\n".join(lines[:CAPTION_LINES])
    picture = Screen(caption, [], screen.image_key, screen.painter, screen.game_id,
                     lang=screen.lang)
    if len(lines) <= CAPTION_LINES:
        return [picture]
    rest = Screen("\n".join(lines), game_id=screen.game_id, lang=screen.lang,
                  detail=screen.detail)
    return [picture, rest]

