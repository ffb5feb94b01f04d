"""How wide a button label is on a 360-px-wide phone's Telegram keyboard, and how wide it may be.

Telegram draws an inline keyboard under the message, as wide as the chat column: on a
360-px-wide phone about 336 px (12 px margins). A row of n buttons shares it with 5 px between
buttons, and a label is cut ("…") when it is wider than its button less about 5 px each side.
The clients draw labels in Roboto Medium ~14 px (Android) or SF Pro (iOS); the repository ships
DejaVu Sans (render/fonts), about 8 % wider than Roboto at one size — which stands in for the
medium weight, so a label that fits in DejaVu Sans 14 px fits on the phone. An emoji is drawn as
a colour picture about 1.2 em wide (DejaVu has no such glyphs).

    python tests/button_widths.py    # the table of every measured label, per language
"""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT = Path(__file__).resolve().parents[1] / "render" / "fonts" / "DejaVuSans.ttf"
SIZE = 14  # px
KEYBOARD = 336  # px: 360 less 12 px each side
GAP = 5  # px between two buttons of a row
PADDING = 5  # px each side inside a button
EMOJI = 1.2 * SIZE


@cache
def _font() -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), SIZE)


def room(per_row: int) -> float:
    """The text width one of `per_row` buttons shows uncut."""
    return (KEYBOARD - GAP * (per_row - 1)) / per_row - 2 * PADDING


def width(label: str) -> float:
    """A label's width in px: text by the font's advance widths, an emoji as a picture."""
    total = 0.0
    for ch in label:
        if unicodedata.category(ch) in ("Mn", "Cf") or ch == "\ufe0f":
            continue
        total += EMOJI if unicodedata.category(ch) == "So" and ord(ch) >= 0x2600 else (
            _font().getlength(ch))
    return total


def lobby_rows(lang: str) -> list[list[str]]:
    """Every lobby keyboard row (each menu of each rulebook and game) in `lang`."""
    from bot.core.lobby import lobby_screen
    from bot.core.record import Record, SeatInfo
    from bot.games import default_games

    rows = []
    for game in default_games().values():
        for variant in game.variants():
            record = Record(rulebook=variant.name, host="1", lang=lang, game_name=game.name,
                            seats=[SeatInfo("Dana", "1", 1)])
            for menu in ("", "rulebook", "options", "computer"):
                screen = lobby_screen(game, 1, record, menu)
                rows += [[b.label for b in row] for row in screen.buttons]
    return rows


def private_rows(lang: str) -> list[list[str]]:
    """The private screen's action rows as bot/games/rummy/screens.py lays them out: the
    table actions (one page of cards: with ⇅), and the last row at its fullest."""
    from bot.games.rummy import screens

    cases = (
        (False, {"commit", "give_up", "draw"}, 3),
        (True, {"commit", "give_up", "draw"}, 3),
        (False, {"commit", "reset", "knock"}, 3),
        (True, {"commit", "give_up", "draw"}, 1),
        (False, {"commit", "reset", "pass"}, 3),
    )
    rows = []
    with _using(lang):
        for tiles, legal, draw in cases:
            table, turn = screens.action_rows(tiles=tiles, legal=legal,
                                              give_up_draw=draw, show=True)
            rows += [[b.label for b in row] for row in table + turn]
        rows.append(["◀", "1/2", "▶"])  # a hand of several pages
    return rows


def lesson_rows(lang: str) -> list[list[str]]:
    """A lesson's own rows as the rummy lesson service lays them out (its turn's rows are the
    game's: `private_rows`)."""
    from bot.games.rummy.lessons import LESSONS, get_lesson
    from bot.i18n import _, t

    def two(labels: list[str]) -> list[list[str]]:
        return [labels[i : i + 2] for i in range(0, len(labels), 2)]

    with _using(lang):
        return [
            *two([_("New group"), _("Add to ▸"), _("Take from ▸"), _("✂ Split ▸")]),
            [_("💡 Show me"), _("⏭ Skip"), _("✖ Quit")],
            [_("▶ Play a real game"), _("📚 Another lesson")],
            *two([_(get_lesson(n).title) for n in LESSONS]),
            [t("after {card}", card=c) for c in ("10♠", "10♥", "10♦")],
        ]


