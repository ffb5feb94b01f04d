"""Typed moves for power users: /play, /joker, /discard, /pass, /hint.

    /play 7h 2       the 7♥ (hand, stock or a discard top) onto build pile 2
    /play stock new  my face-up stock card onto a new pile   ·   /play d1 3  discard pile 1's top
    /joker shift Lia   /joker swap 2 (seat 2)   ·   /discard 9c 1   /discard 9c new   ·   /pass
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.buttons import ascii_number
from bot.i18n import _, t
from engine.buildten import Action, BuildView, Discard, Joker, Pass, Play, card_label
from engine.buildten.actions import NEW_PILE
from engine.buildten.cards import face, fits, joker_kind, parse_face
from engine.buildten.state import MAX_BUILD_PILES, MAX_DISCARD_PILES

from .narrate import card_name

TYPED_VERBS = frozenset({"play", "joker", "discard", "pass", "hint"})


class TypedError(ValueError):
    """A typed move that can't be read: the sentence says how to type it."""


def _card(view: BuildView, word: str, *, hand_only: bool = False) -> str:
    word = word.lower()
    me = view.seat
    if not hand_only and word in ("stock", "s"):
        card = view.face_up[me]
        if card is None:
            raise TypedError(_("Your stock is empty."))
        return card
    pile = ascii_number(word[1:], MAX_DISCARD_PILES) if word[:1] == "d" else None
    if not hand_only and pile is not None:
        i = pile - 1
        if not 0 <= i < len(view.discards[me]):
            raise TypedError(t("You have no discard pile {n}.", n=i + 1))
        return view.discards[me][i][-1]
    f = parse_face(word)
    if f is None:
        raise TypedError(t("{word} is no card: type it like 7h, 10s, qc, shift or swap.",
                           word=repr(word)))
    places = list(view.hand) if hand_only else [
        *(c for c in (view.face_up[me],) if c), *view.hand,
        *(p[-1] for p in view.discards[me])]
    card = next((c for c in places if face(c) == f), None)
    if card is None:
        if hand_only:
            raise TypedError(t("There is no {card} in your hand.", card=f))
        raise TypedError(t("There is no {card} among your cards to play.", card=f))
    return card


def _pile(word: str | None, limit: int, count: int) -> int | None:
    if word is None:
        return None
    if word.lower() == "new":
        return NEW_PILE
    number = ascii_number(word, limit)
    if number is not None and number >= 1:
        n = number - 1
        return NEW_PILE if n == count else n
    raise TypedError(t("Piles are 1 to {limit}, or new.", limit=limit))


def parse_typed(view: BuildView, verb: str, args: str, names: Sequence[str]) -> Action:
    words = args.split()
    me = view.seat
    if verb == "pass":
        return Pass(me)
    if verb == "play":
        if not 1 <= len(words) <= 2:
            raise TypedError(_("Type /play 7h 2 (a card, then a build pile 1–4 or new)."))
        card = _card(view, words[0])
        pile = _pile(words[1] if len(words) > 1 else None, MAX_BUILD_PILES, len(view.builds))
        if pile is None:
            fitting = [i for i, b in enumerate(view.builds) if fits(card, len(b) + 1)]
            if fits(card, 1) and len(view.builds) < MAX_BUILD_PILES:
                fitting.append(NEW_PILE)
            if not fitting:
                raise TypedError(t("The {card} fits no build pile now.", card=card_name(card)))
            if len(fitting) != 1:
                raise TypedError(t("Onto which pile? Type /play {card} and a pile number.",
                                     card=words[0]))
            pile = fitting[0]
        return Play(me, card, pile)
    if verb == "joker":
        if len(words) != 2 or words[0].lower() not in ("shift", "swap"):
            raise TypedError(_("Type /joker shift Lia or /joker swap 2."))
        card = _card(view, words[0], hand_only=True)
        assert joker_kind(card)
        who = words[1]
        lowered = [n.lower() for n in names]
        seat = ascii_number(who, len(names))
        if seat is not None and seat >= 1:
            target = seat - 1
        elif who.lower() in lowered:
            target = lowered.index(who.lower())
        else:
            raise TypedError(t("No player {who}: type a name or a seat number.", who=repr(who)))
        return Joker(me, card, target)
    if verb == "discard":
        if not 1 <= len(words) <= 2:
            raise TypedError(
                _("Type /discard 9c 1 (a hand card, then your discard pile 1–4 or new)."))
        card = _card(view, words[0], hand_only=True)
        count = len(view.discards[me])
        pile = _pile(words[1] if len(words) > 1 else None, MAX_DISCARD_PILES, count)
        if pile is None:
            if count >= MAX_DISCARD_PILES:
                raise TypedError(t("Onto which of your 4 piles? Type /discard {card} 1.",
                                   card=words[0]))
            pile = NEW_PILE
        return Discard(me, card, pile)
    raise TypedError(t("/{verb} is no Build-to-Ten move.", verb=verb))


__all__ = ["TYPED_VERBS", "TypedError", "card_label", "parse_typed"]
