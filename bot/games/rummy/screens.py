"""Screens built from a game record: the lobby, the group's table, each seat's private view, and
the scoreboard. Pure functions of the record (and the engine's player views)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.core.cut import CAPTION_UNITS, cut, short_name, utf16_units
from bot.core.narrate import picture_words as core_picture_words
from bot.core.record import Record
from bot.core.views import (
    CONFIRM,
    DANGER,
    PRIMARY,
    ActionRow,
    Button,
    Choice,
    ChoiceGroup,
    HandPicker,
    Part,
    Screen,
)
from bot.i18n import N_, Laid, _, and_list, current, isolate, listing, scored, t, tn, using
from engine.cards import Card, rank_order, suit_order
from engine.rummy import (
    GameState,
    PlayerView,
    Rulebook,
    group_label,
    is_meld,
    legal_actions,
    player_view,
)
from engine.rummy.melds import arrange, readings
from engine.rummy.tile_rules import floats
from engine.rummy.tiles import is_tile_face, piece_from_token
from render.rummy import (
    PrivateView,
    ScoreView,
    SeatStrip,
    TableView,
    render_private,
    render_scores,
    render_table,
)
from render.views import PictureWords

from . import words
from .narrate import hint_line, pretty_sorted
from .records import SeatAsk, rules_of

CARDS_PER_ROW = 8


def button_piece(token: str) -> Card:
    """The card or tile a card button's token names (the terminal lays a rack of tiles apart
    from a hand of cards)."""
    return piece_from_token(token)
CARD_ROWS = 2
PAGE = CARDS_PER_ROW * CARD_ROWS
MAX_SEATS = 5
LEVELS = ("easy", "medium", "hard")


def picture_words(tiles: bool = False) -> PictureWords:
    """The words inside the pictures; a tile game's rack is no hand."""
    words_ = core_picture_words()
    if not tiles:
        return words_
    return replace(words_, empty_hand=_("No tiles left on your rack"), placed=_("from your rack"))


def pretty(cards: Sequence[Card]) -> str:
    return " ".join(c.pretty() for c in cards)


def marked(cards: Sequence[Card]) -> str:
    """As text without a picture shows them (a detail line): a tile with its colour's mark
    (7🟥), as the log names it; a card as always (7♥)."""
    return " ".join(c.marked() for c in cards)


def _joined(group: Sequence[Card]) -> str:
    sep = " " if any(c.is_tile for c in group) else ""
    return sep.join(c.pretty() for c in group)


def groups_text(groups: Sequence[Sequence[Card]], singles: Sequence[Card] = ()) -> str:
    # cards read as one word (7♥8♥9♥); tiles are numbers and need the spaces (7R 8R 9R); each
    # group keeps its own direction in a right-to-left line, the groups follow the line's
    parts = [isolate(f"{group_label(i)} {_joined(g)}") for i, g in enumerate(groups)]
    if singles:
        parts.append(t("singles {cards}", cards=" ".join(c.pretty() for c in singles)))
    return Laid(" · ".join(parts)) if parts else _("(empty table)")


def card_label(card: Card) -> str:
    """A card's button: its face, left to right even on a right-to-left client (`6♠`)."""
    return isolate(card.pretty())


def shown(rules: Rulebook, groups: Sequence[Sequence[Card]]) -> list[list[Card]]:
    """Groups as players see them: a floating joker (a Rummikub group of three of one number)
    names no colour — it stands for either missing one (RULES.md §5 decision 3)."""
    if rules.joker_rule != "rack-frees":
        return [list(g) for g in groups]
    return [[c.free() if c.is_joker and floats(g, c) else c for c in g] for g in groups]


