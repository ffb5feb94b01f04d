"""/notify (issue 41 item 2): a call to play. `/notify` in a group turns on, for that person
and chat, a private message with [Join] when a lobby opens there; `/notify` again turns it
off. A chat's subscribers are called at most once every NOTIFY_EVERY seconds (the service's
clock, claimed in the store: one round whichever worker opens the lobby). The calls are the
lobby's outcome's private one-off messages, so they go out through the delivery like every
other private message (never waited for by the handler); a person the bot can't write to
privately is handled as any closed DM is (the platforms' delivery).

[Join] in the private chat joins the chat's lobby (`invited`): the subscription was made in
that chat, by that person, so it stands for the "is in this chat" that a press in the group
itself proves; nobody else's private press joins a group's game.
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.i18n import fill, using

from . import narrate
from .actor import Actor
from .hosting import HostedGame
from .record import Record
from .views import PRIMARY, ActionRow, Button, Outcome, Screen

NOTIFY_EVERY = 600.0  # seconds: one round of calls per chat in this long at most


class Notify:
    def __init__(self, service: Any) -> None:
        self.service = service

    async def command(self, actor: Actor) -> Outcome:
        """/notify: on if it was off, off if it was on (for this person in this chat)."""
        if actor.private:
            return Outcome(reply=narrate.NOTIFY_GROUP_ONLY, alert=False)
        on = await self.service.store.toggle_notify(actor.platform, actor.chat_id, actor.user)
        return Outcome(reply=narrate.NOTIFY_ON if on else narrate.NOTIFY_OFF, alert=False)

    async def calls(self, actor: Actor, game_id: int, record: Record,
                    game: HostedGame) -> dict[str, list[Screen]]:
        """A lobby opened by `actor`: each subscriber's private call, in their language —
        none if this chat's round of calls was less than NOTIFY_EVERY ago."""
        store = self.service.store
        users = [u for u in await store.subscribers(actor.platform, actor.chat_id)
                 if u != actor.user]
        if not users or not await store.claim_ping(
                actor.platform, actor.chat_id, self.service.clock(), NOTIFY_EVERY):
            return {}
        calls = {}
        for user in users:
            lang = await store.language(actor.platform, user) or record.lang
            with using(lang):
                title = game.settings(record.rulebook, record.options).title
                text = fill(narrate.NOTIFY_PING, title=title,
                            chat=actor.chat_name or narrate.NOTIFY_SOME_CHAT)
                join = ActionRow([Button(narrate.JOIN, "join", PRIMARY)])
                calls[user] = [Screen(text, [join], game_id=game_id,
                                      version=record.lobby_version, lang=i18n.current())]
        return calls

    async def invited(self, actor: Actor, game_id: int) -> bool:
        """A [Join] pressed in a private chat joins the lobby of a chat the person subscribed
        to (their call's button)."""
        if not actor.private:
            return False
        row = await self.service.store.get_game(game_id)
        return (row is not None and row.platform == actor.platform
                and await self.service.store.notify_on(row.platform, row.chat_id, actor.user))
