"""Build-to-Ten's longer texts: /help and /rules (RULES.md §6, in a player's words)."""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.i18n import N_, _, fill, t
from engine.cards import parse_cards

# `{7H}`, `{2H 3D}`: a card run's placeholder in a sentence (no other placeholder starts with a
# rank); the code shows it as its cards, one isolated run.
_CARD = r"(?:(?:10|[2-9AKQJ])[SHDC]|\*)"
CARD_RUN = re.compile(r"\{(" + _CARD + r"(?: " + _CARD + r")*)\}")


def fill_cards(text: str, fill: Callable[..., str]) -> str:
    """`text` with each card-run placeholder shown as its cards (`fill`: the language's)."""
    return CARD_RUN.sub(
        lambda m: fill("{run}", run=" ".join(c.marked() for c in parse_cards(m.group(1)))), text)

HELP = N_("""🔟 Build-to-Ten — a build-pile card game for 2–4 in this chat.
/newgame build-to-ten — open a game here · /join, /leave · /endgame (the host)
/newgame build-to-ten lesson — learn it: the worked example in a real game against a computer
/rules build-to-ten — how to play · /leaderboard build-to-ten · /stats
In our private chat a move is two taps: a card (your face-up stock card, a hand card or a
discard top), then where it goes (a build pile; for a joker, a player). End your turn with a
discard: a hand card, then one of your discard piles. 💡 Hint shows a whole move you can make.
Or type: /play 7h 2 (the {7H} onto pile 2) · /play stock new · /play d1 3 (discard pile 1's
top) · /joker shift Lia · /joker swap 2 · /discard 9c 1 · /pass (empty hand only) · /hint""")

RULES = N_("""Build-to-Ten (2–4 players, 100 cards: two decks without Jacks and 4 jokers; Q and K
are wild). Each player gets a personal stock (20 cards with 2 players, 15 with 3, 10 with 4);
its top card lies face up. Empty your stock first to win.
• The highest face-up card starts (a Q or K shown, or a tie: reshuffle and turn again).
• Each turn your hand is refilled to 5 from the general stock.
• Up to 4 build piles, shared: start one with an A (or a Q/K, which then counts as A) and add
exactly the next number up to 10 (a Q/K stands for the number needed and keeps it). A pile that
reaches 10 is set aside.
• Play from your face-up stock card (the next one turns up at once and may be played too), your
hand, and the tops of your discard piles. Played all 5 hand cards? Draw 5 more and go on.
• End the turn by putting one hand card on one of your up to 4 discard piles.
• Colour joker (shift): a player's face-up stock card goes under their stock, the next turns up
(you may shift yourself). Black joker (swap): swap your face-up card with another player's.
Jokers are played from the hand, any number a turn, and don't end it.
• The general stock, used up, is rebuilt from the completed piles and used jokers.
• No card built for a full round while nothing is left to draw: the fewest stock cards win.""")


def help_text() -> str:
    return fill_cards(_(HELP), fill)  # its {7H}: the card shown, isolated


def rules_text(variant: str | None) -> str:
    if variant not in (None, "", "build-to-ten", "buildten", "lesson", "buildten_lesson"):
        raise ValueError(t("Build-to-Ten has no variant {variant}.", variant=repr(variant)))
    return _(RULES)


def lesson_text(msgid: str) -> str:
    """A lesson sentence in the reader's language, its card runs shown (lessons/words.py)."""
    return fill_cards(_(msgid), fill)


# the terminal's help (bot/adapters/console.py): its typed moves
TERMINAL = N_("""Commands: press a card's number, then its target's; or type
  play 7h 2 · play stock new · play d1 3 · joker shift 2 · discard 9c 1 · pass · hint
  table · rules · leaderboard · stats · help · quit (the game is saved)""")


def terminal_help(variant: str | None) -> str:
    """The terminal's help, in the current language."""
    return _(TERMINAL)


# Discord's /rummy help: this game's lines after the platform's commands
DISCORD = N_("Also here: **Build-to-Ten** (`/rummy new` → Build-to-Ten, or its lesson): a card, "
             "then where it\ngoes; typed: `play 7h 2` · `discard 9c 1` · `joker shift 2` · "
             "`hint`.")
