"""The web page's words, from the same gettext catalogs as the chats (sent to the page by the
server in the reader's language: the page itself holds no sentence)."""

from __future__ import annotations

from bot.i18n import N_, _, is_rtl, using

# key -> msgid; the action words are the chat buttons' own
WORDS = {
    "done": "✔ Done", "reset": "↺ Reset", "hint": "💡 Hint", "draw": "Draw",
    "draw_tile": "Draw a tile", "pass": "Pass", "knock": "✊ Knock", "sort": "⇅ Sort",
    "show": "💡 Show me", "giveup": "Give up (+3)", "giveup1": "Give up (+1)",
    "new": "New group", "builds": "Build piles",
    "hand": N_("Your hand"), "rack": N_("Your rack"), "stock": N_("Stock: {n}"),
    "watching": N_("You are watching: nobody's hand is shown."),
    "reconnecting": N_("Connection lost — reconnecting…"),
    "refused": N_("This link is not valid or has expired. Open the table again from the chat."),
    "waiting": N_("The game hasn't started yet."),
    "loose": N_("Loose (place before Done)"),
    "review": "🔎 Review",
}


def page_words(lang: str) -> dict[str, str]:
    with using(lang):
        out = {key: _(msgid) for key, msgid in WORDS.items()}
        out["dir"] = "rtl" if is_rtl(lang) else "ltr"
        out["lang"] = lang
        return out
