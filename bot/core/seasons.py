"""A chat's seasons (issue 41): standings from the chat's finished games of a calendar month (or
an ISO week, if a chat admin chose weeks), `/season` as a picture, and the final standings posted
once when a season ends and kept (`/season last`, the hall of fame).

Points: each finished game gives every person who played it 1 point, and the winner 2 more (a
shared win shares them). Playing counts, so a chat's regulars climb; winning counts more, so
the best still lead — where the rating is a skill estimate that a few strong games can top.
Computers play, but stand in no season.

Closing a season is a sweep (every worker's scheduler, every few minutes): a chat with games in
the season just ended and no record of it claims the record (one row per chat and season; a
claim another worker holds is left alone until its lease runs out), posts the standings and
marks them posted. Several workers: one posts. A worker killed between its claim and the post:
the lease runs out and another posts it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from bot.i18n import N_, _, fill, using

from . import narrate
from .actor import Actor
from .hosting import Refusal
from .stat_pictures import season_screen
from .views import Outcome, Screen, Where

log = logging.getLogger(__name__)

MONTHS, WEEKS = "months", "weeks"
KINDS = (MONTHS, WEEKS)
WIN_POINTS = 2  # on top of the 1 for playing
LEASE = 120.0  # seconds a worker's claim to post a season's end is its own
LOOK_BACK = timedelta(days=70)  # chats with games this recent are looked at for a season's end

SEASON_TITLE = N_("🏅 Season {season}")
SEASON_FINAL = N_("🏅 Season {season} is over: the final standings")
SEASON_EMPTY = N_("No finished games in this chat this season yet.")
SEASON_NONE_LAST = N_("No season of this chat has ended yet.")
SEASON_LINE = N_("{rank}. {name} — {points} pts · {games} · {wins}")
SEASON_HELP = N_("/season · /season last · /season hall · /season weeks or months (admins)")
# whole sentences: a month and a week take different forms in Hebrew and Russian
SEASON_KIND_SET = {
    MONTHS: N_("Seasons in this chat now last a calendar month."),
    WEEKS: N_("Seasons in this chat now last a week, Monday to Sunday."),
}
SEASON_ADMINS = N_("Only the chat's admins choose how long its seasons last.")
SEASON_HALL = N_("🏛 Hall of fame: every season's winner")
SEASON_HALL_LINE = N_("{season}: {names}")
SEASON_UNKNOWN = N_("/season takes: last, hall, weeks, months.")
POINTS_HEAD = N_("Points")


@dataclass(frozen=True)
class Season:
    """One season of a kind: its key ("2026-12", "2026-W49") and [start, end) in UTC."""

    kind: str
    key: str
    start: datetime
    end: datetime

    def previous(self) -> Season:
        return season_of(self.start - timedelta(seconds=1), self.kind)


def season_of(when: datetime, kind: str = MONTHS) -> Season:
    """The season `when` falls in (UTC)."""
    when = when.astimezone(UTC)
    if kind == WEEKS:
        monday = date.fromisocalendar(*when.isocalendar()[:2], 1)
        start = datetime(monday.year, monday.month, monday.day, tzinfo=UTC)
        year, week, _day = when.isocalendar()
        return Season(kind, f"{year}-W{week:02d}", start, start + timedelta(days=7))
    start = datetime(when.year, when.month, 1, tzinfo=UTC)
    end = datetime(when.year + (when.month == 12), when.month % 12 + 1, 1, tzinfo=UTC)
    return Season(MONTHS, f"{when.year}-{when.month:02d}", start, end)


def standings_text(title: str, rows: list[Any]) -> str:
    lines = [title]
    for rank, row in enumerate(rows, 1):
        lines.append(fill(_(SEASON_LINE), rank=rank, name=row.name, points=f"{row.points:g}",
                          games=narrate.games_text(row.games),
                          wins=narrate.wins_text(row.wins)))
    return "\n".join(lines)


def standings_screen(title: str, rows: list[Any], lang: str) -> Screen:
    text = standings_text(title, rows)
    return season_screen(rows, title, text, _(SEASON_EMPTY), _(POINTS_HEAD), lang)


class Seasons:
    """/season and the sweep that closes ended seasons. `store`: the store; `post`: deliver an
    outcome (the service's deliver); `clock`: epoch seconds."""

    def __init__(self, store: Any, post: Callable[[Outcome], Awaitable[None]],
                 clock: Callable[[], float], owner: str) -> None:
        self.store = store
        self.post = post
        self.clock = clock
        self.owner = owner

    async def command(self, actor: Actor, args: str) -> Outcome:
        if actor.private:
            raise Refusal(_("Seasons are a group's: send /season in the group."))
        word = args.strip().lower()
        kind = await self.store.season_kind(actor.platform, actor.chat_id) or MONTHS
        if word in KINDS:
            if not actor.admin:
                raise Refusal(_(SEASON_ADMINS))
            await self.store.set_season_kind(actor.platform, actor.chat_id, word)
            return Outcome(reply=_(SEASON_KIND_SET[word]), alert=False)
        if word == "hall":
            return Outcome(reply=await self._hall(actor), alert=False)
        if word == "last":
            kept = await self.store.last_season(actor.platform, actor.chat_id)
            if kept is None:
                return Outcome(reply=_(SEASON_NONE_LAST), alert=False)
            key, rows = kept
            return self._answer(fill(_(SEASON_FINAL), season=key), rows, actor)
        if word:
            return Outcome(reply=_(SEASON_UNKNOWN) + "\n" + _(SEASON_HELP), alert=False)
        now = datetime.fromtimestamp(self.clock(), UTC)
        season = season_of(now, kind)
        rows = await self.store.season_standings(actor.platform, actor.chat_id, season.start,
                                                 season.end, WIN_POINTS)
        if not rows:
            return Outcome(reply=_(SEASON_EMPTY) + "\n" + _(SEASON_HELP), alert=False)
        return self._answer(fill(_(SEASON_TITLE), season=season.key), rows, actor)

    def _answer(self, title: str, rows: list[Any], actor: Actor) -> Outcome:
        screen = standings_screen(title, rows, actor.lang)
        return Outcome(reply=screen.text, alert=False, picture=screen)

    async def _hall(self, actor: Actor) -> str:
        lines = [_(SEASON_HALL)]
        for key, rows in await self.store.seasons_kept(actor.platform, actor.chat_id):
            best = max((row.points for row in rows), default=None)
            names = ", ".join(row.name for row in rows if row.points == best)
            if names:
                lines.append(fill(_(SEASON_HALL_LINE), season=key, names=names))
        return "\n".join(lines) if len(lines) > 1 else _(SEASON_NONE_LAST)

    async def sweep(self, now: float | None = None) -> int:
        """Post every ended season not yet posted (claimed by this worker); how many."""
        now = self.clock() if now is None else now
        moment = datetime.fromtimestamp(now, UTC)
        posted = 0
        for platform, chat_id, kind, lang in await self.store.season_chats(moment - LOOK_BACK):
            ended = season_of(moment, kind or MONTHS).previous()
            try:
                posted += await self._close(platform, chat_id, ended, lang, now)
            except Exception:
                log.exception("closing season %s of %s:%s failed", ended.key, platform, chat_id)
        return posted

    async def _close(self, platform: str, chat_id: str, season: Season, lang: str | None,
                     now: float) -> int:
        if await self.store.season_closed(platform, chat_id, season.key):
            return 0  # the usual answer, from one key lookup
        rows = await self.store.season_standings(platform, chat_id, season.start, season.end,
                                                 WIN_POINTS)
        if not rows or not await self.store.claim_season(platform, chat_id, season.key, rows,
                                                         self.owner, now, LEASE):
            return 0
        with using(lang or "en"):
            screen = standings_screen(fill(_(SEASON_FINAL), season=season.key), rows, lang or "")
        await self.post(Outcome(notes=[screen], where=Where(platform=platform, chat_id=chat_id)))
        await self.store.season_posted(platform, chat_id, season.key, self.owner)
        return 1
