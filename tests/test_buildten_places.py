"""Issue 27 on Build-to-Ten's screens: places stay put (RULES.md §6 decision 11), the hint
never changes the buttons, one numbering of the hand, the two jokers apart (decision 12), and
the cards buried in discard piles shown — pressing the buttons the screens send."""

from __future__ import annotations

import io
import re
from pathlib import Path

from babel.messages.extract import extract_from_file
from PIL import Image

from bot.core.buttons import Press
from bot.core.hosting import Table
from bot.core.record import Record, SeatInfo
from bot.core.views import Screen
from bot.games import default_games
from bot.games.buildten import screens
from engine.buildten import BuildState, scripted
from render import buildten as render
from render import palette as pal
from render.buildten import BuildPicture, SeatPicture, draw_buildten

GAME = default_games()["build-to-ten"]


def table_of(state: BuildState) -> Table:
    record = Record(rulebook="buildten", game_name="build-to-ten",
                    seats=[SeatInfo("Ann", "ann"), SeatInfo("Bo", "bo")])
    record.state = state.to_dict()
    return Table(1, record, lambda: 0.0)


def press(table: Table, label: str) -> Screen:
    """Press the button of Ann's screen whose label starts with `label`."""
    screen = GAME.private_screen(table, 0)
    button = next(b for row in screen.buttons for b in row if b.label.startswith(label))
    verb, _sep, arg = button.action.partition(":")
    args = (int(arg),) if arg else ()
    out = GAME.press(table, 0, "ann", Press(1, screen.version, verb, args))
    assert not out.alert, out.reply
    return out.private["ann"]


def buttons(screen: Screen) -> list[tuple[str, str]]:
    return [(b.label, b.action) for row in screen.buttons for b in row]


def state_of(table: Table) -> BuildState:
    return BuildState.from_dict(table.record.state)


def test_a_completed_pile_leaves_its_place_and_the_others_keep_their_numbers():
    pile = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    table = table_of(scripted([["9D"], ["9C"]], [["10H", "4C", "3C"], []],
                              builds=[pile, ["AH", "2H", "3H"], ["AD", "2D"], ["QS"]]))
    press(table, "10♥")
    screen = press(table, "▶ pile 1")
    assert screen.detail.splitlines()[:4] == [
        "pile 1: free", "pile 2: 3♥ on top, needs 4", "pile 3: 2♦ on top, needs 3",
        "pile 4: Q♠ on top, needs 2"]
    press(table, "4♣")
    screen = GAME.private_screen(table, 0)
    assert [label for label, _ in buttons(screen) if label.startswith("▶")] == ["▶ pile 2 (4)"]
    picture = screens._picture(table.record, state_of(table), 0)
    assert picture.builds[0] is None and picture.builds[1] == ("3H", 4)


def test_a_discard_pile_played_empty_keeps_the_other_piles_names():
    table = table_of(scripted([["9D"], ["9C"]], [["7C"], []], builds=[["AS"]],
                              discards=[[["8H"], ["2H"], ["10S"]]]))
    press(table, "D2 2♥")
    screen = press(table, "▶ pile 1")
    labels = [label for label, _ in buttons(screen)]
    assert "D1 8♥" in labels and "D3 10♠" in labels and not any(
        x.startswith("D2") for x in labels)
    assert "D1: 8♥ | D3: 10♠" in screen.detail
    press(table, "7♣")
    drops = [label for label, _ in buttons(GAME.private_screen(table, 0))
             if label.startswith("⤵")]
    assert drops == ["⤵ D1 (8♥)", "⤵ D3 (10♠)", "⤵ new discard pile"]


def test_the_hint_names_a_whole_move_and_leaves_the_buttons_as_they_were():
    table = table_of(scripted([["5S"], ["9C"]], [["3D", "4H", "9H", "8C", "10C"], []],
                              builds=[["AS", "2H"]]))
    before = GAME.private_screen(table, 0)
    after = press(table, "💡 Hint")
    assert buttons(after) == buttons(before)  # nothing selected, nothing renumbered
    assert "💡 Play the 3♦ onto pile 1." in after.text
    picture = screens._picture(table.record, state_of(table), 0,
                               hint=screens.read_hint(table.record.seat_ui(0).mode)[0])
    assert picture.hint == "3D" and picture.selected is None
    press(table, "3♦")  # the hinted move, tapped as the hint says it
    press(table, "▶ pile 1")
    assert state_of(table).builds[0][-1].startswith("3D")


def test_the_hand_is_numbered_as_the_picture_numbers_it():
    """The picture writes 1–5 under the hand: the hand's buttons come first, so a terminal's
    [1]–[5] are those cards in that order."""
    table = table_of(scripted([["5S"], ["9C"]], [["3D", "KC", "5H", "SWAP", "10S"], []],
                              discards=[[["8H"]]]))
    screen = GAME.private_screen(table, 0)
    first = [b.action for b in screen.buttons[0]]
    assert first == [f"bsrc:{screens.HAND_SOURCE + i}" for i in range(5)]
    picture = screens._picture(table.record, state_of(table), 0)
    assert picture.hand == ("3D", "KC", "5H", "SWAP", "10S")


