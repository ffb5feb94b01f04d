"""The rulebooks as data (RULES.md §2, §5), built from a name plus options.

Seven card rulebooks (`RULEBOOKS`) and Rummikub, played with tiles (`TILE_RULEBOOKS`;
engine/rummy/tiles.py: a tile is a card with another notation); the chats offer all
(`ALL_RULEBOOKS`).

One frozen `Rulebook` per name and option set. The game loop reads these fields; there is one
loop for all seven. Three fields name presets (engine/rummy/styles.py), each reached as a policy:

- `turn` -> `turn_style`      `draw-until-lay` (Manipulation, Shanghai: draw one card at a time
                              until you lay), `draw-or-play` (Machiavelli, Vatican, Tahiti: lay,
                              or draw one card, which ends the turn), `draw-two-or-play+1`
                              (Guadeloupe: lay, then draw one unless out; or draw two),
                              `carousel` (draw first; then lay, knock or draw again, up to three).
- `scoring` -> `score_style`  `penalty`, `count`, `none`, `carousel` (`higher_is_better`).
- `length` -> `game_end`      `single`, `to-target`, `open`, `carousel`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal

from engine.cards import Card, make_deck

from .melds import AcePolicy
from .styles import GAME_ENDS, SCORE_STYLES, TURN_STYLES, GameEnd, ScoreStyle, TurnStyle

TurnName = Literal["draw-until-lay", "draw-or-play", "draw-two-or-play+1", "carousel"]
JokerRule = Literal["none", "movable", "immobile", "locks-group", "rack-frees"]
Scoring = Literal["penalty", "count", "carousel", "none", "rummikub"]
GameLength = Literal["single", "to-target", "open", "carousel", "rounds"]

RULEBOOKS: tuple[str, ...] = (
    "manipulation",
    "machiavelli",
    "shanghai",
    "guadeloupe",
    "carousel",
    "vatican",
    "tahiti",
)
# Played with tiles (the chats, the terminal and the lessons offer ALL_RULEBOOKS).
TILE_RULEBOOKS: tuple[str, ...] = ("rummikub",)
ALL_RULEBOOKS: tuple[str, ...] = RULEBOOKS + TILE_RULEBOOKS

# Options: name -> (allowed values, default). Values are strings, except play_to.
MUST_LAY = ("must_lay", ("remind", "trust"), "remind")
PLAY_TO = ("play_to", (200, 300), 200)
UNFINISHED = ("unfinished_move", ("reset", "give_back_draw_3"), "reset")
# Rummikub (RULES.md §5, its option table)
INITIAL_MELD = ("initial_meld", (30, 20), 30)
INITIAL_TURN = ("initial_turn", ("own_only", "may_add"), "own_only")
FAILED_MOVE = ("failed_move", ("draw_3", "draw_1", "reset"), "draw_3")
TURN_TIMER = ("turn_timer", ("off", 60), "off")
WRAP = ("wrap", ("off", "on"), "off")
ROUNDS = ("rounds", (1, 3, 5), 1)

CARD_VALUE_TABLES: dict[str, Callable[[Card], int]] = {
    # Manipulation penalties: Ace 15, tens and face cards 10, any other card 5.
    "manipulation": lambda c: 15 if c.rank == 1 else 10 if c.rank >= 10 else 5,
    # Carousel: joker 25, face card 10, ace 1, other cards face value.
    "carousel": lambda c: 25 if c.is_joker else 10 if c.rank >= 11 else c.rank,
    # Tahiti: joker 30, ace 11, face card 10, other cards face value.
    "tahiti": lambda c: 30 if c.is_joker else 11 if c.rank == 1 else 10 if c.rank >= 11 else c.rank,
    # One point a card (Machiavelli, Shanghai, Guadeloupe; Vatican counts cards when blocked).
    "count": lambda c: 1,
    # Rummikub: a tile counts its number, a joker 30.
    "rummikub": lambda c: 30 if c.is_joker else c.rank,
}


@dataclass(frozen=True)
class Rulebook:
    name: str
    title: str
    hand_size: int
    ace: AcePolicy
    turn: TurnName  # a TURN_STYLES name: see `turn_style`
    decks: int = 2
    jokers: int = 0
    small_decks: int = 0  # Carousel with 2 players: one deck...
    small_jokers: int = 0  # ...and one joker
    deal_batches: tuple[int, ...] = ()
    singles: int = 0
    must_lay: bool = False
    remind: bool = False  # must-lay obligation: remind with a hint (else trust the player)
    give_back: bool = False  # unfinished move: give back, draw 3 (else reset, no penalty)
    joker_rule: JokerRule = "none"
    one_joker_per_group: bool = False
    first_lay_run3: bool = False
    values: str = "count"
    scoring: Scoring = "count"
    length: GameLength = "single"
    play_to: int = 0
    knock_limit: int = 0
    max_players: int = 5
    tiles: bool = False  # played with Rummikub tiles (engine/rummy/tiles.py), not cards
    starting_draw: bool = False  # each seat draws a tile: the highest starts (RULES.md §5)
    first_lay_points: int = 0  # the first lay (initial meld) is worth at least this much
    initial_may_add: bool = False  # ... and, once down, the same move may use the table
    give_up_draw: int = 3  # cards a Give up draws (with `give_back`)
    round_count: int = 0  # length "rounds": the game is this many rounds
    turn_seconds: int = 0  # a turn timer the platform runs (0: none); running out is TimeUp
    option_spec: tuple[tuple[str, tuple, object], ...] = ()
    options: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def deck_for(self, players: int) -> tuple[int, int]:
        """(decks, jokers) for this many players."""
        if players == 2 and self.small_decks:
            return self.small_decks, self.small_jokers
        return self.decks, self.jokers

    @property
    def needs_first_lay(self) -> bool:
        """Does a seat's first lay follow a rule of its own (Vatican's run, Rummikub's meld)?"""
        return self.first_lay_run3 or self.first_lay_points > 0

    def make_deck(self, decks: int, jokers: int) -> list[Card]:
        """This rulebook's cards (or tiles) in their fixed order, before any shuffle."""
        if self.tiles:
            from .tiles import make_tiles

            return list(make_tiles(decks, jokers))
        return make_deck(decks, jokers)

    def card_value(self, card: Card) -> int:
        return CARD_VALUE_TABLES[self.values](card)

    def hand_value(self, cards: list[Card]) -> int:
        return sum(self.card_value(c) for c in cards)

    @property
    def turn_style(self) -> TurnStyle:
        """How a turn goes (the policy named by `turn`)."""
        return TURN_STYLES[self.turn]

    @property
    def score_style(self) -> ScoreStyle:
        """How a round is scored (the policy named by `scoring`)."""
        return SCORE_STYLES[self.scoring]

    @property
    def game_end(self) -> GameEnd:
        """When the game ends and how it is won (the policy named by `length`)."""
        return GAME_ENDS[self.length]

    @property
    def higher_is_better(self) -> bool:
        """Which way the totals rank seats: Carousel counts points won, the others points
        left in hand (penalties), where the lowest total wins."""
        return self.score_style.higher_is_better

    def best(self, totals: Sequence[int]) -> list[int]:
        """The seats with the best of `totals` under this rulebook (several: a tie)."""
        top = max(totals) if self.higher_is_better else min(totals)
        return [i for i, t in enumerate(totals) if t == top]

    @property
    def max_jokers_per_group(self) -> int | None:
        return 1 if self.one_joker_per_group else None

    @property
    def batches(self) -> tuple[int, ...]:
        return self.deal_batches or (self.hand_size,)

    def describe(self) -> str:
        """`Manipulation · must lay: remind · play to 200`."""
        parts = [self.title]
        for key, _, _ in self.option_spec:
            value = self.options[key]
            parts.append(f"{key.replace('_', ' ')}: {str(value).replace('_', ' ')}")
        return " · ".join(parts)


