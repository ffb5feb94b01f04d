"""The puzzle of the day (issue 41 item 5): a chat admin turns it on (`/puzzle on`); once a day
the bot posts a puzzle cut from this chat's own finished games — a moment where a person could
have laid far more than they did — as a picture with [Solve]; each person gets one try, judged
by the game's engine against the exact maximum; solvers, streaks and a board per chat; the next
day's post shows yesterday's solution first.

Which game cuts it and how is the game's (`offers_puzzles`: `puzzle_cut`, `puzzle_post`,
`puzzle_solution`); the platform keeps the days, the tries and the board.

Work is a sweep (every worker's scheduler): (1) each finished game of a chat with puzzles on is
cut once, off the event loop (a replay and the solver: about 0.1 s a round); (2) a chat whose
day has no puzzle yet and has a cut claims the day (one row per chat and day — one worker posts;
a claim whose worker died lapses after its lease), posts, and marks it posted. A puzzle is
never cut from a game still being played, and it holds one hand only: the cut keeps nothing else.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.i18n import N_, _, fill, using

from .actor import Actor
from .hosting import HostedGame, Refusal
from .record import Record
from .views import ActionRow, Button, Outcome, Screen, Where

log = logging.getLogger(__name__)

LEASE = 120.0  # seconds a worker's claim to post a day's puzzle is its own
CUT_LOOK_BACK = timedelta(days=3)  # finished games this recent are cut
POOL = timedelta(days=7)  # a day's puzzle comes from the chat's games of the last week
BOARD_DAYS = 60  # a streak counts back at most this many days
BOARD_ROWS = 10
DAY = re.compile(r"2[0-9]{7}")  # a [Solve] button's day: 20261207

PUZZLE_ON = N_("🧩 The puzzle of the day is on: once a day I post one from this chat's own "
               "finished games.")
PUZZLE_OFF = N_("The puzzle of the day is off in this chat.")
PUZZLE_ADMINS = N_("Only the chat's admins turn the puzzle of the day on or off.")
PUZZLE_GROUP = N_("The puzzle of the day is a group's: send /puzzle in the group.")
PUZZLE_HELP = N_("/puzzle · /puzzle board · /puzzle on or off (admins)")
PUZZLE_NONE_YET = N_("No puzzle today yet: one comes from a game finished in this chat.")
PUZZLE_IS_OFF = N_("The puzzle of the day is off here: a chat admin turns it on with "
                   "/puzzle on.")
PUZZLE_UNKNOWN = N_("/puzzle takes: board, on, off.")
SOLVE = N_("🧩 Solve")
PUZZLE_BUSY = N_("Finish the game or lesson in our private chat first (/quit or /endgame "
                 "there), then press Solve again.")
PUZZLE_PRIVATE = N_("🧩 Your try is in our private chat: one turn, lay as many as you can.")
PUZZLE_OVER = N_("That puzzle's day is over: try today's.")
PUZZLE_GOING = N_("Your try at today's puzzle is in our private chat.")
PUZZLE_SOLVED_ALREADY = N_("You solved today's puzzle already. The next one comes tomorrow.")
PUZZLE_TRIED = N_("You tried today's puzzle: one try a day. The solution comes with "
                  "tomorrow's.")
BOARD_TITLE = N_("🧩 Puzzle board")
BOARD_EMPTY = N_("Nobody has tried a puzzle here yet.")
BOARD_LINE = N_("{rank}. {name} — solved {solved} · streak {streak}")
BOARD_TODAY = N_("Today: {solvers}")


def day_of(moment: float) -> str:
    """The UTC day of an epoch moment: "2026-12-07"."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d")


def button_day(day: str) -> str:
    return day.replace("-", "")


def from_button(arg: str) -> str | None:
    """A [Solve] button's day back as "2026-12-07" (None: not a day)."""
    if not DAY.fullmatch(arg):
        return None
    try:
        return datetime.strptime(arg, "%Y%m%d").strftime("%Y-%m-%d")
    except ValueError:
        return None


TRY = "puzzle_try"  # a try's row: record.options[TRY] = {"platform", "chat", "day"}
# starts a person's try: (the presser in the group, the same person in their private chat,
# the game, the puzzle's data, where it counts) -> what to show
Begin = Callable[[Actor, Actor, HostedGame, dict[str, Any], dict[str, str]], Awaitable[Outcome]]


@dataclass(frozen=True)
class BoardRow:
    name: str
    solved: int
    streak: int