def test_the_two_jokers_read_and_look_apart():
    table = table_of(scripted([["5S"], ["9C"]], [["SHIFT", "SWAP", "4C"], []]))
    labels = [label for label, _ in buttons(GAME.private_screen(table, 0))]
    assert "🃏🌈" in labels and "🃏⚫" in labels  # five a row on a phone: the marks, no word
    detail = GAME.private_screen(table, 0).detail
    assert "colour joker (shift)" in detail and "black joker (swap)" in detail

    def count(joker: str, colour: tuple[int, int, int]) -> int:
        image = draw_buildten(BuildPicture("t", "s", (), (), 0, hand=(joker,))).convert("RGB")
        return sum(n for n, c in image.getcolors(1 << 20) if c == colour)

    assert count("SHIFT", pal.GREEN) > count("SWAP", pal.GREEN) + 50  # the colour band
    assert count("SWAP", pal.SPADE) > count("SHIFT", pal.SPADE) + 200  # black band, frame


def test_cards_buried_in_a_discard_pile_are_in_the_picture():
    table = table_of(scripted([["5S"], ["9C"]], [["4C"], []],
                              discards=[[["KH", "QS", "9D"]], [["7C"]]]))
    picture = screens._picture(table.record, state_of(table), None)
    assert picture.seats[0].discards[0] == ("KH", "QS", "9D")  # the wild cards under the 9
    seat = picture.seats[0]
    plain = SeatPicture(seat.name, seat.face_up, seat.stock, seat.hand,
                        (("4H", "5S", "9D"), *seat.discards[1:]))
    other = BuildPicture(picture.title, picture.status, picture.builds,
                         (plain, *picture.seats[1:]), picture.general, words=picture.words)
    assert draw_buildten(picture).tobytes() != draw_buildten(other).tobytes()


def _hint_picture(table: Table) -> Image.Image:
    screen = press(table, "💡 Hint")
    return Image.open(io.BytesIO(screen.painter())).convert("RGB")


BUILDS_TOP = render.MARGIN + render.TITLE_H + render.STATUS_H + render.TAB_H


def test_the_hint_outlines_the_build_pile_its_card_goes_to():
    """Issue 27: the hint outlined its card only; the pile it goes to is outlined too (pile 2
    here, in the hint's cyan), the other places are not."""
    table = table_of(scripted([["5S"], ["9C"]], [["3D", "4H", "9H", "8C", "10C"], []],
                              builds=[["AS"], ["AH", "2H"]]))
    plain = Image.open(io.BytesIO(GAME.private_screen(table, 0).painter())).convert("RGB")
    image = _hint_picture(table)
    slot_w = (render.WIDTH - 2 * render.MARGIN - (render.MAX_PILES - 1) * render.GAP) / 4
    y = BUILDS_TOP + render.BUILD_H // 2

    def left_edge(img: Image.Image, place: int) -> tuple[int, ...]:
        return img.getpixel((round(render.MARGIN + place * (slot_w + render.GAP)) + 1, y))

    assert left_edge(image, 1) == pal.HINT
    assert left_edge(plain, 1) != pal.HINT
    assert [left_edge(image, i) for i in (0, 2, 3)].count(pal.HINT) == 0


def test_the_hint_outlines_the_discard_place_its_card_goes_to():
    """Nothing to build: the hint's discard place (a new pile opens at D1) is outlined."""
    table = table_of(scripted([["5S"], ["9C"]], [["5D", "6H", "7S", "8C", "10C"], []]))
    plain = Image.open(io.BytesIO(GAME.private_screen(table, 0).painter())).convert("RGB")
    image = _hint_picture(table)
    seat_top = BUILDS_TOP + render.BUILD_H + render.GAP  # Ann's row, the first
    # D1's place, laid out as _draw_seat lays it: the chip, the face-up card, then D1
    dx = render.MARGIN + 4 + render.CHIP_W + 12 + render.PILE_CARD.w + 16
    y = seat_top + 28 + render.DISCARD_CARD.h // 2
    assert image.getpixel((round(dx) - 2, y)) == pal.HINT
    assert plain.getpixel((round(dx) - 2, y)) != pal.HINT
    assert screens.read_hint(table.record.seat_ui(0).mode)[1] == ("d", 0)


BUILDTEN_SOURCES = ("bot/games/buildten/texts.py", "bot/games/buildten/narrate.py",
                    "bot/games/buildten/screens.py", "bot/games/buildten/host.py",
                    "bot/games/buildten/typed.py", "bot/games/buildten/lesson.py",
                    "bot/games/rummy/refusals.py")


def test_the_jokers_have_one_name_in_every_sentence():
    """Decision 12's names everywhere: the lesson, the rules and the refusals said "shift
    joker" / "swap joker" while the screens say "colour joker (shift)" / "black joker (swap)"."""
    root = Path(__file__).resolve().parent.parent
    said = [str(msgid) for path in BUILDTEN_SOURCES
            for _line, msgid, _comments, _context in extract_from_file(
                "python", root / path, keywords={"N_": None, "_": None, "t": None})]
    jokers = [s for s in said if "joker" in s.lower() and "bt_" not in s]
    assert len(jokers) > 5, jokers
    stale = [s for s in jokers if re.search(r"\b(shift|swap) joker", s, re.IGNORECASE)]
    assert not stale, stale
    assert any("colour joker (shift)" in s.lower() for s in jokers if "You drew" in s)
    assert any("black joker (swap)" in s.lower() for s in jokers if "swaps your" in s)
