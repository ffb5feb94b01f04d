"""The pictures, checked for real: sizes, every card where the layout says, nothing private on
the table, marks drawn, text that the font cannot draw handled."""

from __future__ import annotations

import dataclasses
import io
import itertools
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from bot.games.rummy.records import rules_of
from engine.cards import Card, make_deck, parse_cards, rank_order, suit_order
from render import palette as pal
from render.fonts import ROBOT, clean
from render.layout import WIDTH, CardSpot, Layout, group_label
from render.lobby import SEAT_H, render_lobby
from render.rummy import (
    PrivateView,
    ScoreView,
    SeatStrip,
    TableView,
    private_layout,
    render_private,
    render_scores,
    render_table,
    samples,
    table_layout,
)
from render.rummy.scores import ranking, totals
from render.sprites import HAND_CARD, TABLE_CARD, Look, card_sprite, sprite_rgb
from render.views import LobbyView


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def cards(text: str, copy: int = 0) -> tuple[Card, ...]:
    return samples.cards(text, copy)


def opaque(sprite: Image.Image) -> Image.Image:
    """Pixels the card covers fully (its rounded corners blend with whatever is below)."""
    return sprite.getchannel("A").point(lambda a: 255 if a == 255 else 0)


def spot_matches(image: Image.Image, spot: CardSpot, four_color: bool) -> bool:
    """The image shows exactly this card's sprite in the spot's box."""
    expected = sprite_rgb(spot.card, spot.look, spot.size, four_color, pal.TRAY)
    return _same(
        image.crop(spot.box),
        expected,
        opaque(card_sprite(spot.card, spot.look, spot.size, four_color)),
    )


def _same(crop: Image.Image, expected: Image.Image, mask: Image.Image) -> bool:
    diff = ImageChops.difference(crop.convert("RGB"), expected).convert("L")
    black = Image.new("L", diff.size, 0)
    return Image.composite(diff, black, mask).getbbox() is None


def find_sprite(
    image: Image.Image, card: Card, look: Look, size, four_color: bool
) -> Iterator[tuple[int, int]]:
    """Every place the sprite appears in the image, anywhere (not only where a layout puts
    cards): search one fully opaque row of the sprite in every image row, then check the
    whole card at each hit."""
    rgb = image.convert("RGB")
    expected = sprite_rgb(card, look, size, four_color, pal.TRAY)
    mask = opaque(card_sprite(card, look, size, four_color))
    w, h = expected.size
    probe_y = h // 2
    probe = expected.crop((0, probe_y, w, probe_y + 1)).tobytes()
    data = rgb.tobytes()
    stride = rgb.width * 3
    for y in range(probe_y, rgb.height - (h - probe_y) + 1):
        row = data[y * stride : (y + 1) * stride]
        at = row.find(probe)
        while at != -1:
            if at % 3 == 0:
                x, top = at // 3, y - probe_y
                if _same(rgb.crop((x, top, x + w, top + h)), expected, mask):
                    yield (x, top)
            at = row.find(probe, at + 1)


def assert_layout_sane(layout: Layout) -> None:
    boxes = [s.box for s in layout.cards]
    for x0, y0, x1, y1 in boxes:
        assert 0 <= x0 < x1 <= layout.width and 0 <= y0 < y1 <= layout.height
    ordered = sorted(boxes)
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b[0] >= a[2]:
                break
            assert a[3] <= b[1] or b[3] <= a[1], f"cards overlap: {a} {b}"


# -------------------------------------------------------------------------------------------
# Table


def test_table_png_is_palette_image_of_layout_size() -> None:
    view = samples.demo_table()
    image = decode(render_table(view))
    layout = table_layout(view)
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == (layout.width, layout.height) == (WIDTH, layout.height)


