"""The web page's words, from the same gettext catalogs as the chats (sent to the page by the
server in the reader's language: the page itself holds no sentence)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.i18n import N_, _, is_rtl, using

# key -> msgid: the shared page's words; a game's own (its actions, its places) are its web
# part's (`register`), sent with these under "<game>:<key>" (the page looks there first)
WORDS = {
    "sort": "⇅ Sort", "rematch": "↻ Rematch",
    "hand": N_("Your hand"),
    "watching": N_("You are watching: nobody's hand is shown."),
    "reconnecting": N_("Connection lost — reconnecting…"),
    "offline": N_("Not connected: moves wait until the table is back."),
    "refused": N_("This link is not valid or has expired. Open the table again from the chat."),
    "waiting": N_("The game hasn't started yet."),
    "elsewhere": N_("This table is open on another page: this one has stopped."),
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
# each hosted game's page words by the name its view gives ("game"): key -> msgid, and the
# game's way to say a msgid in the current language (the catalogs', unless it keeps its own)
GAME_WORDS: dict[str, tuple[dict[str, str], Callable[[str], str]]] = {}


def register(game: str, words: Mapping[str, str], say: Callable[[str], str] = _) -> None:
    """A hosted game's page words (its web part's, loaded with the game, as its page ops)."""
    GAME_WORDS[game] = ({**GAME_WORDS.get(game, ({}, say))[0], **words}, say)


def page_words(lang: str) -> dict[str, str]:
    with using(lang):
        out = {key: _(msgid) for key, msgid in WORDS.items()}
        for game, (words, say) in GAME_WORDS.items():
            out.update({f"{game}:{key}": say(msgid) for key, msgid in words.items()})
        out["dir"] = "rtl" if is_rtl(lang) else "ltr"
        out["lang"] = lang
        return out
