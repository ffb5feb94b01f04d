"""Issue 45: a referee of Rummikub's joker rule over seeded computer games (RULES.md §5 and
decision 3), every level and every option: after every lay, each table joker either stayed —
with a tile that was with it in its combination, standing for its tile (a floater: either
missing colour, with its whole group of three) — or a tile of the face that frees it came from
the rack, and the freed joker is in a combination new to the table with two other tiles from
the rack. Written from the rule's text, apart from engine/rummy/tile_rules.py: the jokers by
their physical tile, the tiles by face (the two copies of a tile are equal for play)."""

from __future__ import annotations

import os
from collections import Counter
from itertools import cycle, islice

import pytest
from tiers import sampled

from engine.rummy import get_rulebook
from engine.rummy.playout import play_game

OPTIONS = [
    {},
    {"initial_meld": "20"},
    {"initial_turn": "may_add"},
    {"failed_move": "draw_1"},
    {"failed_move": "reset", "turn_timer": "60"},
    {"wrap": "on"},
    {"rounds": "3", "initial_turn": "may_add", "wrap": "on"},
]
LEVELS = ["easy", "medium", "hard"]
# The issue asks for 300 games at least: `make test-deep` plays them (RUMMY_JOKER_GAMES=300,
# about 4 CPU-minutes); the default 60 (every option with every seat count and level mix,
# 21 kinds, each two or three times) keeps the suite's quick loop quick.
GAMES = int(os.environ.get("RUMMY_JOKER_GAMES", "60"))
CHUNKS = 10
SEEN: Counter[str] = Counter()


def _real_faces(group) -> Counter[str]:
    return Counter(c.face for c in group if not c.is_joker)


def _frees(group, joker) -> set[str]:
    """The faces whose tile from the rack frees this joker: in a group of three of one number
    either missing colour, else only the tile it stands for."""
    others = [c for c in group if c is not joker]
    if len(group) == 3 and all(c.play_rank == joker.as_rank for c in others):
        colours = {c.play_suit for c in others}
        return {type(joker)(joker.as_rank, s).face for s in "SHDC" if s not in colours}
    return {type(joker)(joker.as_rank, joker.as_suit).face}


def referee(before, after, seat: int) -> list[str]:
    """What the lay from `before` to `after` by `seat` broke of the joker rule."""
    faults = []
    laid = Counter(c.face for c in before.hands[seat]) - Counter(c.face for c in after.hands[seat])
    spare = Counter({f: n for f, n in laid.items() if f != "*"})
    homes = []
    for group in before.table:
        for joker in (c for c in group if c.is_joker and c.designated):
            new = next(g for g in after.table if any(c.ident == joker.ident for c in g))
            now = next(c for c in new if c.ident == joker.ident)
            with_it = _real_faces(group) & _real_faces(new)
            same = now.designated and now.play_face == joker.play_face
            whole = (not _real_faces(group) - _real_faces(new)
                     and all(c.play_rank == joker.as_rank for c in new)
                     and now.designated and now.play_face in _frees(group, joker))
            if with_it and (same or whole):
                SEEN["stayed"] += 1
                continue
            freeing = sorted(f for f in _frees(group, joker) if spare[f] > 0)
            if not freeing:
                faults.append(f"{joker} left {[str(c) for c in group]} for "
                              f"{[str(c) for c in new]} with no tile from the rack")
                continue
            spare[freeing[0]] -= 1
            homes.append(new)
            SEEN["freed"] += 1
    before_groups = Counter(tuple(sorted(map(str, g))) for g in before.table)
    for new in homes:
        if before_groups[tuple(sorted(map(str, new)))]:
            faults.append(f"a freed joker went into {[str(c) for c in new]}, already on the table")
        if sum(min(n, spare[f]) for f, n in _real_faces(new).items()) < 2:
            faults.append(f"a freed joker went into {[str(c) for c in new]} with fewer than two "
                          "other tiles from the rack")
    return faults


def _games(chunk: int):
    per = -(-GAMES // CHUNKS)
    for n in range(chunk * per, min(GAMES, (chunk + 1) * per)):
        players = 2 + n % 3
        levels = list(islice(cycle(LEVELS), n % 3, n % 3 + players))
        yield n, OPTIONS[n % len(OPTIONS)], levels


@pytest.mark.parametrize("chunk", sampled(range(CHUNKS), keep={0}))
def test_no_joker_leaves_its_combination_without_its_tile_from_the_rack(chunk):
    faults: list[str] = []

    def check(before, action, after) -> None:
        if action.kind in ("commit", "knock") and after.table != before.table:
            SEEN["lays"] += 1
            faults.extend(f"game {n} {options} {levels}: {f}"
                          for f in referee(before, after, action.seat))

    for n, options, levels in _games(chunk):
        record = play_game(get_rulebook("rummikub", **options), levels, 4500 + n,
                           on_action=check)
        assert not record.violations, (n, options, levels, record.violations)
    assert not faults, faults[:5]
    assert SEEN["lays"] > 0
