"""Build-to-Ten's screens: the group's table and each seat's private screen, pure functions of
the record and the engine's player views. A move is two taps: a source card, then a target."""

from __future__ import annotations

import hashlib

from bot.core.record import Record
from bot.core.views import PRIMARY, ActionRow, Button, Choice, ChoiceGroup, Part, Screen
from bot.games.buildten import lesson as lesson
from bot.i18n import N_, _, current, is_rtl, isolate, t, tn, using
from engine.buildten import BuildState, BuildView, is_joker, player_view
from engine.buildten.cards import face, fits, joker_kind
from engine.buildten.rules import joker_targets
from engine.buildten.state import free_place
from render.buildten import BuildPicture, BuildWords, SeatPicture, render_buildten

from .narrate import and_names, card_name, joker_short
from .texts import lesson_text

TITLE = N_("Build-to-Ten")
# source buttons: 0 the face-up stock card, 1-5 the hand, 6-9 the discard tops (by place)
STOCK_SOURCE, HAND_SOURCE, DISCARD_SOURCE = 0, 1, 6
NEW = 4  # the target index of a new build or discard pile (it opens at the first empty place)


# a seat UI's mode after 💡 Hint: the hinted card's token, then ">" and where it goes ("b0":
# build pile 1, "d2": discard pile D3; none for a joker)
HINT_MODE = "hint:"


def hint_mode(card: str, target: tuple[str, int] | None) -> str:
    return f"{HINT_MODE}{card}>{target[0]}{target[1]}" if target else f"{HINT_MODE}{card}"


def read_hint(mode: str) -> tuple[str | None, tuple[str, int] | None]:
    """The hinted card and its target place from a seat UI's mode (None: none)."""
    if not mode.startswith(HINT_MODE):
        return None, None
    card, _, where = mode.removeprefix(HINT_MODE).partition(">")
    if len(where) == 2 and where[0] in "bd" and where[1] in "0123":
        return card, (where[0], int(where[1]))
    return card, None

LESSON_VARIANT = "buildten_lesson"  # (host.LESSON) the lesson: the worked example in a real game


def group_lang(record: Record) -> str:
    """The group's language (a lesson's too: its steps are in the catalogs)."""
    return record.lang


def seat_lang(record: Record, seat: int | None) -> str:
    return record.lang_of(seat)


def seat_label(record: Record, seat: int) -> str:
    info = record.seats[seat]
    return f"🤖 {info.name}" if info.is_computer else info.name


def _key(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=10).hexdigest()


def source_card(view: BuildView, index: int) -> str | None:
    """The card a source button names (None: nothing there now)."""
    me = view.seat
    if index == STOCK_SOURCE:
        return view.face_up[me]
    if HAND_SOURCE <= index < DISCARD_SOURCE:
        i = index - HAND_SOURCE
        return view.hand[i] if i < len(view.hand) else None
    i = index - DISCARD_SOURCE
    piles = view.discards[me]
    return piles[i][-1] if 0 <= i < len(piles) and piles[i] else None


def status(record: Record, state: BuildState) -> str:
    if state.over:
        won = [seat_label(record, w) for w in state.winners]
        return tn("Game over · {won} wins", "Game over · {won} win", len(won),
                  won=and_names(won))
    return t("{name}'s turn", name=seat_label(record, state.turn))


def picture_words() -> BuildWords:
    """The words inside the pictures, in the current language."""
    return BuildWords(
        build_piles=_("Build piles"),
        pile=_("pile {n}"),
        needs=_("needs"),
        free=_("free"),
        you=_("{name} (you)"),
        stock=_("stock {n}"),
        hand=_("hand {n}"),
        discards=_("discards"),
        your_hand=_("Your hand"),
        no_cards=_("No cards in your hand"),
        rtl=is_rtl(),
    )


def _picture(record: Record, state: BuildState, seat: int | None,
             selected: str | None = None, hint: str | None = None,
             hint_target: tuple[str, int] | None = None) -> BuildPicture:
    view = player_view(state, seat if seat is not None else 0)
    seats = tuple(
        SeatPicture(
            record.seats[i].name,
            face(view.face_up[i]) if view.face_up[i] else None,
            view.stock_counts[i], view.hand_counts[i],
            tuple(tuple(face(c) for c in p) for p in view.discards[i]),  # every place, whole
            is_turn=not state.over and state.turn == i,
            is_computer=record.seats[i].is_computer,
            is_you=i == seat,
        )
        for i in range(state.players)
    )
    return BuildPicture(
        _(TITLE), status(record, state),
        tuple((face(b[-1]), len(b) + 1) if b else None for b in view.builds),
        seats, view.general_count,
        hand=tuple(face(c) for c in view.hand) if seat is not None else None,
        selected=face(selected) if selected else None,
        hint=face(hint) if hint else None,
        hint_target=hint_target if hint else None,
        words=picture_words(),
    )