def _key(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()


def _rounds(rules: Rulebook) -> bool:
    """Is the game several rounds (the screens show the round and the running scores)? A
    one-round Rummikub game (`rounds: 1`) is not."""
    return rules.game_end.rounds != "one" and not (
        rules.game_end.rounds == "fixed" and rules.round_count == 1
    )


# Widths (UTF-16 units) the seats' names are shortened to, in turn, while a caption is over
# Telegram's limit (None: as they are).
NAME_WIDTHS = (None, 16, 8)


def seat_label(record: Record, seat: int, width: int | None = None) -> str:
    """A seat's name as shown ("🤖 Computer 2" for a computer); `width`: shortened to that many
    UTF-16 units, still told apart from the other seats' ("🤖 2", "Alex…ith")."""
    info = record.seats[seat]
    label = f"🤖 {info.name}" if info.is_computer else info.name
    return label if width is None else short_name(label, width)


def _fitted(head: Callable[[int | None], list[str]], table: str) -> str:
    """A caption within Telegram's limit: the `head` lines with the seats' names as they are,
    else shortened (NAME_WIDTHS); the table's line last, cut only if it must be."""
    for width in NAME_WIDTHS:
        lines = [cut(line, CAPTION_UNITS // 2) for line in head(width)]
        text = "\n".join([*lines, table])
        if utf16_units(text) <= CAPTION_UNITS:
            return text
    return cut(text, CAPTION_UNITS)


# -- the group's table --------------------------------------------------------------------


def status_line(record: Record, state: GameState, width: int | None = None) -> str:
    """Round, turn, stock and each seat's cards (and scores); `width`: names shortened."""
    rules = rules_of(record)
    name = seat_label(record, state.turn, width)
    parts = [t("Round {n}", n=state.round)] if _rounds(rules) else []
    if state.phase == "play":
        parts.append(t("{name}'s turn", name=name))
        if state.final_turns is not None:
            parts.append(_("final turns"))
    elif state.phase == "round_over":
        parts.append(_("round over"))
    else:
        parts.append(_("game over"))
    parts.append(t("pool {n}", n=len(state.stock)) if rules.tiles
                 else t("stock {n}", n=len(state.stock)))
    parts += [
        tn("{name}: {n} tile", "{name}: {n} tiles", len(h), name=seat_label(record, i, width))
        if rules.tiles
        else tn("{name}: {n} card", "{name}: {n} cards", len(h), name=seat_label(record, i, width))
        for i, h in enumerate(state.hands)
    ]
    line = " · ".join(parts)
    if _rounds(rules):
        line += " · " + t(
            "(scores: {scores})",
            scores=listing(
                (scored(seat_label(record, i, width), s) for i, s in enumerate(state.scores)), " · "
            ),
        )
    return line


def hand_label(cards: int, sort: str, tiles: bool = False) -> str:
    """The hand's tab in the private picture: "Your hand · 7 cards · by suit" (a tile game:
    "Your rack · 14 tiles · by colour")."""
    if tiles:
        return t(
            "Your rack · {tiles} · by {sort}",
            tiles=tn("{n} tile", "{n} tiles", cards),
            sort=_("number") if sort == "rank" else _("colour"),
        )
    return t(
        "Your hand · {cards} · by {sort}",
        cards=tn("{n} card", "{n} cards", cards),
        sort=_("rank") if sort == "rank" else _("suit"),
    )


def table_screen(game_id: int, record: Record, state: GameState) -> Screen:
    """The group's table, in the group's language."""
    with using(record.lang):
        return _table_screen(game_id, record, state)


def _table_screen(game_id: int, record: Record, state: GameState) -> Screen:
    rules = rules_of(record)
    strips = tuple(
        SeatStrip(
            record.seats[i].name,
            len(h),
            state.scores[i] if _rounds(rules) else None,
            state.phase == "play" and i == state.turn,
            record.seats[i].is_computer,
        )
        for i, h in enumerate(state.hands)
    )
    changed = frozenset((state.last or {}).get("groups", []))
    title = words.title(rules.name) + (
        " · " + t("Round {n}", n=state.round) if _rounds(rules) else ""
    )
    status = (
        t("{name}'s turn", name=seat_label(record, state.turn))
        if state.phase == "play"
        else _("Round over")
        if state.phase == "round_over"
        else _("Game over")
    )
    view = TableView(
        title,
        tuple(tuple(g) for g in shown(rules, state.table)),
        tuple(state.singles),
        changed,
        len(state.stock),
        strips,
        status,
        words=picture_words(rules.tiles),
        tiles=rules.tiles,
    )
    text = _fitted(
        lambda width: [
            status_line(record, state, width),
            *([t("Last: {line}", line=record.log[-1])] if record.log else []),
        ],
        groups_text(shown(rules, state.table), state.singles),
    )
    buttons: list[Part] = [
        ActionRow([Button(_("🀄 My tiles") if rules.tiles else _("🂠 My cards"), "cards", PRIMARY)])]
    if state.phase != "play":
        buttons = round_end_buttons(record, state)
    return Screen(
        text,
        buttons,
        _key("table", view),
        lambda: render_table(view),
        game_id,
        state.version,
        detail=words.describe(rules.name, dict(rules.options)) + "\n"
        + table_detail(record, state),
        phase=state.phase,
        lang=current(),
    )


def freed_jokers(rules: Rulebook, group: Sequence[Card],
                 table: Sequence[Sequence[Card]]) -> frozenset[int]:
    """The jokers a working copy's group holds that were moved away from all their old
    companions (being freed: their tile is chosen again at Done, RULES.md §5 decision 3), when
    the group is valid only with them read afresh; empty otherwise."""
    if is_meld(rules, group):
        return frozenset()
    idents = {c.ident for c in group}
    moved = frozenset(
        j.ident for old in table for j in old
        if j.is_joker and j.designated and j.ident in idents
        and not idents & ({c.ident for c in old} - {j.ident})
    )
    fresh = [c.free() if c.ident in moved else c for c in group]
    return moved if moved and is_meld(rules, fresh) else frozenset()


def valid_so_far(rules: Rulebook, group: Sequence[Card], table: Sequence[Sequence[Card]]) -> bool:
    """Is a working copy's group valid — a joker being freed read afresh, so it is never shown
    ✗ while the move is in progress?"""
    return is_meld(rules, group) or bool(freed_jokers(rules, group, table))


def is_free(card: Card) -> bool:
    return card.is_joker and not card.designated


def read_afresh(rules: Rulebook, groups: Sequence[Sequence[Card]],
                table: Sequence[Sequence[Card]]) -> list[list[Card]]:
    """The working copy's groups as shown: a joker being freed reads as its new group makes it
    (🃏11O beside 12O 13O, not its old 🃏11R), or as a bare 🃏 while the group leaves it open."""
    out = []
    for group in groups:
        moved = freed_jokers(rules, group, table)
        if moved:
            fresh = [c.free() if c.ident in moved else c for c in group]
            found = readings(fresh, rules.ace, max_jokers=rules.max_jokers_per_group)
            group = fresh
            if len({r.joker_faces for r in found}) == 1:  # one reading: name its tile
                faces = iter(found[0].joker_faces)  # one per free joker, in order (designate)
                group = []
                for card in fresh:
                    face = next(faces) if is_free(card) else None
                    group.append(card.designate(*face) if face and card.ident in moved else card)
                if not any(is_free(c) for c in group):  # (arrange reads every joker's tile)
                    group = arrange(group, found[0])  # in the order Done will lay it
        out.append(list(group))
    return out


def table_detail(
    record: Record, state: GameState, seat: int | None = None, view: PlayerView | None = None
) -> str:
    """The table as text, as `seat` sees it (None: as the group does): the status line and
    one group a line — the seat's working copy on its turn (* changed, ✗ not a valid group
    yet), else + for the groups the last move changed — then the singles and loose cards."""
    lines = [status_line(record, state)]
    if view is None and seat is not None:
        view = player_view(state, seat)
    draft = view.draft if view is not None else None
    groups = draft.groups if draft is not None else state.table
    singles = draft.singles if draft is not None else state.singles
    changed = set(view.changed) if draft is not None and view is not None else set()
    last = set((state.last or {}).get("groups", [])) if draft is None else set()
    seen = read_afresh(rules_of(record), groups, state.table) if draft is not None else groups
    for i, (group, looks) in enumerate(zip(groups, shown(rules_of(record), seen), strict=True)):
        mark = " "
        if i in changed:
            mark = "*" if valid_so_far(rules_of(record), group, state.table) else "✗"
        elif i in last:
            mark = "+"
        lines.append(f" {mark}{group_label(i):>2}  {marked(looks)}")
    if not groups:
        lines.append("    " + _("(the table is empty)"))
    if singles:
        lines.append("  " + t("singles: {cards}", cards=marked(singles)))
    if draft is not None and draft.loose:
        loose = marked(draft.loose)
        lines.append("  " + (t("loose tiles (place before Done): {tiles}", tiles=loose)
                             if rules_of(record).tiles
                             else t("loose (place before Done): {cards}", cards=loose)))
    if changed:
        lines.append("  " + _("(your private copy: * changed, ✗ not a valid group yet)"))
    return "\n".join(lines)


def round_end_buttons(record: Record, state: GameState) -> list[Part]:
    """▶ Next round (and ■ Finish where the game's length is open) after a round: on the table
    and on every player's private screen, so a lost table message can't strand the game."""
    if state.phase != "round_over":
        return []
    buttons = [Button(_("▶ Next round"), "next", PRIMARY)]
    if rules_of(record).game_end.finish_by_choice:
        buttons.append(Button(_("■ Finish"), "finish"))
    return [ActionRow(buttons)]


def score_screen(game_id: int, record: Record, state: GameState) -> Screen:
    """The scoreboard after a round or the game, in the group's language."""
    with using(record.lang):
        return _score_screen(game_id, record, state)


def _score_screen(game_id: int, record: Record, state: GameState) -> Screen:
    rules = rules_of(record)
    names = tuple(seat_label(record, i) for i in range(state.players))
    final = state.phase == "game_over"
    result = state.result or {}
    view = ScoreView(
        words.title(rules.name) + " · "
        + (_("final result") if final else t("after round {n}", n=state.round)),
        names,
        tuple(tuple(r["points"]) for r in state.rounds),
        rules.play_to or None,
        lower_is_better=not rules.higher_is_better,
        final=final,
        winners=tuple(result.get("winners", state.rounds[-1]["winners"] if state.rounds else ())),
        words=picture_words(),
    )
    last = state.rounds[-1] if state.rounds else None
    lines = []
    if last:
        how = {"out": _("went out"), "knock": _("knock"), "blocked": _("blocked"),
               "stock": _("stock ran out")}
        winners = listing(names[w] for w in last["winners"])
        lines.append(t("Round {n} over ({how}) — won by {winners}", n=state.round,
                       how=how.get(last["how"], last["how"]), winners=winners))
        lines.append(t("This round: {points}",
                       points=listing((scored(names[i], p) for i, p in enumerate(last["points"])),
                                      " · ")))
        # each seat a list item, its name and its cards each their own isolate (one isolate
        # around the list took its direction from the first name)
        left = listing([isolate(names[i]) + ": " + pretty_sorted(c.token for c in hand)
                        for i, hand in enumerate(state.hands) if hand], " · ")
        if left:  # every hand left at the round's end: what the points count
            lines.append(t("Left on the racks: {hands}", hands=left) if rules.tiles
                         else t("Left in the hands: {hands}", hands=left))
    if final:
        totals = result.get("totals", state.scores)
        if result.get("draw"):
            lines.append(t("🏁 Game over — a draw between {names}",
                           names=listing(names[w] for w in result["winners"])))
        else:
            won = [names[w] for w in result.get("winners", [])]
            lines.append(tn("🏁 Game over — {names} won!", "🏁 Game over — {names} won!",
                            len(won), names=and_list(won)))
        lines.append(t("Final: {totals}",
                       totals=listing((scored(names[i], x) for i, x in enumerate(totals)), " · ")))
        lines.append(_("See /leaderboard"))
    elif _rounds(rules):
        lines.append(t("Totals: {totals}",
                       totals=listing((scored(names[i], x) for i, x in enumerate(state.scores)),
                                      " · ")))
    # 🔎 Review: each player's own turns of this round, sent to them alone (issue 32)
    review = [ActionRow([Button(_("🔎 Review"), f"review:{state.round}")])] if last else []
    return Screen(
        "\n".join(lines),
        review,
        _key("scores", view),
        lambda: render_scores(view),
        game_id,
        state.version,
        phase=state.phase,
        lang=current(),
    )


# -- a seat's private view ----------------------------------------------------------------


def sorted_hand(cards: Sequence[Card], sort: str) -> list[Card]:
    return sorted(cards, key=rank_order if sort == "rank" else suit_order)


def private_picture(
    view: PlayerView,
    title: str,
    sort: str = "suit",
    hint_cards: frozenset[int] = frozenset(),
    hint_groups: frozenset[int] = frozenset(),
) -> PrivateView:
    """A seat's private picture from its view: the draft (or the table), the hand cards not yet
    placed, sorted, and the changed groups that are not valid yet (a game's and a lesson's)."""
    rules = view.rules
    draft = view.draft
    groups = draft.groups if draft is not None else [list(g) for g in view.table]
    invalid = (
        frozenset(i for i in view.changed if not valid_so_far(rules, groups[i], view.table))
        if draft
        else frozenset()
    )
    return PrivateView(
        title,
        tuple(sorted_hand(view.draft_hand, sort)),
        sort,
        tuple(tuple(g) for g in shown(rules, read_afresh(rules, groups, view.table)
                                      if draft else groups)),
        tuple(draft.singles if draft is not None else view.singles),
        frozenset(view.changed),
        invalid,
        tuple(draft.loose if draft is not None else ()),
        frozenset(c.ident for g in groups for c in g) & frozenset(c.ident for c in view.hand),
        frozenset(),
        hint_cards,
        hint_groups,
        words=picture_words(rules.tiles),
        hand_label=hand_label(len(view.draft_hand), sort, rules.tiles),
    )


def placeable(view: PlayerView, sort: str) -> list[Card]:
    """The cards a seat on turn can pick up and place: its hand (sorted), then the cards its
    working copy took out of the table (loose) and Tahiti's unused singles."""
    draft = view.draft
    extra = list(draft.loose) + list(draft.singles) if draft is not None else list(view.singles)
    return sorted_hand(view.draft_hand, sort) + extra




def private_screen(game_id: int, record: Record, state: GameState, seat: int) -> Screen:
    """A seat's private screen, in that person's language."""
    with using(record.lang_of(seat)):
        return _private_screen(game_id, record, state, seat)


def _private_screen(game_id: int, record: Record, state: GameState, seat: int) -> Screen:
    view = player_view(state, seat)
    ui = record.seat_ui(seat)
    mine = view.my_turn and not record.seats[seat].is_computer
    hint = view.hint or {}
    hint_cards = frozenset(  # the whole lay's cards
        piece_from_token(t).ident for t in hint.get("placed") or hint.get("card", "").split()
    )
    title = _private_title(record, state, seat, view)
    picture = private_picture(
        view, title, ui.sort, hint_cards, frozenset(hint.get("groups", [])) if hint else frozenset()
    )
    hand, groups, loose, draft = list(picture.hand), picture.groups, picture.loose, view.draft
    numbered = "  ".join(f"{i + 1} {c.pretty()}" for i, c in enumerate(hand))
    hand_line = (t("Rack: {tiles}", tiles=numbered) if rules_of(record).tiles
                 else t("Hand: {cards}", cards=numbered))
    if rules_of(record).tiles:  # the detail has no picture: the tiles' colours in the text
        numbered = "  ".join(f"{i + 1} {c.marked()}" for i, c in enumerate(hand))
    detail_hand = (t("Rack: {tiles}", tiles=numbered) if rules_of(record).tiles
                   else hand_line)
    lines = [title, hand_line]
    repeats = [] if hand else [hand_line]  # (a client listing the pieces: nothing to list)
    if draft is not None and view.changed:
        lines.append(t("Working copy: {groups}", groups=groups_text(groups, ())))
        repeats.append(lines[-1])  # (the detail's table marks the working copy)
    if loose:
        lines.append(t("Loose tiles (place before Done): {tiles}", tiles=pretty(loose))
                     if rules_of(record).tiles
                     else t("Loose (place before Done): {cards}", cards=pretty(loose)))
    # The state keeps the hint (the picture outlines it) after the press's notice has said
    # it: a hint's and a must-lay reminder's notice carry the line, so it goes once.
    line = hint_line(hint, rules_of(record).tiles) if hint else ""
    if line and line not in ui.notice:
        lines.append(line)
    if ui.notice:
        lines.append(ui.notice)
    text = cut("\n".join(lines), CAPTION_UNITS)
    if mine:
        cards = card_buttons(record, seat, placeable(view, ui.sort), len(hand))
        buttons = _private_buttons(record, state, seat, cards, groups)
    else:
        buttons = [*round_end_buttons(record, state), ActionRow([Button(_("⇅ Sort"), "sort")])]
    return Screen(
        text,
        buttons,
        _key("private", picture),
        lambda: render_private(picture),
        game_id,
        state.version,
        detail=table_detail(record, state, seat, view) + "\n" + detail_hand,
        phase=state.phase,
        notice=ui.notice,
        lang=current(),
        hand_lines=(hand_line, detail_hand),
        repeats=tuple(repeats),
    )


def joker_face(face: str) -> str:
    """A face a joker may stand for, as its button shows it: `7♥`; a tile's notation, `7R`."""
    if is_tile_face(face):
        return face
    return piece_from_token("*#0=" + face).pretty()[1:]


def card_buttons(record: Record, seat: int, hand: list[Card], in_hand: int) -> list[Choice]:
    """A piece for each placeable card, selected or not (✓ on a phone); the first `in_hand`
    are from the hand, the others (taken out of the table) in brackets. Its action toggles it:
    `s1:<token>` selects, `s0:<token>` puts it back."""
    selected = set(record.seat_ui(seat).selected)
    return [
        Choice(
            card_label(c) if i < in_hand else f"({card_label(c)})",
            f"s{0 if c.token in selected else 1}:{c.token}",
            c.token in selected,
            c.token,
            _as_text(c, i < in_hand),
        )
        for i, c in enumerate(hand)
    ]


def _as_text(card: Card, in_hand: bool = True) -> str:
    """A piece's name where no picture shows it (`Choice.text`): a tile's colour mark."""
    if not card.is_tile:
        return ""
    shown = isolate(card.marked())
    return shown if in_hand else f"({shown})"


def _private_title(record: Record, state: GameState, seat: int, view) -> str:
    n = len(view.hand)
    if state.phase == "round_over":
        return tn("Round over · {n} card left", "Round over · {n} cards left", n)
    if state.phase == "game_over":
        return _("Game over")
    tiles = rules_of(record).tiles
    if not view.my_turn:
        return t("{name}'s turn", name=seat_label(record, state.turn)) + " · " + (
            tn("you have {n} tile", "you have {n} tiles", n) if tiles
            else tn("you have {n} card", "you have {n} cards", n)
        )
    parts = [_("Your turn")]
    if view.draws:
        parts.append(t("you drew {n}", n=view.draws))
    if state.final_turns is not None:
        parts.append(_("final turn: lay or pass"))
    if not view.first_lay_done:
        parts.append(
            t("initial meld: {n} from your rack", n=rules_of(record).first_lay_points) if tiles
            else _("first lay: a run of three from your hand")
        )
    parts.append(tn("{n} tile", "{n} tiles", n) if tiles else tn("{n} card", "{n} cards", n))
    return " · ".join(parts)


ADD_TO = N_("Add the selected cards to group…")
TAKE_FROM = N_("Take from group…")
TAKE_WHICH = N_("Take which card…")
JOKER_MEANS = N_("The joker stands for…")


def _private_buttons(
    record: Record, state: GameState, seat: int, hand: list[Choice], groups
) -> list[Part]:
    """`hand`: the placeable cards (card_buttons), a phone shows a page at a time."""
    ui = record.seat_ui(seat)
    legal = legal_actions(state, seat)
    cancel = ActionRow([Button(_("Cancel"), "cancel")])
    ask = SeatAsk.of(ui)
    if ui.mode == "joker":
        options = [
            Choice(isolate(" ".join(joker_face(f) for f in opt)),
                   f"jk:{ask.joker_group}:{','.join(opt)}")
            for opt in ask.joker_options
        ]
        label = group_label(ask.joker_group or 0)
        return [
            ChoiceGroup(_(JOKER_MEANS), options, 4,
                        heading=t("Joker in {group} stands for:", group=label)),
            cancel,
        ]
    tiles = rules_of(record).tiles
    label = (_("Rack: {tiles}") if tiles else _("Hand: {cards}")).partition("{")[0].rstrip()
    parts: list[Part] = [HandPicker(hand, ui.page, CARDS_PER_ROW, CARD_ROWS, label=label,
                                    menu=picker_menu(tiles))]
    actions, turn = action_rows(
        tiles=tiles, legal=legal, give_up_draw=rules_of(record).give_up_draw,
        show="commit" in legal and bool((state.hint or {}).get("lay")),  # (the seat on turn's)
    )
    asked = group_choices(ui.mode, groups, cancel, ask.take)
    parts += asked if asked is not None else [ActionRow(row) for row in actions]
    return parts + [ActionRow(row) for row in turn]


def picker_menu(tiles: bool) -> tuple[str, str]:
    """A menu of the hand's pieces, in a tile game's words (the whole rack, a page of it);
    a card game's are the clients' own."""
    if tiles:
        return _("Select tiles…"), _("Select tiles (this page)…")
    return "", ""


def group_choices(mode: str, groups: Sequence[Sequence[Card]], cancel: ActionRow,
                  take: int | None = None) -> list[Part] | None:
    """What a table mode asks (Add to ▸ which group, Take from ▸ which group, take which
    card of group `take`: mode "card"), with its Cancel; None for the main mode. A game's
    screen and a lesson's share it (the lesson's own mode says "take:<group>")."""
    letters = [group_label(i) for i in range(len(groups))]
    if mode in ("add", "take"):
        return [ChoiceGroup(_(ADD_TO) if mode == "add" else _(TAKE_FROM),
                            [Choice(x, f"{mode}:{i}") for i, x in enumerate(letters)],
                            CARDS_PER_ROW), cancel]
    if mode == "card" or mode.startswith("take:"):
        g = (take or 0) if mode == "card" else int(mode.split(":")[1])
        if g >= len(groups):  # the group went while the mode was open
            return [cancel]
        return [ChoiceGroup(_(TAKE_WHICH), [Choice(card_label(c), f"tc:{g}:{c.token}")
                                             for c in groups[g]], CARDS_PER_ROW), cancel]
    return None


def action_rows(
    *, tiles: bool, legal: set[str] | frozenset[str], give_up_draw: int, hint: bool = True,
    show: bool = False,
) -> tuple[list[list[Button]], list[list[Button]]]:
    """The table's actions' rows and the turn's rows: at most 3 a row, so that every label
    shows uncut on a phone (tests/test_button_widths.py). The last row holds 💡 Hint."""
    table = [Button(_("New group"), "new", PRIMARY), Button(_("✨ Auto-place"), "auto", PRIMARY)]
    move = [Button(_("Add to ▸"), "addm"), Button(_("Take from ▸"), "takem"), Button("⇅", "sort")]
    turn = []
    if "commit" in legal:
        turn.append(Button(_("✔ Done"), "done", CONFIRM))
    if "give_up" in legal:
        turn.append(Button(_("Give up (+3)") if give_up_draw == 3 else _("Give up (+1)"), "giveup",
                           DANGER))
    elif "reset" in legal:
        turn.append(Button(_("↺ Reset"), "reset"))
    last = []
    if "knock" in legal:  # Carousel: the Draw button becomes Knock
        last.append(Button(_("✊ Knock"), "knock", CONFIRM))
    elif "draw" in legal:
        last.append(Button(_("Draw a tile") if tiles else _("Draw"), "draw"))
    elif "pass" in legal:
        last.append(Button(_("Pass"), "pass"))
    if hint:  # (a lesson has its own: 💡 Show me)
        last.append(Button(_("💡 Hint"), "hint"))
    rows = [row for row in (turn, last) if row]
    if show:  # places the hint's whole lay: a row of its own, uncut
        rows.append([Button(_("💡 Show me"), "show")])
    return [table, move], rows