@pytest.mark.parametrize(
    "make",
    [
        samples.demo_table,
        samples.tahiti_table,
        lambda: samples.big_table(100),
        lambda: samples.demo_table(four_color=True),
    ],
)
def test_every_table_card_is_drawn_where_the_layout_says(make) -> None:
    view = make()
    image = decode(render_table(view)).convert("RGB")
    layout = table_layout(view)
    assert_layout_sane(layout)
    expected = [c for g in view.groups for c in g] + list(view.singles)
    assert sorted(s.card for s in layout.cards) == sorted(expected)
    for spot in layout.cards:
        assert spot_matches(image, spot, view.four_color), spot


def test_the_card_check_tells_cards_looks_and_places_apart() -> None:
    view = samples.demo_table()
    image = decode(render_table(view)).convert("RGB")
    spot = table_layout(view).cards[0]
    assert spot_matches(image, spot, False)
    other = Card(spot.card.rank % 13 + 1, spot.card.suit)
    x0, y0, x1, y1 = spot.box
    for wrong in (
        dataclasses.replace(spot, card=other),
        dataclasses.replace(spot, card=Card(spot.card.rank, "S" if spot.card.suit != "S" else "C")),
        dataclasses.replace(spot, look=Look(hint=True)),
        dataclasses.replace(spot, box=(x0 + 1, y0, x1 + 1, y1)),
    ):
        assert not spot_matches(image, wrong, False), wrong


def test_groups_are_lettered_in_order_and_cards_stay_in_their_group() -> None:
    view = samples.big_table(100)
    layout = table_layout(view)
    assert [g.label for g in layout.groups] == [group_label(i) for i in range(len(view.groups))]
    for g in layout.groups:
        inside = [s.card for s in layout.cards if s.group == g.index]
        assert tuple(inside) == view.groups[g.index]
        for s in layout.cards:
            if s.group == g.index:  # every card lies inside one of its group's trays
                assert any(
                    t[0] <= s.box[0] and s.box[2] <= t[2] and t[1] <= s.box[1] and s.box[3] <= t[3]
                    for t in g.trays
                )


def test_group_labels_go_past_z() -> None:
    assert [group_label(i) for i in (0, 1, 25, 26, 27, 51, 52)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AB",
        "AZ",
        "BA",
    ]


def test_singles_are_apart_from_groups() -> None:
    view = samples.tahiti_table()
    layout = table_layout(view)
    singles = [s for s in layout.cards if s.area == "single"]
    assert [s.card for s in singles] == list(view.singles)
    assert all(s.group is None for s in singles)
    panel = next(p for p in layout.panels if p.kind == "singles")
    group_top = min(t[1] for g in layout.groups for t in g.trays)
    assert panel.tray[3] < group_top  # a row of their own above the groups
    gaps = [b.box[0] - a.box[2] for a, b in itertools.pairwise(singles)]
    in_group = [s for s in layout.cards if s.group == 0]
    assert min(gaps) > in_group[1].box[0] - in_group[0].box[2]  # spaced wider than a group


def test_big_tables_wrap_instead_of_shrinking() -> None:
    small, big = samples.demo_table(), samples.big_table(104)
    small_layout, big_layout = table_layout(small), table_layout(big)
    assert big_layout.width == small_layout.width == WIDTH
    assert {s.size for s in big_layout.cards} == {TABLE_CARD}
    assert big_layout.height > 2 * small_layout.height
    rows = {s.box[1] for s in big_layout.cards}
    assert len(rows) >= 8


def test_a_group_wider_than_the_image_wraps_onto_more_trays() -> None:
    long = tuple(Card(r, s, k) for k in (0, 1) for s in "SH" for r in range(1, 7))  # 24 cards
    view = TableView("t", (cards("5H 6H 7H"), long))
    layout = table_layout(view)
    assert_layout_sane(layout)
    assert len(layout.groups[1].trays) == 2
    image = decode(render_table(view)).convert("RGB")
    assert all(spot_matches(image, s, False) for s in layout.cards)