def table_detail(record: Record, view: BuildView) -> str:
    """The whole picture as text (a terminal, a screen reader): piles, then every seat."""
    lines = []
    for i, b in enumerate(view.builds):  # every place, by its number (decision 11)
        lines.append(t("pile {n}: {card} on top, needs {needed}", n=i + 1,
                       card=card_name(b[-1]), needed=len(b) + 1) if b else
                     t("pile {n}: free", n=i + 1))
    lines.append(t("general stock: {n}", n=view.general_count))
    for i in range(view.players):
        up = card_name(view.face_up[i]) if view.face_up[i] else _("nothing")
        piles = " | ".join(f"D{n}: " + " ".join(card_name(c) for c in p)  # bottom -> top
                           for n, p in enumerate(view.discards[i], 1) if p)
        lines.append(t("{name}: shows {card}, stock {stock}, hand {hand}, discards: {piles}",
                       name=seat_label(record, i), card=up, stock=view.stock_counts[i],
                       hand=view.hand_counts[i], piles=piles or "—"))
    return "\n".join(lines)


def table_screen(game_id: int, record: Record, state: BuildState) -> Screen:
    """The group's table, in the group's language."""
    with using(group_lang(record)):
        return _table_screen(game_id, record, state)


def _table_screen(game_id: int, record: Record, state: BuildState) -> Screen:
    picture = _picture(record, state, None)
    view = player_view(state, 0)
    lines = [status(record, state) + " · " + t("general stock {n}", n=view.general_count)]
    for i in range(state.players):
        up = card_name(view.face_up[i]) if view.face_up[i] else "—"
        lines.append(t("{name}: {card} · stock {n}", name=seat_label(record, i), card=up,
                       n=view.stock_counts[i]))
    if record.log:
        lines.append(t("Last: {line}", line=record.log[-1]))
    buttons = [] if state.over else [ActionRow([Button(_("🂠 My cards"), "cards", PRIMARY)])]
    detail = table_detail(record, view)
    return Screen("\n".join(lines), buttons, _key("bt-table", picture),
                  lambda: render_buildten(picture), game_id, state.version,
                  detail=detail, phase="game_over" if state.over else "play", lang=current())


def fitting_piles(view: BuildView, card: str) -> list[int]:
    """The build piles `card` fits (NEW for a new one)."""
    out = [i for i, b in enumerate(view.builds) if b and fits(card, len(b) + 1)]
    if free_place(view.builds) is not None and fits(card, 1):
        out.append(NEW)
    return out


CHOOSE = N_("Choose…")


def _source_buttons(view: BuildView) -> list[Part]:
    """The hand first (numbered 1–5 as the picture numbers it; a terminal presses [1]–[5]),
    then the discard tops by place (D1–D4), then the face-up stock card ⬆ beside 💡 Hint (and,
    with an empty hand, ⏭ End turn): at most 5, 4 and 2 a row, each label uncut on a phone
    (tests/button_widths.py)."""
    me = view.seat
    hand = [Button(_hand_label(c), f"bsrc:{HAND_SOURCE + i}") for i, c in enumerate(view.hand)]
    tops = [Button(f"D{i + 1} {_face(pile[-1])}", f"bsrc:{DISCARD_SOURCE + i}")
            for i, pile in enumerate(view.discards[me]) if pile]
    last = [Button(f"⬆ {_face(view.face_up[me])}", f"bsrc:{STOCK_SOURCE}")
            ] if view.face_up[me] else []
    last.append(Button(_("💡 Hint"), "hint"))
    end = [Button(_("⏭ End turn"), "bpass")] if not view.hand else []
    choices = [ChoiceGroup(_(CHOOSE), [Choice(b.label, b.action) for b in r], n)
               for r, n in ((hand, 5), (tops, 4)) if r]
    return [*choices, *(ActionRow(r) for r in (last, end) if r)]


def _hand_label(card: str) -> str:
    """A hand card's button, one of five a row: a joker by its mark (🃏🌈 shift, 🃏⚫ swap —
    no word fits; the message names it once tapped)."""
    if joker_kind(card):
        return "🃏" + ("🌈" if joker_kind(card) == "SHIFT" else "⚫")
    return _face(card)


