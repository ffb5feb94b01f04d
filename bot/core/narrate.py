"""The platform's sentences: every word the core itself says to a person (lobby, seats,
commands, timers, refusals). A game's own sentences live with the game (bot/games/*/narrate.py).
Every msgid is English; `narrate.NAME` gives it in the current language (bot.i18n)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from bot.i18n import N_, _, fill, is_rtl, ngettext, normalize, tn, using
from render.views import PictureWords

if TYPE_CHECKING:
    from .record import Record

T = TypeVar("T")

_MESSAGES: dict[str, str] = {
    "NOT_OURS": N_("That button is not from this bot."),
    "SORRY": N_("Sorry, something went wrong there. The game is saved — please try again."),
    "TOO_SLOW": N_("That took too long — please try again."),
    "BUSY": N_("The game is busy — try again."),
    "GONE": N_("That game no longer exists."),
    "OVER": N_("This game is over. Start a new one with /newgame."),
    "PLAYERS_ONLY": N_("These buttons belong to a player of this game."),
    "OTHER_CHAT": N_("That button belongs to a game in another chat."),
    "STARTED_JOIN_NEXT": N_("The game has started; join the next one."),
    "OLD_LOBBY_BUTTON": N_("That lobby button is from before the game started."),
    "NOT_PLAYING": N_("You're not playing in this game."),
    "CARDS_SENT": N_("I sent your cards in our private chat."),
    "NOT_FOR_LOBBY": N_("That button is not for the lobby."),
    "HOST_ONLY": N_("Only the host can do that."),
    "LOBBY_STALE": N_("That button is out of date — here is the lobby as it is now."),
    "ALREADY_SEATED": N_("You're already seated."),
    "JOINED": N_("You joined. I'll send your cards in our private chat."),
    "NOT_SEATED": N_("You're not seated."),
    "LEFT_TABLE": N_("You left the table."),
    "UNKNOWN_LEVEL": N_("Unknown level."),
    "VARIANT_SET": N_("Rulebook: {title}"),
    "NO_PERSON": N_("At least one person must play."),
    "COMPUTER_NAME": N_("Computer {number}"),
    "LOBBY_HELP": N_(
        "Join with the button. The host picks the rulebook, adds computers and starts "
        "({low}–{high} players)."
    ),
    "SEATS": N_("Players: {names}"),
    "NO_SEATS": N_("none yet"),
    "HOST_MARK": N_(" (host)"),
    "TIMER_MINUTES": N_("turn timer {minutes} min"),
    "TIMER_SECONDS": N_("turn timer {seconds} s"),
    "TIMER_BUTTON": N_("⏱ {minutes} min"),
    "JOIN": N_("Join"),
    # ↻ Rematch under a finished game's result (bot/core/rematch.py)
    "REMATCH_START": N_("▶ Start now"),
    "REMATCH_IN": N_("↻ Rematch — in: {names}"),
    "REMATCH_WAITING": N_("Waiting for: {names}"),
    "REMATCH_HELP": N_(
        "Each player taps ↻ Rematch; the host can start now with those who did. "
        "The call lapses in {minutes} min."
    ),
    "REMATCH_YOU_IN": N_("You're in for the rematch."),
    "REMATCH_ALREADY_IN": N_("You're in already — waiting for the others."),
    "REMATCH_LAPSED": N_("The rematch call has lapsed. Start a new game with /newgame."),
    "REMATCH_STARTED": N_("The rematch has started."),
    # /notify: a private call when a game opens in a group (bot/core/notify.py)
    "NOTIFY_ON": N_(
        "I'll write to you privately when a game opens in this chat. "
        "/notify again turns it off."
    ),
    "NOTIFY_OFF": N_("No more calls to play from this chat."),
    "NOTIFY_GROUP_ONLY": N_("Send /notify in a group: I'll write to you when a game opens there."),
    "NOTIFY_PING": N_("🃏 A game of {title} is starting in {chat}."),
    "NOTIFY_SOME_CHAT": N_("your group"),
    "LEAVE": N_("Leave"),
    "ADD_COMPUTER": N_("+ Computer ▾"),
    "VARIANT_MENU": N_("Rulebook ▾"),
    "OPTIONS_MENU": N_("Options ▾"),
    "START": N_("Start ▶"),
    "BACK": N_("◀ Back"),
    # the lobby's questions (a select menu's placeholder where a client shows one)
    "RULEBOOK_PROMPT": N_("Rulebook…"),
    "TIMER_PROMPT": N_("Turn timer…"),
    "LEVEL_PROMPT": N_("Computer level…"),
    "WELCOME_PRIVATE": N_(
        "👋 Welcome to Rummy Table!\n"
        "Learn a game in a few minutes: /lesson (or /lesson {lesson}).\n"
        "Against the computer, right here: /newgame (or /newgame {title}).\n"
        "With friends: add me to a group and send /newgame there.\n"
        "Every command: /help."
    ),
    "ADD_TO_GROUP": N_("Add me to a group: {link}"),
    "GAME_HERE": N_(
        "There is already a game in this chat — see the message above (or the host can /endgame)."
    ),
    "GAME_HERE_SHORT": N_("There is already a game in this chat."),
    "NOT_OVER_YET": N_("The game isn't over yet."),
    "REMATCH": N_("↻ Rematch"),
    "NEW_GAME": N_("New {title} game. Join with the button!"),
    "UNKNOWN_COMMAND": N_("Unknown command. Try /help."),
    "UNKNOWN_VERB": N_("Unknown command /{verb}. Try /help."),
    "OTHER_GAMES": N_("Other games here: {games}"),
    "UNKNOWN_TITLE": N_("I know no game called “{name}”. The games: {titles}."),
    "TOO_LONG": N_(
        "That's too long for a move ({length:,} characters; at most {limit}). Try /help."
    ),
    "WELCOME": N_("Welcome! I'll send your cards here when your game starts.\n\n"),
    "LESSON_QUIT": N_("This is a lesson: /quit stops it."),
    "LESSON_PRIVATE": N_("Lessons happen in our private chat: send me /lesson there."),
    "LESSON_GAME_HERE": N_(
        "There is a game running in this chat: finish it first (or /endgame)."
    ),
    "JOIN_THERE": N_("Join a game in its group chat: /join there."),
    "NO_GAME": N_("There is no game in this chat. Start one with /newgame."),
    "NOT_RUNNING": N_("You're not in a running game. Join one in a group with /join."),
    "ANOTHER_CHAT": N_("That game is in another chat."),
    "NOT_SEATED_GAME": N_("You're not seated in this game."),
    "LEFT_FOR_COMPUTER": N_("{name} left; a computer plays the seat"),
    "YOU_LEFT": N_("You left; a computer takes your seat."),
    "YOU_LEFT_NOTE": N_("You left the game; a computer plays your seat."),
    "HOST_ENDS_ONLY": N_("Only the host can end the game."),
    "HOST_ENDED_LOG": N_("The host ended the game"),
    "GAME_ENDED": N_("Game ended."),
    "HOST_ENDED": N_("🛑 The host ended the game."),
    "HOST_CLOSED": N_("🛑 The host closed the lobby."),
    "NOBODY_LEFT": N_("🛑 Nobody is left to play — the game is over."),
    "IDLE_CLOSED": N_(
        "⌛ Nobody has played here for a day — the game is closed. /newgame starts another."
    ),
    "NOT_STARTED": N_("The game hasn't started yet."),
    "LANGUAGE_NOW": N_(
        "Language: {name}. Change it with /language en · /language he · /language ru"
    ),
    "LANGUAGE_SET": N_("I'll speak English with you here."),
    "LANGUAGE_GROUP": N_("This group's language is now English."),
    "LANGUAGE_HOST": N_("Only the host can change the language while a game is on."),
    "NOT_RUNNING_GAME": N_("This game is not running."),
    "NOT_YOUR_TURN": N_("It's not your turn."),
    "TIME_LEFT": N_("⏱ {minutes}:{seconds:02d} left for your turn."),
    "BOARD_TITLE": N_("🏆 Leaderboard — {scope} · {variant}"),
    "BOARD_OVERALL": N_("overall"),
    "BOARD_CHAT": N_("this chat"),
    "BOARD_ALL": N_("all rulebooks"),
    "BOARD_EMPTY": N_("No finished games yet."),
    "BOARD_MORE": N_("/leaderboard {variant} · /stats"),
    "STATS_NONE": N_("No finished games for you yet."),
    "STATS_GAME": N_("  {when:%Y-%m-%d} {variant}: {points} pts{won}"),
}


def __getattr__(name: str) -> str:
    """`narrate.NOT_OURS` and the rest: the sentence in the current language."""
    try:
        return _(_MESSAGES[name])
    except KeyError:
        raise AttributeError(name) from None


def __dir__() -> list[str]:
    return sorted(_MESSAGES)


# -- sentences with a count: the catalog's plural forms (Russian: 1 место, 2 места, 5 мест) --


def computer_name(number: int) -> str:
    """A computer's seat name in the current language ("Computer 2"). A name is data — stored,
    typed back to name a player, drawn — so it carries no bidi marks: it is isolated whole
    where a sentence shows it."""
    return _(_MESSAGES["COMPUTER_NAME"]).format(number=number)


def full(seats: int) -> str:
    return tn("The table is full ({n} seat).", "The table is full ({n} seats).", seats)


def too_few(seats: int) -> str:
    return tn(
        "A game needs at least {n} seat: invite someone or add a computer.",
        "A game needs at least {n} seats: invite someone or add a computer.",
        seats,
    )


def games_text(games: int) -> str:
    return tn("{n} game", "{n} games", games)


def wins_text(wins: float) -> str:
    """"3 wins"; a draw counts half a win: a fraction takes the form Russian uses for 2-4
    ("1,5 победы")."""
    whole = float(wins).is_integer()
    return fill(ngettext("{count} win", "{count} wins", int(wins) if whole else 2),
                count=f"{wins:g}")


def _record(rating: float, games: int, wins: float, rate: float, points: float) -> str:
    """rating · games · wins (rate) · average points: a leaderboard line's and /stats' tail."""
    return fill(
        _("rating {rating:.1f} · {games} · {won} ({rate:.0%}) · avg {points:.0f} pts"),
        rating=rating,
        games=games_text(games),
        won=wins_text(wins),
        rate=rate,
        points=points,
    )


def board_line(
    rank: int, name: str, rating: float, games: int, wins: float, rate: float, points: float
) -> str:
    return fill(
        "{rank}. {name}  {record}",
        rank=rank,
        name=name,
        record=_record(rating, games, wins, rate, points),
    )


def stats_line(
    name: str, rating: float, games: int, wins: float, rate: float, points: float
) -> str:
    return fill("📊 {name}: {record}", name=name, record=_record(rating, games, wins, rate, points))


_LEVELS = {"easy": N_("easy"), "medium": N_("medium"), "hard": N_("hard")}


def level(name: str | None) -> str:
    """A computer level's word (a game's own level names pass through)."""
    return _(_LEVELS[name]) if name in _LEVELS else str(name)


def picture_words() -> PictureWords:
    """The words inside the pictures, in the current language."""
    return PictureWords(
        singles=_("Singles"),
        loose=_("Loose: place these"),
        empty_table=_("The table is empty"),
        no_groups=_("No groups on the table yet"),
        empty_hand=_("No cards left in your hand"),
        changed=_("changed"),
        invalid=_("not valid yet"),
        hint=_("hint"),
        placed=_("from your hand"),
        points_short=_("{n} pts"),
        draw=_("It's a draw"),
        wins=_("{name} wins!"),
        win=_("{names} win!"),
        and_=_("and"),
        round=_("round {n}"),
        total=_("total"),
        points=_("points"),
        target=_("target {n}"),
        lobby=_("Rummy Table · new game"),
        seats=_("Players {taken}/{max}"),
        open_seat=_("open seat"),
        rtl=is_rtl(),
    )


# -- the log: the group's language, and each other one a seat reads --------------------------


def said_in(record: Record, say: Callable[[], T]) -> tuple[T, dict[str, T]]:
    """`say()` in the group's language, and in each other language a person at the table
    reads (their page of the web table shows them the log in their own): what
    `Record.add_log`/`fold_log` take."""
    group = normalize(record.lang)
    with using(group):
        said = say()
    other: dict[str, T] = {}
    # every person's seat (one the computer took over too: its person may still be watching)
    people = [i for i, s in enumerate(record.seats) if s.user]
    for lang in sorted({normalize(record.lang_of(i)) for i in people} - {group}):
        with using(lang):
            other[lang] = say()
    return said, other


def log_said(record: Record, say: Callable[[], str]) -> None:
    """The log line `say()` says, in the group's language and each other one read at the
    table."""
    line, other = said_in(record, say)
    record.add_log(line, other)