def test_table_view_has_no_hand_and_no_hand_card_appears() -> None:
    names = {f.name for f in dataclasses.fields(TableView)}
    assert not names & {"hand", "cards", "hands", "private"}
    view = samples.demo_table()
    image = decode(render_table(view))
    on_table = {c.face for g in view.groups for c in g}
    hand = [c for c in make_deck(1, 2) if c.face not in on_table][:12]
    assert hand
    for card in hand:
        for size in (TABLE_CARD, HAND_CARD):
            for look in (Look(), Look(hint=True), Look(selected=True), Look(placed=True)):
                assert not list(find_sprite(image, card, look, size, False)), card
    # the search itself works: a table card is found, exactly where the layout put it
    spot = table_layout(view).cards[0]
    assert list(find_sprite(image, spot.card, spot.look, spot.size, False)) == [spot.box[:2]]


def test_changed_groups_are_outlined() -> None:
    view = samples.demo_table()
    image = decode(render_table(view)).convert("RGB")
    for g in table_layout(view).groups:
        x0, _, x1, y1 = g.trays[0]
        edge = image.getpixel(((x0 + x1) // 2, y1 - 2))  # bottom edge, under the cards
        assert (edge == pal.CHANGED) == (g.index in view.changed), g
        assert ("changed" in g.marks) == (g.index in view.changed)


def test_seats_show_turn_cards_and_scores() -> None:
    view = samples.demo_table()
    layout = table_layout(view)
    image = decode(render_table(view)).convert("RGB")
    assert len(layout.seats) == len(view.seats)
    for seat, box in zip(view.seats, layout.seats, strict=True):
        corner = image.getpixel((box[0] + 12, box[3] - 3))
        assert (corner == pal.CHANGED) == seat.is_turn  # the turn's chip is amber


def test_empty_table_and_no_seats_render() -> None:
    image = decode(render_table(TableView("Shanghai · Round 1", ())))
    assert image.width == WIDTH and image.height < 200


# -------------------------------------------------------------------------------------------
# Private view


@pytest.mark.parametrize(
    "make",
    [
        samples.demo_private,
        lambda: samples.demo_private("rank", four_color=True),
        lambda: samples.big_private(20),
    ],
)
def test_every_private_card_is_drawn_where_the_layout_says(make) -> None:
    view = make()
    image = decode(render_private(view)).convert("RGB")
    layout = private_layout(view)
    assert image.size == (layout.width, layout.height)
    assert_layout_sane(layout)
    expected = [c for g in view.groups for c in g] + [*view.singles, *view.loose, *view.hand]
    assert sorted(s.card for s in layout.cards) == sorted(expected)
    for spot in layout.cards:
        assert spot_matches(image, spot, view.four_color), spot


@pytest.mark.parametrize(("sort", "key"), [("suit", suit_order), ("rank", rank_order)])
def test_hand_is_sorted_and_numbered(sort, key) -> None:
    view = dataclasses.replace(samples.demo_private(), sort=sort)
    hand = [s for s in private_layout(view).cards if s.area == "hand"]
    assert [s.card for s in hand] == sorted(view.hand, key=key)
    assert [s.number for s in hand] == list(range(1, len(view.hand) + 1))
    assert {s.size for s in hand} == {HAND_CARD}
    # reading order: left to right, then the next row
    corners = [s.box[:2] for s in hand]
    assert corners == sorted(corners, key=lambda p: (p[1], p[0]))


def test_private_marks() -> None:
    view = samples.demo_private()
    layout = private_layout(view)
    by_ident = {s.card.ident: s for s in layout.cards}
    for ident in view.placed:
        assert by_ident[ident].look.placed and by_ident[ident].area == "group"
    for ident in view.hint_cards:
        assert by_ident[ident].look.hint
    loose = [s for s in layout.cards if s.area == "loose"]
    assert [s.card for s in loose] == list(view.loose)
    groups = {g.index: g for g in layout.groups}
    for i in view.invalid:
        assert "invalid" in groups[i].marks and groups[i].text.endswith("!")
    for i in view.hint_groups:
        assert "hint" in groups[i].marks
    assert set(layout.legend) == {"changed", "invalid", "hint", "placed"}
    image = decode(render_private(view)).convert("RGB")
    colours = {c for _, c in image.getcolors(1 << 16)}
    assert {pal.CHANGED, pal.INVALID, pal.HINT, pal.PLACED, pal.LOOSE} <= colours


def test_selected_cards_are_marked() -> None:
    base = samples.demo_private()
    picked = frozenset(c.ident for c in base.hand[:2])
    view = dataclasses.replace(base, selected=picked)
    looks = {s.card.ident: s.look for s in private_layout(view).cards}
    assert all(looks[i].selected for i in picked)
    assert sum(look.selected for look in looks.values()) == 2
    image = decode(render_private(view)).convert("RGB")
    spot = next(s for s in private_layout(view).cards if s.card.ident in picked)
    assert image.getpixel((spot.box[0] + spot.size.w // 2, spot.box[3] - 2)) == pal.SELECTED


def test_private_view_without_draft_or_hand() -> None:
    image = decode(render_private(PrivateView("Not your turn · Bob is playing", ())))
    assert image.width == WIDTH


def test_a_big_hand_wraps_into_rows() -> None:
    hand = tuple(make_deck(1, 0)[:35])
    layout = private_layout(PrivateView("t", hand))
    rows = sorted({s.box[1] for s in layout.cards})
    assert len(rows) == 3
    assert_layout_sane(layout)


# -------------------------------------------------------------------------------------------
# Cards


def test_sprites_are_cached_and_copies_look_the_same() -> None:
    a, b = Card(7, "H", 0), Card(7, "H", 1)
    assert card_sprite(a) is card_sprite(b)
    assert card_sprite(a) is not card_sprite(a, Look(hint=True))


def _colours(image: Image.Image) -> set[tuple[int, int, int]]:
    rgb = pal.quantize(image.convert("RGB")).convert("RGB")
    return {c for _, c in rgb.getcolors(1 << 16)}


def test_a_designated_joker_shows_its_card_and_is_still_a_joker() -> None:
    joker, seven = parse_cards("*7H 7H")
    free = Card(0, "", 0)
    shown = card_sprite(joker)
    assert pal.JOKER in _colours(shown) and pal.RED in _colours(shown)
    assert pal.JOKER not in _colours(card_sprite(seven))
    assert shown.tobytes() != card_sprite(free).tobytes()
    # it shows the 7 (in the rank area) and the heart (in the suit area) in hearts' red
    w, h = shown.size
    assert pal.RED in _colours(shown.crop((0, 0, w, h // 2)))
    assert pal.RED in _colours(shown.crop((0, h // 2, w, h)))
    assert card_sprite(joker).tobytes() != card_sprite(parse_cards("*7S")[0]).tobytes()


def test_four_colour_deck() -> None:
    diamond, club = parse_cards("5D 5C")
    assert pal.BLUE in _colours(card_sprite(diamond, four_color=True))
    assert pal.RED in _colours(card_sprite(diamond))
    assert pal.GREEN in _colours(card_sprite(club, four_color=True))
    assert pal.GREEN not in _colours(card_sprite(club))


# -------------------------------------------------------------------------------------------
# Text the font cannot draw


def test_clean_text() -> None:
    assert clean("🤖 Computer (medium)") == (ROBOT, "Computer (medium)")
    assert clean("Zoë 🎉") == ("Zoë",)
    assert clean("李雷") == ("??",)
    assert clean("Алиса") == ("Алиса",)
    assert clean("👍🏽") == ()
    assert clean("Jean\u00a0Paul\n") == ("Jean Paul",)


def test_names_with_emoji_render() -> None:
    view = dataclasses.replace(
        samples.demo_table(),
        seats=(
            SeatStrip("🤖🤖", 3, None, True, True),
            SeatStrip("👩‍👩‍👧 Family", 4, 10, False),
            SeatStrip("李雷", 2, 5, False),
        ),
    )
    assert decode(render_table(view)).width == WIDTH
    lobby = LobbyView("Tahiti 🌴", ("🃏 4 jokers",), ("🤖 Computer (easy)", "Zoë ✨"))
    assert decode(render_lobby(lobby)).width == WIDTH


# -------------------------------------------------------------------------------------------
# Scores and lobby


def test_totals_and_ranking() -> None:
    view = samples.demo_scores()
    assert totals(view.rounds, 3) == [[0, 0, 45, 55], [0, 35, 35, 60], [0, 20, 50, 50]]
    assert ranking(view) == [2, 0, 1]  # ties broken by seat
    high = samples.carousel_scores()
    assert ranking(high)[0] == 0  # Carousel: highest total first
    final = samples.final_scores()
    assert ranking(final)[0] in final.winners


def test_score_chart_shows_target_line_only_when_there_is_one() -> None:
    with_target = decode(render_scores(samples.demo_scores())).convert("RGB")
    no_target = dataclasses.replace(samples.demo_scores(), target=None)
    without = decode(render_scores(no_target)).convert("RGB")
    assert pal.INVALID in {c for _, c in with_target.getcolors(1 << 16)}
    assert pal.INVALID not in {c for _, c in without.getcolors(1 << 16)}
    for k in range(3):  # each seat's line is drawn in its own colour
        assert pal.SERIES[k] in {c for _, c in with_target.getcolors(1 << 16)}


def test_single_round_result_has_no_chart_and_final_has_a_crown() -> None:
    single = decode(render_scores(samples.single_result()))
    chart = decode(render_scores(samples.demo_scores()))
    assert single.height < chart.height - 200
    final = decode(render_scores(samples.final_scores())).convert("RGB")
    assert pal.GOLD in {c for _, c in final.getcolors(1 << 16)}
    empty = ScoreView("t", ("A", "B"), ())
    assert decode(render_scores(empty)).width == WIDTH


def test_lobby_shows_every_slot() -> None:
    short = decode(render_lobby(LobbyView("Tahiti", (), ("Alice (host)",), max_seats=2)))
    full = decode(render_lobby(LobbyView("Tahiti", (), ("Alice (host)",), max_seats=5)))
    assert full.height - short.height == 3 * (SEAT_H + 6)  # one row per seat, open or taken


# -------------------------------------------------------------------------------------------
# Size and any table


def test_largest_table_is_small() -> None:
    assert len(render_table(samples.big_table(104))) < 200_000


DECK = make_deck(2, 4)


@st.composite
def table_views(draw: st.DrawFn) -> TableView:
    pool = draw(st.permutations(DECK))
    sizes = draw(st.lists(st.integers(1, 14), max_size=30))
    groups, at = [], 0
    for n in sizes:
        if at + n > len(pool):
            break
        groups.append(tuple(pool[at : at + n]))
        at += n
    singles = tuple(pool[at : at + draw(st.integers(0, 4))])
    changed = frozenset(draw(st.sets(st.integers(0, max(len(groups) - 1, 0)))))
    return TableView(
        "any",
        tuple(groups),
        singles,
        changed & set(range(len(groups))),
        four_color=draw(st.booleans()),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table_views())
def test_any_table_draws_every_card_where_the_layout_says(view: TableView) -> None:
    image = decode(render_table(view)).convert("RGB")
    layout = table_layout(view)
    assert image.size == (WIDTH, layout.height)
    assert_layout_sane(layout)
    assert len(layout.cards) == sum(map(len, view.groups)) + len(view.singles)
    for spot in layout.cards:
        assert spot_matches(image, spot, view.four_color)


@st.composite
def private_views(draw: st.DrawFn) -> PrivateView:
    pool = draw(st.permutations(DECK))
    hand_n = draw(st.integers(0, 40))
    hand, rest = tuple(pool[:hand_n]), pool[hand_n:]
    groups, at = [], 0
    for n in draw(st.lists(st.integers(0, 8), max_size=20)):
        groups.append(tuple(rest[at : at + n]))
        at += n
    loose = tuple(rest[at : at + draw(st.integers(0, 5))])
    indexes = st.sets(st.integers(0, max(len(groups) - 1, 0)))
    idents = [c.ident for c in (*hand, *(c for g in groups for c in g))]
    some = st.frozensets(st.sampled_from(idents)) if idents else st.just(frozenset())
    return PrivateView(
        "any",
        hand,
        draw(st.sampled_from(["suit", "rank"])),
        tuple(groups),
        changed=frozenset(draw(indexes)),
        invalid=frozenset(draw(indexes)),
        loose=loose,
        placed=draw(some),
        selected=draw(some),
        hint_cards=draw(some),
        hint_groups=frozenset(draw(indexes)),
        four_color=draw(st.booleans()),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(private_views())
def test_any_private_view_draws_every_card_where_the_layout_says(view: PrivateView) -> None:
    image = decode(render_private(view)).convert("RGB")
    layout = private_layout(view)
    assert image.size == (WIDTH, layout.height)
    assert_layout_sane(layout)
    assert len(layout.cards) == len(view.hand) + len(view.loose) + sum(map(len, view.groups))
    for spot in layout.cards:
        assert spot_matches(image, spot, view.four_color)
        assert spot.look == Look(
            spot.card.ident in view.placed,
            spot.card.ident in view.selected,
            spot.card.ident in view.hint_cards,
        )


def _caption_record(names: list[str], computers: int = 0):
    from bot.core.record import Record, SeatInfo
    from engine.rummy import new_game

    seats = [SeatInfo(n, str(i)) for i, n in enumerate(names)]
    seats += [SeatInfo(f"Computer {i + 1}", None, computer="easy") for i in range(computers)]
    record = Record(rulebook="manipulation", seats=seats)
    return record, new_game(rules_of(record), len(seats), 7)


def test_a_caption_fits_telegram_in_utf16_units_and_names_stay_told_apart() -> None:
    """Issue 31: five seats of 32-emoji names made a 1,166-unit caption (Telegram counts UTF-16
    units; `text[:1024]` counted characters, and Telegram refused it). The names are shortened,
    each still told apart, and the table's groups line stays."""
    from bot.core.cut import CAPTION_UNITS, utf16_units
    from bot.games.rummy.screens import table_screen

    names = ["😀" * 31 + e for e in "🍎🍐🍊🍋🍌"]
    record, state = _caption_record(names)
    record.log = [f"{names[0]} laid " + "10♥ 10♦ 10♣ " * 20]
    text = table_screen(1, record, state).text
    assert utf16_units(text) <= CAPTION_UNITS, utf16_units(text)
    status = text.splitlines()[0]
    assert all(e in status for e in "🍎🍐🍊🍋🍌"), status  # each name's own end survives
    assert text.endswith("(empty table)")  # the table's line is not what was cut


def test_computer_seats_stay_distinct_when_names_are_shortened() -> None:
    """Four computers beside a long-named person: not four identical "🤖 Comput…"."""
    from bot.core.cut import CAPTION_UNITS, utf16_units
    from bot.games.rummy.screens import table_screen

    record, state = _caption_record(["🦄" * 32], computers=4)
    record.log = ["🦄" * 32 + " laid " + "10♥ 10♦ 10♣ " * 50]
    text = table_screen(1, record, state).text
    assert utf16_units(text) <= CAPTION_UNITS
    status = text.splitlines()[0]
    labels = [s.rsplit(" ", 1)[0] for s in status.split(" · ")[2:7]]
    assert len(set(labels)) == 5, labels