def _short(card: str | None) -> str:
    """A card inside a longer button: a joker by its button word (🌈 shift), not its name."""
    if card is None:
        return "—"
    return joker_short(card) if joker_kind(card) else _face(card)


def _face(card: str) -> str:
    """A card on a button, left to right even on a right-to-left client (`7♦`, not `♦7`)."""
    return isolate(card_name(card))


def _target_buttons(record: Record, state: BuildState, view: BuildView,
                    card: str) -> list[Part]:
    me = view.seat
    parts: list[Part] = []
    if is_joker(card):
        mark = "🌈" if joker_kind(card) == "SHIFT" else "⚫"
        players = [Choice(f"{mark} {record.seats[n].name} ({_short(view.face_up[n])})",
                          f"bjk:{n}")
                   for n in joker_targets(state, me, card)]
        if players:  # a player a row: names are long
            parts.append(ChoiceGroup(_(CHOOSE), players, 1))
    else:
        piles = [Choice(_("▶ new pile") if i == NEW else
                        t("▶ pile {n} ({needed})", n=i + 1, needed=len(view.builds[i]) + 1),
                        f"bpile:{i}")
                 for i in fitting_piles(view, card)]
        if piles:
            parts.append(ChoiceGroup(_(CHOOSE), piles, 2))
    if card in view.hand:
        mine = view.discards[me]
        drops = [Choice(f"⤵ D{i + 1} ({_face(p[-1])})", f"bdisc:{i}")
                 for i, p in enumerate(mine) if p]
        if free_place(mine) is not None:
            drops.append(Choice(_("⤵ new discard pile"), f"bdisc:{NEW}"))
        if drops:
            parts.append(ChoiceGroup(_(CHOOSE), drops, 2))
    parts.append(ActionRow([Button(_("✖ Cancel"), "cancel")]))
    return parts


def private_screen(game_id: int, record: Record, state: BuildState, seat: int) -> Screen:
    """A seat's private screen, in that person's language (a lesson's step too)."""
    with using(seat_lang(record, seat)):
        return _private_screen(game_id, record, state, seat)


def _private_screen(game_id: int, record: Record, state: BuildState, seat: int) -> Screen:
    view = player_view(state, seat)
    ui = record.seat_ui(seat)
    selected = ui.selected[0] if ui.selected else None
    mine = not state.over and state.turn == seat
    if selected is not None and selected not in (view.face_up[seat], *view.hand,
                                                  *(p[-1] for p in view.discards[seat] if p)):
        selected = None  # an old choice (the card has moved): start afresh
    lines = []
    step = record.state.get("lesson") if record.state else None
    if step is not None and seat == lesson.LEARNER and not state.over:
        lines.append(t("📘 Lesson {n}/{total}: {text}", n=step + 1, total=len(lesson.STEPS),
                       text=lesson_text(lesson.STEPS[step].text)))
    if ui.notice:
        lines.append(ui.notice)
    if state.over:
        lines.append(status(record, state))
        buttons: list[Part] = []
    elif not mine:
        lines.append(t("Waiting for {name}.", name=seat_label(record, state.turn)))
        buttons = []
    elif selected is None:
        lines.append(_("Your turn: tap a card to play — your stock card ⬆, a hand card or a "
                       "discard top — then where it goes. End with a discard."))
        buttons = _source_buttons(view)
    else:
        if is_joker(selected):
            where = _("Tap a player.")
        elif not fitting_piles(view, selected):
            where = _("It fits no build pile now: discard it ⤵ to end your turn, or ✖ Cancel.")
        elif selected in view.hand:
            where = _("A build pile ▶, or discard it ⤵ to end your turn.")
        else:
            where = _("A build pile ▶.")
        lines.append(t("{card}: where to? {where}", card=card_name(selected), where=where))
        buttons = _target_buttons(record, state, view, selected)
    hint, target = read_hint(ui.mode) if selected is None else (None, None)
    picture = _picture(record, state, seat, selected, hint, target)
    hand = " ".join(card_name(c) for c in view.hand) or _("(empty)")
    detail = table_detail(record, view) + "\n" + t("your hand: {cards}", cards=hand)
    return Screen("\n".join(lines), buttons, _key("bt-private", picture, seat),
                  lambda: render_buildten(picture), game_id, state.version,
                  detail=detail, phase="game_over" if state.over else "play",
                  notice=ui.notice, lang=current())
