"""The platform's sentences: every word the core itself says to a person (lobby, seats,
commands, timers, refusals). A game's own sentences live with the game (bot/games/*/narrate.py).
One place, so the languages issue translates here and nowhere else."""

from __future__ import annotations

# -- buttons and presses -------------------------------------------------------------------
NOT_OURS = "That button is not from this bot."
SORRY = "Sorry, something went wrong there. The game is saved — please try again."
TOO_SLOW = "That took too long — please try again."
BUSY = "The game is busy — try again."
GONE = "That game no longer exists."
OVER = "This game is over. Start a new one with /newgame."
PLAYERS_ONLY = "These buttons belong to a player of this game."
OTHER_CHAT = "That button belongs to a game in another chat."
STARTED_JOIN_NEXT = "The game has started; join the next one."
OLD_LOBBY_BUTTON = "That lobby button is from before the game started."
NOT_PLAYING = "You're not playing in this game."
CARDS_SENT = "I sent your cards in our private chat."

# -- the lobby -----------------------------------------------------------------------------
NOT_FOR_LOBBY = "That button is not for the lobby."
HOST_ONLY = "Only the host can do that."
LOBBY_STALE = "That button is out of date — here is the lobby as it is now."
ALREADY_SEATED = "You're already seated."
FULL = "The table is full ({seats} seats)."
JOINED = "You joined. I'll send your cards in our private chat."
NOT_SEATED = "You're not seated."
LEFT_TABLE = "You left the table."
UNKNOWN_LEVEL = "Unknown level."
VARIANT_SET = "Rulebook: {title}"
TOO_FEW = "A game needs at least {seats} seats: invite someone or add a computer."
NO_PERSON = "At least one person must play."
COMPUTER_NAME = "Computer {number}"
LOBBY_HELP = (
    "Join with the button. The host picks the rulebook, adds computers and starts "
    "({low}–{high} seats)."
)
SEATS = "Seats: {names}"
NO_SEATS = "none yet"
HOST_MARK = " (host)"
TIMER_MINUTES = "turn timer {minutes} min"
TIMER_SECONDS = "turn timer {seconds} s"
JOIN, LEAVE, ADD_COMPUTER = "Join", "Leave", "+ Computer ▾"
VARIANT_MENU, OPTIONS_MENU, START = "Rulebook ▾", "Options ▾", "Start ▶"
BACK = "◀ Back"

# -- commands ------------------------------------------------------------------------------
START_IN_GROUP = "Start a game in a group chat: add me to a group and send /newgame."
GAME_HERE = (
    "There is already a game in this chat — see the message above (or the host can /endgame)."
)
GAME_HERE_SHORT = "There is already a game in this chat."
NEW_GAME = "New {title} game. Join with the button!"
UNKNOWN_COMMAND = "Unknown command. Try /help."
UNKNOWN_VERB = "Unknown command /{verb}. Try /help."
OTHER_GAMES = "Other games here: {games}"
TOO_LONG = "That's too long for a move ({length:,} characters; at most {limit}). Try /help."
WELCOME = "Welcome! I'll send your cards here when your game starts.\n\n"
LESSON_QUIT = "This is a lesson: /quit stops it."
JOIN_THERE = "Join a game in its group chat: /join there."
NO_GAME = "There is no game in this chat. Start one with /newgame."
NOT_RUNNING = "You're not in a running game. Join one in a group with /join."
ANOTHER_CHAT = "That game is in another chat."
NOT_SEATED_GAME = "You're not seated in this game."
LEFT_FOR_COMPUTER = "{name} left; a computer plays the seat"
YOU_LEFT = "You left; a computer takes your seat."
YOU_LEFT_NOTE = "You left the game; a computer plays your seat."
HOST_ENDS_ONLY = "Only the host can end the game."
HOST_ENDED_LOG = "The host ended the game"
GAME_ENDED = "Game ended."
HOST_ENDED = "🛑 The host ended the game."
HOST_CLOSED = "🛑 The host closed the lobby."
NOBODY_LEFT = "🛑 Nobody is left to play — the game is over."
IDLE_CLOSED = "⌛ Nobody has played here for a day — the game is closed. /newgame starts another."
NOT_STARTED = "The game hasn't started yet."
NOT_YOUR_TURN = "It's not your turn."
TIME_LEFT = "⏱ {minutes}:{seconds:02d} left for your turn."

# -- scores --------------------------------------------------------------------------------
BOARD_TITLE = "🏆 Leaderboard — {scope} · {variant}"
BOARD_OVERALL, BOARD_CHAT, BOARD_ALL = "overall", "this chat", "all rulebooks"
BOARD_EMPTY = "No finished games yet."
BOARD_LINE = (
    "{rank}. {name}  rating {rating:.1f} · {games} games · {wins:g} wins ({rate:.0%}) · "
    "avg {points:.0f} pts"
)
BOARD_MORE = "/leaderboard tahiti · /stats"
STATS_NONE = "No finished games for you yet."
STATS_LINE = (
    "📊 {name}: rating {rating:.1f} · {games} games · {wins:g} wins ({rate:.0%}) · "
    "avg {points:.0f} pts"
)
STATS_GAME = "  {when:%Y-%m-%d} {variant}: {points} pts{won}"
