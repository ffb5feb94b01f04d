"""Discord custom ids are client-supplied: fuzz the two DynamicItem templates and what the
adapter makes of a match (a lesson's are a game's) — never an exception, never two claims,
and every id the layout writes comes back as exactly the data it carries."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import bot.games.rummy.vocabulary  # noqa: F401  (registers the rummy family's verbs)
from bot.adapters.discord_layout import (
    BUTTON_TEMPLATE,
    PREFIX,
    SELECT_TEMPLATE,
    custom_id,
)
from bot.core.buttons import parse

BUTTON, SELECT = re.compile(BUTTON_TEMPLATE), re.compile(SELECT_TEMPLATE)
ALPHABET = "rt:L0123456789@cardspick~_#=*,SHDCAJQKaz٣²\u202e\x00 "


def _data(match: re.Match[str]) -> str:
    """What discord_ui hands the core for a button (as GameButton.from_custom_id builds it)."""
    return f"{match['game']}:{match['version']}:{match['action']}"


def _claims(text: str) -> list[str]:
    return [n for n, r in (("button", BUTTON), ("select", SELECT)) if r.fullmatch(text)]


def _mutations() -> st.SearchStrategy[str]:
    valid = st.sampled_from([
        custom_id(7, 3, "tc:2:QS#1"), custom_id(7, 3, "draw"), custom_id(12, 0, "join"),
        custom_id(5, 1, "go:tahiti"), custom_id(5, 1, "s1:5H#0"),
        f"{PREFIX}7:3:@cards", f"{PREFIX}7:3:@pick2", f"{PREFIX}L:7:3:draw",
    ])
    return st.tuples(valid, st.integers(0, 40), st.text(ALPHABET, max_size=8)).map(
        lambda t: t[0][: t[1]] + t[2] + t[0][t[1]:]
    )


@settings(max_examples=600, deadline=None)
@given(st.one_of(st.text(max_size=100), st.text(ALPHABET, max_size=100), _mutations()))
def test_any_custom_id_is_claimed_at_most_once_and_parsed_strictly(text: str) -> None:
    claims = _claims(text)
    assert len(claims) <= 1, (text, claims)
    match = BUTTON.fullmatch(text)
    if match is not None:
        data = _data(match)
        press = parse(data)
        if press is not None:  # what the core believes is exactly what was sent
            assert (press.game_id, press.version) == (int(match["game"]), int(match["version"]))
            assert press.action == match["action"]


def test_a_long_id_is_refused_quickly_and_whole() -> None:
    for text in (PREFIX + "1:1:" + "a" * 100_000, PREFIX + "L:" * 50_000,
                 PREFIX + "1" * 100_000 + ":1:draw"):
        assert _claims(text) == []


@given(st.integers(0, 2**31 - 1), st.integers(0, 10**9 - 1),
       st.sampled_from(["draw", "tc:25:*#1=10H", "jk:3:5H,6H", "opt:play_to:300", "pg:12",
                        "go:manipulation", "spa:3:2"]))
def test_every_id_the_layout_writes_comes_back_as_its_data(game, version, action):
    text = custom_id(game, version, action)
    assert _claims(text) == ["button"]
    match = BUTTON.fullmatch(text)
    assert _data(match) == f"{game}:{version}:{action}"


def test_a_lessons_component_from_before_0008_is_still_claimed() -> None:
    """Lessons' components were `rt:L:<game>:<version>:…` until they became hosted games: one
    clicked in an old DM is the same row's press (for an older version), not a dead button."""
    match = BUTTON.fullmatch("rt:L:7:3:s1:5H#0")
    assert match is not None and (match["game"], match["version"], match["action"]) == (
        "7", "3", "s1:5H#0")
    assert SELECT.fullmatch("rt:L:7:3:@cards") is not None
    assert BUTTON.fullmatch("rt:L:L:7:3:done") is None
