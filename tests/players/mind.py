"""What a person makes of the screens they were sent, and what they then do. Platform-free: the
drivers (players/telegram.py, players/discord.py) read the messages; this reads the words and
the cards, and thinks with the pure engine the way a person who knows the rules does — from
their own hand, the table everyone sees and what their own caption says, nothing else."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot import i18n
from engine.cards import SUITS, Card, parse_card
from engine.rummy import Commit, Draw, Knock, Pass, PlayerView
from engine.rummy.ai import choose_action
from engine.rummy.tiles import parse_tile, piece_from_token

CARD_FACE = r"🃏(?:10|[2-9AJQK])[♠♥♦♣]|🃏|(?:10|[2-9AJQK])[♠♥♦♣]"
TILE_FACE = r"🃏(?:1[0-3]|[1-9])[KRBO]|🃏|(?:1[0-3]|[1-9])[KRBO]"
_LABEL = re.compile(r"^([A-Z]{1,3}) (.+)$")
# A press's verb on a screen → the engine's name for what it may do.
VERBS = {"done": "commit", "draw": "draw", "pass": "pass", "knock": "knock", "giveup": "give_up"}
ALWAYS = ("place", "take", "move", "split", "set_draft", "hint")


def _template(msgid: str, lang: str) -> re.Pattern[str]:
    """A caption phrase in `lang` as a pattern: `{n}` is a number."""
    with i18n.using(lang):
        text = i18n._(msgid)
    return re.compile(re.escape(text).replace(re.escape("{n}"), r"(\d+)"))


def token_of(data: str) -> str | None:
    """A card button's card (`…:s1:7H#0` → `7H#0`), else None."""
    head, sep, token = data.rpartition(":")
    return token if sep and head.rsplit(":", 1)[-1] in ("s0", "s1") else None


def piece(token: str) -> Card:
    return piece_from_token(token)


def read_faces(text: str, tiles: bool) -> list[str]:
    return re.findall(TILE_FACE if tiles else CARD_FACE, text)


def read_table(line: str, tiles: bool, taken: Iterable[Card] = ()
               ) -> tuple[list[list[Card]], list[Card]]:
    """The table's line of a table caption (`A 7♥8♥9♥ · B 5♠5♦5♣ · singles K♦`; a tile game's
    `A 7R 8R 9R`) as groups and singles. A person can't tell two copies of a card apart on the
    table: copies are numbered so that none is a card of `taken` (their own hand). A line cut
    short (…) loses its last, partial group."""
    text = i18n.strip_bidi(line).strip()
    parts = [p.strip() for p in text.split(" · ")]
    if text.endswith("…"):
        parts = parts[:-1]
    used = {c.ident for c in taken}
    parse = parse_tile if tiles else parse_card

    def fresh(face: str) -> Card:
        for copy in range(16):
            card = parse(face, copy)
            if card.ident not in used:
                used.add(card.ident)
                return card
        raise AssertionError(f"more than 16 copies of {face} on the table: {line!r}")

    groups: list[list[Card]] = []
    singles: list[Card] = []
    for part in parts:
        match = _LABEL.match(part)
        faces = read_faces(match.group(2) if match else part, tiles)
        if match and faces:
            groups.append(designated([fresh(f) for f in faces]))
        elif faces:
            singles += [fresh(f) for f in faces]
    return groups, singles


def designated(group: list[Card]) -> list[Card]:
    """A group as the table holds it: a joker shown without a face (a Rummikub joker floating
    in a group of three of a number) stands for one of the missing colours (RULES.md §5
    decision 3) — a person reads it so."""
    real = [c for c in group if not c.is_joker]
    if not real or all(c.designated for c in group if c.is_joker):
        return group
    if len({c.rank for c in real}) != 1:
        return group
    missing = [s for s in SUITS if s not in {c.suit for c in real}]
    out = []
    for card in group:
        if card.is_joker and not card.designated and missing:
            card = card.designate(real[0].rank, missing.pop(0))
        out.append(card)
    return out


@dataclass
class Sight:
    """What a person has in front of them at the start of their turn."""

    hand: list[Card]  # the cards of their own hand, from the card buttons (every page)
    table: list[list[Card]]  # from the table's message
    singles: list[Card] = field(default_factory=list)
    legal: set[str] = field(default_factory=set)  # from the turn's buttons
    first_lay_done: bool = True  # their caption says "first lay: …" until it is
    draws: int = 0  # "you drew n"
    final: bool = False  # "final turn: lay or pass"
    others: list[int] = field(default_factory=list)  # the other seats' counts, when read
    version: int = 0


def read_caption(caption: str, lang: str, sight: Sight) -> None:
    """What the private caption's title line says about this turn."""
    title = i18n.strip_bidi(caption).split("\n", 1)[0]
    first = (_template("first lay: a run of three from your hand", lang),
             _template("initial meld: {n} from your rack", lang))
    sight.first_lay_done = not any(p.search(title) for p in first)
    drew = _template("you drew {n}", lang).search(title)
    sight.draws = int(drew.group(1)) if drew else 0
    sight.final = bool(_template("final turn: lay or pass", lang).search(title))


def my_turn(caption: str, lang: str) -> bool:
    with i18n.using(lang):
        yours = i18n._("Your turn")
    return i18n.strip_bidi(caption or "").startswith(yours)


@dataclass(frozen=True)
class Plan:
    """What the person will do: lay (`commit`/`knock` with the hand cards to select, then
    Auto-place and Done/Knock), or press `draw`, `pass`, `knock`."""

    kind: str
    tokens: tuple[str, ...] = ()


def view_of(sight: Sight, rulebook: str, options: dict) -> PlayerView:
    """The engine's view of a seat, rebuilt from what the person sees (seat 0: their own)."""
    counts = (len(sight.hand), *(sight.others or [max(1, len(sight.hand))]))
    return PlayerView(
        seat=0, rulebook=rulebook, options=dict(options), round=1, phase="play", turn=0,
        stock=10, table=tuple(tuple(g) for g in sight.table), singles=tuple(sight.singles),
        hand=tuple(sight.hand), hand_counts=counts, scores=(0,) * len(counts), draft=None,
        draft_hand=tuple(sight.hand), changed=frozenset(),
        legal=tuple(sorted(set(ALWAYS) | {"reset"} | sight.legal)), draws=sight.draws,
        first_lay_done=sight.first_lay_done, final_turns=1 if sight.final else None, hint=None,
        last=None, rounds=(), result=None, version=sight.version, reminded=False,
        give_up_armed=False,
    )


def decide(sight: Sight, rulebook: str, options: dict | None = None,
           level: str = "medium") -> Plan:
    """Think like the computer of that level would, on what this person sees."""
    action = choose_action(view_of(sight, rulebook, options or {}), level)
    return plan_of(action, sight.hand)


def plan_of(action: object, hand: Sequence[Card]) -> Plan:
    if isinstance(action, (Commit, Knock)) and action.arrangement is not None:
        mine = {c.ident: c for c in hand}
        # a joker from the hand is selected as its button shows it: undesignated
        placed = tuple(mine[c.ident].free().token for g in action.arrangement for c in g
                       if c.ident in mine)
        return Plan("knock" if isinstance(action, Knock) else "commit", placed)
    if isinstance(action, Knock):
        return Plan("knock")
    if isinstance(action, Draw):
        return Plan("draw")
    if isinstance(action, Pass):
        return Plan("pass")
    if isinstance(action, Commit):
        return Plan("done")
    return Plan(type(action).__name__.lower())