_BASE: dict[str, Rulebook] = {
    "manipulation": Rulebook(
        "manipulation",
        "Manipulation",
        hand_size=7,
        ace="high",
        turn="draw-until-lay",
        must_lay=True,
        values="manipulation",
        scoring="penalty",
        length="to-target",
        option_spec=(MUST_LAY, PLAY_TO),
    ),
    "machiavelli": Rulebook(
        "machiavelli",
        "Machiavelli",
        hand_size=13,
        ace="either",
        turn="draw-or-play",
        option_spec=(UNFINISHED,),
    ),
    "shanghai": Rulebook(
        "shanghai",
        "Shanghai",
        hand_size=10,
        ace="low",
        turn="draw-until-lay",
        deal_batches=(3, 3, 3, 1),
        must_lay=True,
        length="open",
        option_spec=(MUST_LAY,),
    ),
    "guadeloupe": Rulebook(
        "guadeloupe",
        "Guadeloupe",
        hand_size=5,
        ace="either",
        turn="draw-two-or-play+1",
        option_spec=(UNFINISHED,),
    ),
    "carousel": Rulebook(
        "carousel",
        "Carousel",
        hand_size=10,
        ace="ends",
        turn="carousel",
        jokers=2,
        small_decks=1,
        small_jokers=1,
        joker_rule="movable",
        values="carousel",
        scoring="carousel",
        length="carousel",
        play_to=150,
        knock_limit=5,
    ),
    "vatican": Rulebook(
        "vatican",
        "Vatican",
        hand_size=13,
        ace="ends",
        turn="draw-or-play",
        jokers=2,
        joker_rule="immobile",
        first_lay_run3=True,
        scoring="none",
    ),
    "tahiti": Rulebook(
        "tahiti",
        "Tahiti",
        hand_size=5,
        ace="either",
        turn="draw-or-play",
        jokers=4,
        singles=4,
        joker_rule="locks-group",
        one_joker_per_group=True,
        values="tahiti",
        scoring="penalty",
        option_spec=(UNFINISHED,),
    ),
    # Tiles: numbers 1-13 in four colours twice, 2 jokers (106); 1 always low (ace "low").
    "rummikub": Rulebook(
        "rummikub",
        "Rummikub",
        hand_size=14,
        ace="low",
        max_players=4,
        turn="draw-or-play",
        jokers=2,
        joker_rule="rack-frees",
        values="rummikub",
        scoring="rummikub",
        length="rounds",
        tiles=True,
        starting_draw=True,
        first_lay_points=30,
        give_back=True,
        round_count=1,
        option_spec=(INITIAL_MELD, INITIAL_TURN, FAILED_MOVE, TURN_TIMER, WRAP, ROUNDS),
    ),
}


