"""What one seat may see (decision 10): its hand, every face-up card, every discard pile, the
build piles, and counts of the stocks and hands. All a computer player or a screen gets."""

from __future__ import annotations

from dataclasses import dataclass

from .state import BuildState


@dataclass(frozen=True)
class BuildView:
    seat: int
    players: int
    turn: int
    over: bool
    winners: tuple[int, ...]
    hand: tuple[str, ...]
    face_up: tuple[str | None, ...]  # every seat's face-up stock card (None: stock empty)
    stock_counts: tuple[int, ...]
    hand_counts: tuple[int, ...]
    discards: tuple[tuple[tuple[str, ...], ...], ...]  # every seat's piles, bottom -> top
    builds: tuple[tuple[str, ...], ...]
    general_count: int
    aside_count: int
    version: int
    stuck: bool = False

    def needed(self, pile: int) -> int:
        return len(self.builds[pile]) + 1


def player_view(state: BuildState, seat: int) -> BuildView:
    return BuildView(
        seat=seat,
        players=state.players,
        turn=state.turn,
        over=state.over,
        winners=tuple(state.winners),
        hand=tuple(state.hands[seat]),
        face_up=tuple(state.face_up(i) for i in range(state.players)),
        stock_counts=tuple(len(s) for s in state.stocks),
        hand_counts=tuple(len(h) for h in state.hands),
        discards=tuple(tuple(tuple(p) for p in piles) for piles in state.discards),
        builds=tuple(tuple(b) for b in state.builds),
        general_count=len(state.general),
        aside_count=len(state.aside),
        version=state.version,
        stuck=state.stuck,
    )
