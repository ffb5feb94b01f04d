"""The solver's own group order (engine/rummy/solver `_arrange`, its sort keys read from the
card fields) is melds.arrange's, on every group shape, with jokers and both copies."""

from __future__ import annotations

import random

import pytest

from engine.cards import JOKER, Card
from engine.rummy.melds import Reading, arrange
from engine.rummy.solver import _arrange
from engine.rummy.solver.model import face_rank, face_suit, templates
from engine.rummy.tiles import Tile


@pytest.mark.parametrize("ace", ["high", "low", "either", "ends", "wrap"])
@pytest.mark.parametrize("kind", [Card, Tile])
def test_arrange_matches_melds(ace, kind):
    rng = random.Random(f"arrange/{ace}/{kind.__name__}")
    shapes = templates(ace)
    assert shapes
    checked = 0
    for t in shapes:
        for _ in range(3):
            cards = []
            for f in t.faces:
                rank, suit = face_rank(f), face_suit(f)
                if rng.random() < 0.25:  # a joker standing for this face
                    cards.append(kind(JOKER, "", rng.randrange(4), rank, suit))
                else:
                    cards.append(kind(rank, suit, rng.randrange(2)))
            rng.shuffle(cards)
            want = arrange(cards, Reading(t.kind, (), t.start, wrap=t.wrap))
            got = _arrange(list(cards), t)
            assert [(*c.ident, c.as_rank, c.as_suit) for c in got] == \
                [(*c.ident, c.as_rank, c.as_suit) for c in want], (t, cards)
            checked += 1
    assert checked >= 3 * len(shapes)