def buildten_rows(lang: str) -> list[list[str]]:
    """Build-to-Ten's private turn rows as bot/games/buildten/screens.py lays them out, each at
    its fullest: the hand (both jokers), the sources (D1–D4; the stock card ⬆ by 💡 Hint and,
    with an empty hand, ⏭ End turn); a card's targets (three piles and a new one; four
    piles) and discards (three and a new one); a joker's players, named as the lobby names
    computers. (Build-to-Ten's lobby is in `lobby_rows`.)"""
    from dataclasses import replace

    from bot.core import narrate
    from bot.core.record import Record, SeatInfo
    from bot.core.views import phone_rows
    from bot.games.buildten import screens
    from bot.i18n import fill, strip_bidi
    from engine.buildten import new_game, player_view

    state = new_game(4, 1)
    with _using(lang):
        names = ["Dana"] + [strip_bidi(fill(narrate.COMPUTER_NAME, number=k)) for k in (1, 2, 3)]
        record = Record(rulebook="buildten", game_name="build-to-ten", lang=lang,
                        seats=[SeatInfo(n, str(k)) for k, n in enumerate(names)])
        view = replace(player_view(state, 0), hand=("10H", "QS", "SHIFT", "SWAP", "AC"),
                       face_up=("10D", "10S", "QH", "10C"))
        full = (("9C", "10C"),) * 4
        rows = screens._source_buttons(replace(view, discards=(full, *view.discards[1:])))
        rows += screens._source_buttons(replace(view, hand=()))  # ⬆, 💡 Hint, ⏭ End turn
        three = (("AS",), ("AS", "2S"), ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"), ())
        four = (("AS",), ("AS", "2S"), ("AS", "2S", "3S"), ("AS", "2S", "3S", "4S"))
        mine = (("10C",), ("10C",), ("10C",), ())
        for builds in (three, four):
            seen = replace(view, builds=builds, discards=(mine, *view.discards[1:]))
            for card in ("QS", "SHIFT", "SWAP"):
                rows += screens._target_buttons(record, state, seen, card)
        return [[b.label for b in row] for row in phone_rows(rows)]


def rematch_rows(lang: str) -> list[list[str]]:
    """↻ Rematch under a finished game's result, and the call's ↻ Rematch · ▶ Start now
    (bot/core/rematch.py)."""
    from bot.core.record import Record
    from bot.core.rematch import call_screen, result_buttons

    record = Record(lang=lang, rematch_call={"in": [], "until": 0.0})
    rows = result_buttons(record).phone_rows() + call_screen(1, record).buttons
    return [[b.label for b in row] for row in rows]


def _using(lang: str):
    from bot.i18n import using

    return using(lang)


def measured(lang: str) -> list[tuple[str, int, float, float]]:
    """(label, buttons in its row, width, room) for every row above, each label once."""
    seen, out = set(), []
    for row in (lobby_rows(lang) + private_rows(lang) + lesson_rows(lang) + buildten_rows(lang)
                + rematch_rows(lang)):
        for label in row:
            if (label, len(row)) not in seen:
                seen.add((label, len(row)))
                out.append((label, len(row), width(label), room(len(row))))
    return out


if __name__ == "__main__":
    from bot.i18n import LANGUAGES

    print(f"DejaVu Sans {SIZE} px; keyboard {KEYBOARD} px; room per button: "
          + ", ".join(f"{n}: {room(n):.0f}" for n in range(1, 6)))
    print("| lang | label | a row | width px | room px | fits |\n|---|---|---|---|---|---|")
    for lang in LANGUAGES:
        for label, n, w, r in measured(lang):
            print(f"| {lang} | {label} | {n} | {w:.0f} | {r:.0f} | {'yes' if w <= r else 'NO'} |")
