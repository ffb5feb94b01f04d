"""/help and /rules: the strings longer than a line (msgids in English; bot.i18n translates)."""

from __future__ import annotations

from bot.i18n import N_, _, fill
from engine.rummy import ALL_RULEBOOKS, get_rulebook

from . import words

HELP = N_("""🃏 Rummy Table — rearrangement rummy in this chat.
/newgame [rulebook] — open a game here (rulebooks: {rulebooks})
/lesson [rulebook] — learn a game step by step, in our private chat
/join, /leave — take or give up a seat (a computer takes over a seat left mid-game)
/hand — send my cards again · /hint — show a whole move I can make (💡 Show me lays it)
/rules [rulebook] — the rules, sent here
/leaderboard [rulebook] · /stats — scores that last
/language en|he|ru — the language I speak to you (in a group: the group's)
/notify — in a group: a private message with Join when a game opens there (again: stop)
/endgame — the host ends the game
In our private chat: tap cards to select them, then New group / Add to / Take from /
Auto-place, and Done. Or type: /lay 7H 8H 9H · /add B 10H · /move B:QS A · /split B 4 ·
/take B QS · /done · /reset · /draw · /pass""")

MORE = N_("Learn a rulebook by playing it: /lesson and its name, in our private chat.")

COMMON = N_("""Every group on the table must be a set (3–4 cards of one rank, different suits) or a
run (3+ cards of one suit in order). On your turn rebuild the table as you like — split groups,
move cards, open new ones — as long as you add at least one card from your hand and every group
is valid at the end. A card never goes from the table back to a hand. You build on a private
copy: Done plays it, Reset puts it back. With the stock empty you pass; when everyone passes in
a row the round is blocked.""")

RULES = {
    "manipulation": N_(
        """Manipulation: 7 cards each, two decks. Ace high only (Q-K-A). You must lay if
you can: draw one card at a time until you can (must-lay: remind shows you a hint when you tap Draw
while you have a move). Penalties for cards left: ace 15, tens and faces 10, others 5. Rounds go on
until someone reaches the target (200 or 300); the lowest total wins."""),
    "machiavelli": N_(
        """Machiavelli: 13 cards each. Ace high or low, never both. Play cards or draw
one (drawing ends the turn). Give back, draw 3: once you changed the table, Reset becomes
Give up (+3). One round: whoever empties their hand wins."""),
    "shanghai": N_(
        """Shanghai: 10 cards each (dealt 3-3-3-1). Ace low only (A-2-3). Must lay if you
can, drawing one card at a time until you can. 1 point per card left; rounds continue as long as you
like; the lowest total leads."""),
    "guadeloupe": N_(
        """Guadeloupe: 5 cards each. Ace high or low. Play cards (then draw one unless
you went out), or draw two. One round: whoever empties their hand wins."""),
    "carousel": N_(
        """Carousel: 10 cards each, with jokers. Always draw first; then lay, or draw again
(up to three; the third ends your turn). Knock when your hand would be worth 5 or less (joker 25,
face 10, ace 1). Undercuts score 10 more; going out scores the others' points plus 25. The game
ends at 150."""),
    "vatican": N_(
        """Vatican: 13 cards each, with jokers. Draw one card or lay, never both. Your first
lay must include a run of three cards of one suit from your hand (a joker doesn't count). A joker
on the table stays beside its cards until the real card is on the table."""),
    "tahiti": N_(
        """Tahiti: 5 cards each and 4 face-up singles on the table you may use. One joker per
group; a group with a joker can't be rearranged — only added to from your hand — until you lay the
real card it stands for. Penalties: joker 30, ace 11, face 10, others face value."""),
    "rummikub": N_(
        """Rummikub: 106 tiles, numbers 1–13 in four colours (K black, R red, B blue,
O orange) twice, and 2 jokers; 14 tiles each on your rack, the rest is the pool. A group is
3–4 tiles of one number in different colours; a run is 3+ numbers in order in one colour (1 is
always low). Your initial meld is new combinations from your own rack worth at least 30 (or 20)
— no table tiles. After it, lay tiles, add to and rearrange the table as you like; every
combination must be valid at the end. Lay, or draw one tile — never both. Giving up a changed
table puts it back and draws 3 tiles. A table joker is freed by laying the tile it stands for;
it must then go into a new combination with two of your tiles. Whoever lays their last tile
wins the round: the others score minus what is left on their racks (joker 30), the winner plus
all of it. Write tiles like {typed}, a joker *."""),
}