def board_rows(tries: list[Any], days: list[str], today: str) -> list[BoardRow]:
    """Each person's puzzles solved and current streak (days with a puzzle, in a row, each
    solved, up to the newest day they could still try: today, else yesterday)."""
    by_user: dict[str, dict[str, Any]] = {}
    names: dict[str, str] = {}
    for t in tries:
        by_user.setdefault(t.user_id, {})[t.day] = t
        names[t.user_id] = t.name
    rows = []
    for user, mine in by_user.items():
        solved = sum(1 for t in mine.values() if t.solved)
        streak = 0
        for day in reversed(days):
            t = mine.get(day)
            if t is None and day == today:
                continue  # today's may still come
            if t is None or not t.solved:
                break
            streak += 1
        rows.append(BoardRow(names[user], solved, streak))
    rows.sort(key=lambda r: (-r.streak, -r.solved, r.name))
    return rows[:BOARD_ROWS]


class Puzzles:
    """/puzzle, [Solve] and the sweep. `store`: the store; `post`: deliver an outcome;
    `clock`: epoch seconds; `games`: the hosted games by name; `game_of`: a record's game."""

    def __init__(self, store: Any, post: Callable[[Outcome], Awaitable[None]],
                 clock: Callable[[], float], owner: str,
                 games: Mapping[str, HostedGame],
                 game_of: Callable[[Record], HostedGame],
                 begin: Begin) -> None:
        self.store = store
        self.begin = begin
        self.post = post
        self.clock = clock
        self.owner = owner
        self.games = games
        self.game_of = game_of

    # -- /puzzle ----------------------------------------------------------------------
    async def command(self, actor: Actor, args: str) -> Outcome:
        if actor.private:
            raise Refusal(_(PUZZLE_GROUP))
        word = args.strip().lower()
        if word in ("on", "off"):
            if not actor.admin:
                raise Refusal(_(PUZZLE_ADMINS))
            on = word == "on"
            await self.store.set_puzzle(actor.platform, actor.chat_id, on)
            said = PUZZLE_ON if on else PUZZLE_OFF
            return Outcome(reply=_(said), alert=False)
        if word == "board":
            return Outcome(reply=await self.board_text(actor.platform, actor.chat_id),
                           alert=False)
        if word:
            return Outcome(reply=_(PUZZLE_UNKNOWN) + "\n" + _(PUZZLE_HELP), alert=False)
        if not await self.store.puzzle_on(actor.platform, actor.chat_id):
            return Outcome(reply=_(PUZZLE_IS_OFF) + "\n" + _(PUZZLE_HELP), alert=False)
        day = day_of(self.clock())
        found = await self.store.puzzle_of(actor.platform, actor.chat_id, day)
        if found is None or not found[2]:
            return Outcome(reply=_(PUZZLE_NONE_YET) + "\n" + _(PUZZLE_HELP), alert=False)
        game_name, data, _posted = found
        screen = self.post_screen(game_name, data, day)
        if screen is None:
            return Outcome(reply=_(PUZZLE_NONE_YET), alert=False)
        return Outcome(reply=screen.text, alert=False, picture=screen)

    async def board_text(self, platform: str, chat_id: str) -> str:
        now = self.clock()
        today = day_of(now)
        since = day_of(now - BOARD_DAYS * 86400)
        tries = await self.store.puzzle_tries(platform, chat_id, since)
        days = await self.store.puzzle_days(platform, chat_id, since)
        rows = board_rows(tries, days, today)
        if not rows:
            return _(BOARD_EMPTY)
        lines = [_(BOARD_TITLE)]
        solvers = [t.name for t in tries if t.day == today and t.solved]
        if solvers:
            lines.append(fill(_(BOARD_TODAY), solvers=", ".join(solvers)))
        for rank, row in enumerate(rows, 1):
            lines.append(fill(_(BOARD_LINE), rank=rank, name=row.name, solved=row.solved,
                              streak=row.streak))
        return "\n".join(lines)

    # -- [Solve] ----------------------------------------------------------------------
    async def solve(self, actor: Actor, learner: Actor, arg: str) -> Outcome:
        """[Solve] under a day's puzzle, pressed by `actor` in the group: the person's one try
        begins in their private chat (`learner`: the same person there, as the adapter
        addresses it) as a game of the puzzle's own, judged when their turn ends."""
        day = from_button(arg)
        if actor.private or day is None:
            return Outcome(reply=_(PUZZLE_GROUP), alert=True)
        if day != day_of(self.clock()):
            return Outcome(reply=_(PUZZLE_OVER), alert=True)
        found = await self.store.puzzle_of(actor.platform, actor.chat_id, day)
        if found is None or not found[2]:
            return Outcome(reply=_(PUZZLE_NONE_YET), alert=True)
        game_name, data, _posted = found
        game = self.games.get(game_name)
        if game is None or not game.offers_puzzles:
            return Outcome(reply=_(PUZZLE_NONE_YET), alert=True)
        tried = await self.store.the_try(actor.platform, actor.chat_id, day, actor.user)
        if tried is not None:
            return Outcome(reply=self._tried(tried, data), alert=True)
        return await self.begin(actor, learner, game, data, self.where(actor, day))

    @staticmethod
    def where(actor: Actor, day: str) -> dict[str, str]:
        """What a try's row keeps of its puzzle (record.options[TRY]): whose board it counts on."""
        return {"platform": actor.platform, "chat": actor.chat_id, "day": day}

    def _tried(self, tried: Any, data: dict[str, Any]) -> str:
        if tried.solved is None:
            return _(PUZZLE_GOING)
        if tried.solved:
            return _(PUZZLE_SOLVED_ALREADY)
        return _(PUZZLE_TRIED)

    async def finished(self, record: Record) -> None:
        """A game ended (the unit of work calls this after its save): a try's verdict goes on
        its chat's board, once."""
        where = record.options.get(TRY)
        if not isinstance(where, dict):
            return
        verdict = self.game_of(record).puzzle_verdict(record)
        if verdict is not None:
            solved, cards = verdict
            await self.store.end_try(str(where.get("platform", "")), str(where.get("chat", "")),
                                     str(where.get("day", "")), record.host, solved, cards)

    # -- the pictures -----------------------------------------------------------------
    def post_screen(self, game_name: str, data: dict[str, Any], day: str) -> Screen | None:
        game = self.games.get(game_name)
        if game is None or not game.offers_puzzles:
            return None
        screen = game.puzzle_post(data, day)
        screen.parts = [ActionRow([Button(_(SOLVE), f"solve:{button_day(day)}")])]
        screen.game_id, screen.version = 0, 0  # a chat's button, no game's
        return screen

    # -- the sweep --------------------------------------------------------------------
    async def sweep(self, now: float | None = None) -> int:
        """Cut the finished games not cut yet, then post every chat's puzzle of the day not
        posted yet (claimed by this worker); how many posted."""
        now = self.clock() if now is None else now
        moment = datetime.fromtimestamp(now, UTC)
        await self.cut_games(moment - CUT_LOOK_BACK)
        posted = 0
        for platform, chat_id, lang in await self.store.puzzle_chats():
            try:
                posted += await self._post_day(platform, chat_id, lang, now)
            except Exception:
                log.exception("posting the puzzle of %s:%s failed", platform, chat_id)
        return posted

    async def cut_games(self, since: datetime) -> int:
        """Cut every finished game not cut yet (a batch at a time); how many."""
        done = 0
        while batch := await self.store.uncut_games(since):
            for uncut in batch:
                record = Record.from_dict(uncut.record)
                game = self.game_of(record)
                if not await self.store.claim_cut(uncut, game.name):
                    continue  # another worker's sweep cuts it
                found = None
                if game.offers_puzzles:
                    try:
                        found = await asyncio.to_thread(game.puzzle_cut, record)
                    except Exception:
                        log.exception("cutting a puzzle from game %s failed", uncut.game_id)
                if found is not None:
                    await self.store.save_cut(uncut.game_id, *found)
                done += 1
        return done

    async def _post_day(self, platform: str, chat_id: str, lang: str | None,
                        now: float) -> int:
        day = day_of(now)
        found = await self.store.puzzle_of(platform, chat_id, day)
        if found is not None:
            if found[2]:
                return 0  # the usual answer: posted today
            cut, (game_name, data, _posted) = None, found  # claimed; its worker may be gone
        else:
            best = await self.store.best_cut(platform, chat_id,
                                             datetime.fromtimestamp(now, UTC) - POOL)
            if best is None:
                return 0
            cut, game_name, data = best
        if not await self.store.claim_puzzle(platform, chat_id, day, game_name, data, cut,
                                             self.owner, now, LEASE):
            return 0
        notes: list[Screen] = []
        with using(lang or "en"):
            yesterday = day_of(now - 86400)
            before = await self.store.puzzle_of(platform, chat_id, yesterday)
            game = self.games.get(game_name)
            if before is not None and before[2]:
                old = self.games.get(before[0])
                if old is not None and old.offers_puzzles:
                    notes.append(old.puzzle_solution(before[1], yesterday))
            screen = self.post_screen(game_name, data, day) if game is not None else None
            if screen is not None:
                notes.append(screen)
        if notes:
            await self.post(Outcome(notes=notes, where=Where(platform=platform, chat_id=chat_id)))
        await self.store.puzzle_posted(platform, chat_id, day, self.owner)
        return 1