def _coerce(name: str, key: str, value: object, allowed: tuple) -> object:
    for candidate in allowed:
        if value == candidate or str(value).strip().lower() == str(candidate):
            return candidate
    choices = " | ".join(str(a) for a in allowed)
    raise ValueError(f"{name.title()}: option {key} must be one of {choices}, not {value!r}")


def get_rulebook(name: str = "manipulation", **options: object) -> Rulebook:
    """`get_rulebook("manipulation", must_lay="trust", play_to=300)`."""
    key = str(name).strip().lower()
    if key not in _BASE:
        raise ValueError(f"Unknown rulebook {name!r}. Rulebooks: {', '.join(ALL_RULEBOOKS)}")
    base = _BASE[key]
    spec = {k: (allowed, default) for k, allowed, default in base.option_spec}
    for opt in options:
        if opt not in spec:
            if spec:
                have = "; ".join(f"{k} ({' | '.join(map(str, a))})" for k, (a, _) in spec.items())
                raise ValueError(f"{base.title} has no option {opt!r}. Its options: {have}")
            raise ValueError(f"{base.title} has no option {opt!r}: it has no options")
    chosen = {
        k: _coerce(key, k, options[k], allowed) if k in options else default
        for k, (allowed, default) in spec.items()
    }
    changes: dict[str, object] = {"options": MappingProxyType(chosen)}
    if "must_lay" in chosen:
        changes["remind"] = chosen["must_lay"] == "remind"
    if "play_to" in chosen:
        changes["play_to"] = chosen["play_to"]
    if "unfinished_move" in chosen:
        changes["give_back"] = chosen["unfinished_move"] == "give_back_draw_3"
    if "initial_meld" in chosen:  # Rummikub
        changes["first_lay_points"] = chosen["initial_meld"]
        changes["initial_may_add"] = chosen["initial_turn"] == "may_add"
        failed = chosen["failed_move"]
        changes["give_back"] = failed != "reset"
        changes["give_up_draw"] = {"draw_3": 3, "draw_1": 1, "reset": 0}[failed]
        changes["turn_seconds"] = 0 if chosen["turn_timer"] == "off" else chosen["turn_timer"]
        changes["ace"] = "wrap" if chosen["wrap"] == "on" else "low"
        changes["round_count"] = chosen["rounds"]
    return replace(base, **changes)


def option_choices(name: str) -> dict[str, tuple]:
    """The options a rulebook has and their allowed values (first = default)."""
    base = _BASE[name]
    return {
        k: (default, *[a for a in allowed if a != default])
        for k, allowed, default in base.option_spec
    }