TYPED_TILES = "7R 13O"  # the rules' example of tiles as typed (no translator types a tile)


def titles() -> str:
    """The rulebooks by title, in the reader's language (what /rules and /newgame take)."""
    return ", ".join(words.title(name) for name in ALL_RULEBOOKS)


def help_text() -> str:
    return fill(_(HELP), rulebooks=titles())


def rules_text(name: str | None) -> str:
    if not name:
        rulebooks = fill(_("Rulebooks: {names}. /rules NAME for one."), names=titles())
        return _(COMMON) + "\n\n" + rulebooks + "\n\n" + _(MORE)
    rules = get_rulebook(name)  # ValueError names the rulebooks
    if rules.tiles:  # the common rules speak of cards: Rummikub's text stands alone
        text = fill(_(RULES[rules.name]), typed=TYPED_TILES)  # what a player types: a value
        return text.replace("\n", " ") + "\n\n" + _(MORE)
    return (
        _(RULES[rules.name]).replace("\n", " ")
        + "\n\n"
        + _(COMMON).replace("\n", " ")
        + "\n\n"
        + _(MORE)
    )


# the terminal's help (bot/adapters/console.py): its typed moves, a card game's and a tile game's
TERMINAL = N_("""Commands (cards like 7H 10S QD, * for a joker; or hand numbers like 1 4 5):
  lay 7H 8H 9H     put cards from your hand into a new group
  add B 10H        put cards into group B
  take B QS        take a card out of group B (it must be placed again before done)
  move B:QS A      move a card from group B to group A ('new' for a new group)
  split B 4        split group B after its 4th card
  auto 7H 8H       let the computer place these cards (rearranging the table if needed)
  done             play your private copy        reset   put everything back
  draw / pass / knock / giveup / hint / sort / next / finish
  3                press button [3] of the last screen (on your turn [1]… are your cards:
                   tap to select, then New group / Add to / Auto-place)
  table · rules · leaderboard · stats · help · quit (the game is saved)""")

TERMINAL_TILES = N_("""Commands (tiles like 7R 13O 1K, * for a joker; or rack numbers like 1 4 5):
  lay 7R 8R 9R     put tiles from your rack into a new group
  add B 10R        put tiles into group B
  take B 5K        take a tile out of group B (it must be placed again before done)
  move B:5K A      move a tile from group B to group A ('new' for a new group)
  split B 4        split group B after its 4th tile
  auto 7R 8R       let the computer place these tiles (rearranging the table if needed)
  done             play your private copy        reset   put everything back
  draw / pass / giveup / hint / sort / next / finish
  3                press button [3] of the last screen (on your turn [1]… are your tiles:
                   tap to select, then New group / Add to / Auto-place)
  table · rules · leaderboard · stats · help · quit (the game is saved)""")


def terminal_help(variant: str | None) -> str:
    """The terminal's help for a rulebook (None: the default), in the current language."""
    try:
        tiles = bool(variant) and get_rulebook(variant).tiles  # type: ignore[arg-type]
    except ValueError:
        tiles = False
    return _(TERMINAL_TILES if tiles else TERMINAL)


# Discord's /rummy help: this game's lines after the platform's commands
DISCORD = N_("Your cards come by DM: pick cards in the menu, then New group / Add to / Take from "
             "/ Auto-place,\nand Done. You can also type moves there: `lay 7H 8H 9H` · `add B "
             "10H` · `move B:QS A` ·\n`split B 4` · `take B QS` · `done` · `reset` · `draw` · "
             "`pass`.")
