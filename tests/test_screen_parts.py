"""Screens carry meaning (issue 29): a game says what it offers — a hand picker, a choice group,
plain actions — and each adapter lays it out its own way. Telegram's keyboard is the parts'
phone rows; Discord's components come from the parts, never from reading the action strings;
the terminal shows a hand picker's every piece. scripts/screen_corpus.py keeps the whole
before/after comparison (23,497 screens of every game and phase); here a small corpus of it
checks that nothing a phone offers is lost on Discord."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from bot.adapters.discord_layout import (
    CARDS,
    CARDS_PAGED,
    DANGER_STYLE,
    MAX_ROWS,
    PRIMARY,
    SECONDARY,
    SUCCESS,
    ButtonSpec,
    SelectSpec,
    layout,
)
from bot.core.buttons import parse
from bot.core.views import (
    CONFIRM,
    DANGER,
    ActionRow,
    Button,
    Choice,
    ChoiceGroup,
    HandPicker,
    Screen,
)
from bot.core.views import PRIMARY as PRIMARY_ROLE


def _screen(*parts) -> Screen:
    return Screen("x", list(parts), game_id=7, version=3)


def _specs(screen: Screen) -> list:
    return [spec for row in layout(screen) for spec in row]


def test_a_hand_picker_is_a_multi_select_whatever_its_actions_are_named() -> None:
    pieces = [Choice(f"{n}♠", f"grab:{n}", n == 2, f"{n}S") for n in range(1, 6)]
    screen = _screen(HandPicker(pieces, per_row=4, rows=1))
    menu, *rest = _specs(screen)
    # the whole hand fits one menu: no pages on Discord (a phone's 2 pages of 4)
    assert isinstance(menu, SelectSpec) and menu.custom_id.endswith(f":{CARDS}")
    assert [o.value for o in menu.options] == ["1S", "2S", "3S", "4S", "5S"]  # by key
    assert [o.value for o in menu.options if o.default] == ["2S"]
    assert [o.label for o in menu.options][:2] == ["1♠", "2♠"]  # no tick: the menu shows it
    assert rest == []  # no pager
    many = [Choice(f"{n}", f"grab:{n}", False, f"k{n}") for n in range(30)]
    paged = _specs(_screen(HandPicker(many)))  # more than a menu holds: a phone's page of 16
    assert paged[0].custom_id.endswith(CARDS_PAGED) and len(paged[0].options) == 16
    assert [s.label for s in paged[1:]] == ["◀", "1/2", "▶"]
    # the phone: the page in rows of 4, the selected one ticked, then the pager
    assert [[(b.label, b.action) for b in row] for row in screen.buttons] == [
        [("1♠", "grab:1"), ("✓2♠", "grab:2"), ("3♠", "grab:3"), ("4♠", "grab:4")],
        [("◀", "pg:1"), ("1/2", "noop"), ("▶", "pg:1")],
    ]
    assert [b.action for b in screen.cards] == [f"grab:{n}" for n in range(1, 6)]  # unpaged
    one_page = _screen(HandPicker(pieces[:3]))
    assert _specs(one_page)[0].custom_id.endswith(CARDS)


def test_buttons_that_look_like_cards_stay_what_the_screen_says() -> None:
    """A choice group whose actions happen to read like card buttons (`s1:…`) is a group:
    Discord no longer guesses by prefix."""
    group = ChoiceGroup("Which one…", [Choice("A", "s1:5H#0"), Choice("B", "s1:6H#0")])
    specs = _specs(_screen(group))
    assert all(isinstance(s, ButtonSpec) for s in specs)
    assert [s.label for s in specs] == ["A", "B"]


def test_roles_colour_the_buttons_not_their_verbs() -> None:
    row = ActionRow([Button("Go", "done", PRIMARY_ROLE), Button("Ok", "x", CONFIRM),
                     Button("Quit", "y", DANGER), Button("Plain", "join")])
    assert [s.style for s in _specs(_screen(row))] == [PRIMARY, SUCCESS, DANGER_STYLE, SECONDARY]


def test_a_group_becomes_a_menu_with_its_prompt_when_the_rows_run_out() -> None:
    letters = ChoiceGroup("Add to which group…", [Choice(chr(65 + i), f"add:{i}")
                                                  for i in range(12)], 8)
    many = [ActionRow([Button(f"a{i}", f"act{i}") for i in range(5)]) for i in range(3)]
    rows = layout(_screen(HandPicker([Choice("1♠", "s1:1S", key="1S")]), letters, *many))
    assert len(rows) <= MAX_ROWS
    menus = [s for row in rows for s in row if isinstance(s, SelectSpec)]
    assert menus[1].placeholder == "Add to which group…"
    assert [o.value for o in menus[1].options] == [f"add:{i}" for i in range(12)]
    # with room, the same group is buttons, the selected answer ticked
    picked = ChoiceGroup("Rulebook…", [Choice("One", "rb:one", True), Choice("Two", "rb:two")])
    assert [s.label for s in _specs(_screen(picked))] == ["✓ One", "Two"]
    assert [[b.label for b in r] for r in _screen(picked).buttons] == [["✓ One", "Two"]]


def test_a_heading_shows_above_the_answers() -> None:
    group = ChoiceGroup("The joker stands for…", [Choice("7♥", "jk:0:7H")], 4,
                        heading="Joker in A stands for:")
    screen = _screen(group)
    assert [[(b.label, b.action) for b in r] for r in screen.buttons] == [
        [("Joker in A stands for:", "noop")], [("7♥", "jk:0:7H")]]
    first = _specs(screen)[0]
    assert isinstance(first, ButtonSpec) and first.disabled


def test_bare_rows_are_kept_as_they_are() -> None:
    """A screen made without parts: a phone's rows as given, Discord's plain actions."""
    rows = [[Button("A", "new"), Button("B", "done")], [Button("Show", "cards")]]
    screen = Screen("x", rows, game_id=7, version=3)
    assert screen.buttons == rows
    assert [[s.custom_id for s in r] for r in layout(screen)] == [
        ["rt:7:3:new", "rt:7:3:done", "rt:7:3:cards"]]
    screen.buttons = []
    assert screen.parts == [] and screen.buttons == []


def _corpus():
    path = Path(__file__).resolve().parents[1] / "scripts" / "screen_corpus.py"
    spec = importlib.util.spec_from_file_location("screen_corpus", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, Screen]]:
    return _corpus().corpus(small=True)


def test_nothing_a_phone_offers_is_lost_on_discord(corpus) -> None:
    """Every game and phase (the small corpus): each action of Telegram's keyboard is a
    Discord button, a menu's option or a piece of the hand's menu (this page's), within 5
    rows (a hand's pages need none while the menu holds the whole hand); every button is a
    press the core's parser takes."""
    checked = 0
    for key, screen in corpus:
        offered = {b.action for row in screen.buttons for b in row} - {"noop"}
        for action in offered:
            assert parse(f"7:1:{action}") is not None, (key, action)
        rows = layout(screen)
        assert len(rows) <= MAX_ROWS, key
        reach: set[str] = set()
        for row in rows:
            for spec in row:
                ident = spec.custom_id.split(":", 3)[3]
                if isinstance(spec, ButtonSpec):
                    reach.add(ident.split("~")[0])
                elif ident.startswith(CARDS):
                    hand = screen.hand
                    assert hand is not None
                    keys = {o.value for o in spec.options}
                    reach |= {p.action for p in hand.pieces if p.key in keys}
                    if keys == {p.key for p in hand.pieces}:  # the whole hand: no pages
                        reach |= {b.action for b in hand.pager()}
                else:
                    reach |= {o.value for o in spec.options}
        assert offered <= reach, (key, offered - reach)
        checked += bool(offered)
    assert checked > 1000  # the corpus is not empty: lobbies, games, reviews
