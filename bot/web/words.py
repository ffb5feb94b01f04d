"""The web page's words, from the same gettext catalogs as the chats (sent to the page by the
server in the reader's language: the page itself holds no sentence)."""

from __future__ import annotations

from bot.i18n import N_, _, fill, is_rtl, t, using

# key -> msgid; the action words are the chat buttons' own
WORDS = {
    "done": "✔ Done", "reset": "↺ Reset", "hint": "💡 Hint", "draw": "Draw",
    "draw_tile": "Draw a tile", "pass": "Pass", "knock": "✊ Knock", "sort": "⇅ Sort",
    "show": "💡 Show me", "giveup": "Give up (+3)", "giveup1": "Give up (+1)",
    "next": "▶ Next round", "finish": "■ Finish", "rematch": "↻ Rematch",
    "new": "New group", "builds": "Build piles",
    "hand": N_("Your hand"), "rack": N_("Your rack"), "stock": N_("Stock: {n}"),
    "watching": N_("You are watching: nobody's hand is shown."),
    "reconnecting": N_("Connection lost — reconnecting…"),
    "offline": N_("Not connected: moves wait until the table is back."),
    "refused": N_("This link is not valid or has expired. Open the table again from the chat."),
    "waiting": N_("The game hasn't started yet."),
    "elsewhere": N_("This table is open on another page: this one has stopped."),
    "loose": N_("Loose (place before Done)"),
    "review": "🔎 Review",
    "title": N_("Rummy table"),
    "table": N_("The table"),
    "log": N_("Moves this round"),
    "keys": N_("Keys"),
    "keys_help": N_("Tab moves between your hand, the groups, New group and the buttons; the "
                    "arrow keys move within them. Enter or Space picks a card; Enter on a "
                    "group or New group places it there. Escape drops the pick; Delete takes a "
                    "picked table card off its group. D: Done, R: Reset, H: Hint, S: Sort."),
    "picked": N_("Picked: {cards}"),
    "group": N_("group {label}: {cards}"),
    "just_drawn": N_("{card}, just drawn"),
    "last_move": N_("last move"),
    "left": N_("⏱ {s} s left in this turn"),
    "signal": N_("🔔 Signal my turn"),
}

# a playing card's name, read aloud: the rank word and the suit's sentence
RANKS = {"A": N_("ace"), "J": N_("jack"), "Q": N_("queen"), "K": N_("king")}
SUITS = {"H": N_("{rank} of hearts"), "D": N_("{rank} of diamonds"),
         "C": N_("{rank} of clubs"), "S": N_("{rank} of spades")}
# a Rummikub tile's name by its colour letter (engine/rummy/tiles.py)
COLOURS = {"R": N_("red {n}"), "K": N_("black {n}"), "B": N_("blue {n}"), "O": N_("orange {n}")}


def card_name(face: str) -> str:
    """A playing card's or a tile's name in the current language, from its face (`7H`: "7 of
    hearts", `10R`: "red 10"); a face it can't read: the face itself."""
    rank, mark = face[:-1], face[-1:]
    if mark in SUITS and rank:
        return fill(_(SUITS[mark]), rank=_(RANKS[rank]) if rank in RANKS else rank)
    if mark in COLOURS and rank.isdigit():
        return fill(_(COLOURS[mark]), n=rank)
    return face


def joker_name(stands_for: str = "") -> str:
    """A joker, and what it stands for on the table."""
    if not stands_for:
        return _("joker")
    return t("joker as {card}", card=card_name(stands_for))


def page_words(lang: str) -> dict[str, str]:
    with using(lang):
        out = {key: _(msgid) for key, msgid in WORDS.items()}
        out["dir"] = "rtl" if is_rtl(lang) else "ltr"
        out["lang"] = lang
        return out
