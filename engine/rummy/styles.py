"""The named presets a rulebook picks from, as small frozen policies (RULES.md §2, §4).

A `Rulebook` names its presets (`turn`, `scoring`, `length`: strings, as in its options and
saved games); the game loop reads the policy behind each name and never compares the names:

- `TurnStyle`   how a turn goes: what Draw does, whether a turn opens with a draw, knocking,
                what happens once the stock is empty.
- `ScoreStyle`  what a hand left is worth at the end of a round, who takes points, and which
                way totals rank the seats.
- `GameEnd`     when the game is over and how its winner is found.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class TurnStyle:
    """How a turn goes. Every style: the seat lays, or draws; a lay ends the turn."""

    name: str
    draw_count: int = 1  # cards one Draw takes (fewer when the stock has fewer)
    draw_ends_turn: bool = True  # a Draw ends the turn (else: draw again, or lay)
    draw_first: bool = False  # the turn opens with a Draw: lay, knock or pass only after it
    draw_limit: int = 0  # draw_first: the Draw that makes this many ends the turn (0: none)
    draw_after_lay: int = 0  # cards drawn after a lay that leaves cards in hand
    knock: bool = False  # after one or two draws a seat may knock (`Rulebook.knock_limit`)
    # Once the stock is empty: "pass" — a seat passes instead of drawing, and the round is
    # blocked when every seat has passed in a row; "final_turns" — whoever drew the last card
    # and did not knock ends the turn, then every seat (that one included) has one more turn
    # to lay or pass without drawing, and the round ends.
    stock_out: Literal["pass", "final_turns"] = "pass"


TURN_STYLES: dict[str, TurnStyle] = {
    # Manipulation, Shanghai: draw one card at a time until you lay (must lay if you can).
    "draw-until-lay": TurnStyle("draw-until-lay", draw_ends_turn=False),
    # Machiavelli, Vatican, Tahiti: lay, or draw one card (which ends the turn).
    "draw-or-play": TurnStyle("draw-or-play"),
    # Guadeloupe: lay (then draw one unless out), or draw two.
    "draw-two-or-play+1": TurnStyle("draw-two-or-play+1", draw_count=2, draw_after_lay=1),
    # Carousel: draw first; then lay, knock or draw again; the third card ends the turn.
    "carousel": TurnStyle(
        "carousel",
        draw_ends_turn=False,
        draw_first=True,
        draw_limit=3,
        knock=True,
        stock_out="final_turns",
    ),
}


@dataclass(frozen=True)
class ScoreStyle:
    """How a finished round is scored (engine/rummy/scoring.py reads it)."""

    name: str
    # What decides a blocked round and what a penalty is: the hand's card values ("points")
    # or its number of cards ("cards"); the fewest wins.
    measure: Literal["points", "cards"] = "cards"
    penalties: bool = True  # every seat but the one who went out takes its hand's measure
    # The round's winner scores points won from the other hands (Carousel): then totals rank
    # the seats highest first; otherwise they are penalties, lowest first.
    winner_scores: bool = False
    # Rummikub: the others score minus what their hands weigh (or, blocked, minus what they
    # weigh beyond the winner's), and the winner plus the total of those minuses.
    others_lose: bool = False

    @property
    def higher_is_better(self) -> bool:
        return self.winner_scores


SCORE_STYLES: dict[str, ScoreStyle] = {
    "penalty": ScoreStyle("penalty", measure="points"),  # Manipulation, Tahiti
    "count": ScoreStyle("count"),  # Machiavelli, Shanghai, Guadeloupe: 1 a card
    "none": ScoreStyle("none", penalties=False),  # Vatican: nobody scores
    "carousel": ScoreStyle("carousel", measure="points", penalties=False, winner_scores=True),
    "rummikub": ScoreStyle("rummikub", measure="points", penalties=False, winner_scores=True,
                           others_lose=True),
}


@dataclass(frozen=True)
class GameEnd:
    """When the game ends and who wins it; "best" is the rulebook's way (`higher_is_better`)."""

    name: str
    # "one": the single round decides; "target": rounds until a total reaches
    # `Rulebook.play_to`, then the best total wins; "open": rounds until the players Finish
    # (after a round), then the best total wins and a shared best is a draw; "fixed":
    # `Rulebook.round_count` rounds, then the best total wins (a shared best: a shared win).
    rounds: Literal["one", "target", "open", "fixed"] = "one"
    tie_at_target: Literal["play_on", "draw"] = "draw"  # a shared best total at the target
    end_bonuses: bool = False  # Carousel: +100 for reaching the target, +25 a round won

    @property
    def finish_by_choice(self) -> bool:
        """The players end the game (Finish) instead of its rules."""
        return self.rounds == "open"


GAME_ENDS: dict[str, GameEnd] = {
    "single": GameEnd("single"),  # Machiavelli, Guadeloupe, Vatican, Tahiti
    "to-target": GameEnd("to-target", rounds="target", tie_at_target="play_on"),  # Manipulation
    "open": GameEnd("open", rounds="open"),  # Shanghai
    "carousel": GameEnd("carousel", rounds="target", end_bonuses=True),
    "rounds": GameEnd("rounds", rounds="fixed"),  # Rummikub: 1, 3 or 5 rounds
}
