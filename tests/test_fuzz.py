"""Property-based fuzzing of every button vocabulary and every typed verb, through the core.

Random and adversarial data — numbers at and past every bound, unicode digits, forged tokens,
other chats and other seats — must each be answered within a time limit, with no exception
logged, every card still in exactly one place and no private screen sent to the wrong person.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core import buttons
from bot.core.record import Record
from bot.core.service import Actor, GameService, pack
from bot.games import default_games
from bot.games.rummy.records import state_of
from bot.games.rummy.typed import TYPED_VERBS
from bot.games.rummy.vocabulary import RUMMY_VERBS
from bot.store import Store
from engine.rummy import player_view
from engine.rummy.state import conservation_errors

# Per vocabulary (hypothesis' own count is printed with --hypothesis-show-statistics): 150 in the
# suite, `make test-deep` fuzzes 400 (RUMMY_FUZZ_EXAMPLES); the parser alone gets five times as
# many (it is fast).
EXAMPLES = int(os.environ.get("RUMMY_FUZZ_EXAMPLES", "150"))
ANSWER_WITHIN = 10.0
ALICE = Actor("fuzz", "-1", "1", "Alice")
BOB = Actor("fuzz", "-1", "2", "Bob")
EVE = Actor("fuzz", "-1", "3", "Eve")
MALLORY = Actor("fuzz", "-9", "9", "Mallory")
ACTORS = [
    ALICE, BOB, EVE, MALLORY,
    Actor("fuzz", "1", "1", "Alice", private=True),
    Actor("fuzz", "2", "2", "Bob", private=True),
    Actor("fuzz", "9", "9", "Mallory", private=True),
]
FACES = ["7H", "10S", "QS", "AC", "KD", "*", "2H", "ZZ", "", "7H#9", "*#0=7H"]
# Rummikub's tile notation and tokens, and near misses (no 14, no 0, no fifth colour)
TILES = ["7R", "13O", "1K", "10B", "*", "*7R", "14R", "0K", "7G", "7R#1", "*T#0", "*T#1=7R",
         "*T#1=14R", "13O#9"]


class Table:
    """One store and service for all examples of a test (hypothesis runs the body many times)."""

    def __init__(self, path, rulebook: str = "tahiti") -> None:
        self.rulebook = rulebook
        self.loop = asyncio.new_event_loop()
        self.store = self.run(Store.open(f"sqlite+aiosqlite:///{path}"))
        self.service = GameService(self.store, games=default_games(), computer_delay=3600)
        # thousands of presses a second from the same people: fair use is tested on its own
        self.service.fair_use.users.rate = self.service.fair_use.chats.rate = 1e9
        self.game_id = 0
        self.lesson_id = 0
        self.cases = 0

    def run(self, awaitable):
        return self.loop.run_until_complete(asyncio.wait_for(awaitable, ANSWER_WITHIN))

    def close(self) -> None:
        self.run(self.store.close())
        self.loop.close()

    def game(self) -> int:
        """A running two-person game in chat -1 (a new one if the last has ended)."""
        row = self.run(self.store.active_game("fuzz", "-1"))
        if row is not None and row.status == "playing":
            return row.id
        if row is not None:
            self.run(self.service.command(ALICE, "endgame"))
        out = self.run(self.service.new_game(ALICE, self.rulebook))
        gid = out.game_id
        out = self.run(self.service.press(BOB, pack(gid, 0, "join")))
        out = self.run(self.service.press(ALICE, pack(gid, out.group.version, "start")))
        assert out.group_new, out.reply
        self.game_id = gid
        return gid

    def lesson(self) -> int:
        me = ACTORS[4]
        out = self.run(self.service.command(me, "lesson", "manipulation"))
        self.lesson_id = out.game_id or self.run(self.lesson_here(me))
        return self.lesson_id

    async def lesson_here(self, actor) -> int | None:
        """The lesson running in this actor's chat, if any."""
        row = await self.store.active_game(actor.platform, actor.chat_id)
        return row.id if row is not None and row.record.get("lesson") else None

    def check(self, out, actor) -> None:
        """Invariants after one answered press or command."""
        self.cases += 1
        assert out is not None
        if out.game_id is not None and out.game_id != self.game_id:  # the actor's own lesson
            assert set(out.private) <= {actor.user}, "a lesson's screen went to someone else"
            return
        row = self.run(self.store.get_game(self.game_id))
        rec = Record.from_dict(row.record)
        state = state_of(rec)
        if state is None:
            return
        assert not conservation_errors(state)
        for user, screen in out.private.items():
            seat = rec.seat_of(user)
            assert seat is not None, f"a private screen for {user}, who has no seat"
            hand_line = next(x for x in screen.text.splitlines()
                             if x.startswith(("Hand:", "Rack:")))
            mine = sorted(c.pretty() for c in player_view(state, seat).draft_hand)
            shown = sorted(hand_line.split()[2::2])
            assert shown == mine, "a private screen shows another seat's hand"
        if actor.user not in {s.user for s in rec.seats}:
            assert not out.private, "a stranger was sent a private screen"


_TABLES: dict[str, Table] = {}


def _table(test: str, tmp_path_factory, sqlite_template, rulebook: str = "tahiti") -> Table:
    """The test's one Table, made at its first example."""
    if test not in _TABLES:
        path = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
        shutil.copy(sqlite_template, path)
        _TABLES[test] = Table(path, rulebook)
    return _TABLES[test]


numbers = st.one_of(
    st.integers(-3, 300).map(str),
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["²", "١", "٣", "-0", "+1", " 1", "1 ", "0x1", "1e3", "00", "", "∞"]),
)
args = st.one_of(numbers, st.sampled_from(FACES).map(lambda f: f + "#0" if f else f),
                 st.sampled_from(FACES), st.sampled_from(TILES), st.text(max_size=12),
                 st.sampled_from(["5H,6H", "5H,", ",", "easy", "tahiti", "nope", "play_to"]))


def _data(gid_text: str, version_text: str, verb: str, parts: list[str]) -> str:
    return ":".join([gid_text, version_text, verb, *parts])


def game_data(verbs):
    return st.one_of(
        st.builds(
            _data,
            st.one_of(st.just("{gid}"), numbers),
            st.one_of(st.just("{ver}"), numbers),
            st.sampled_from([*verbs, "zz", "JOIN", "tc ", ""]),
            st.lists(args, max_size=3),
        ),
        st.text(max_size=80),
        st.binary(max_size=80).map(lambda b: b.decode("utf-8", "replace")),
    )


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_game_buttons_fuzzed_through_the_core(tmp_path_factory, sqlite_template, caplog, data):
    table = _table("game", tmp_path_factory, sqlite_template)
    gid = table.game()
    state = state_of(Record.from_dict(table.run(table.store.get_game(gid)).record))
    raw = data.draw(game_data(list(buttons.GAME)))
    raw = raw.replace("{gid}", str(gid)).replace("{ver}", str(state.version))
    actor = data.draw(st.sampled_from(ACTORS))
    with caplog.at_level(logging.ERROR):
        out = table.run(table.service.press(actor, raw))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], raw
    table.check(out, actor)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_typed_verbs_fuzzed_through_the_core(tmp_path_factory, sqlite_template, caplog, data):
    table = _table("typed", tmp_path_factory, sqlite_template)
    table.game()
    verb = data.draw(st.sampled_from(
        [*sorted(TYPED_VERBS), "table", "hand", "cards", "hint", "join", "rules", "leaderboard",
         "stats", "help", "start", "lesson", "x" * 50, "/Lay@bot", "ДОБАВИТЬ"]))
    text = data.draw(st.one_of(
        st.text(max_size=400),
        st.builds(lambda a, b, c: f"{a}:{b} {c}", st.text("AB ", max_size=5),
                  st.lists(st.sampled_from([*FACES, "1", "²", "99"]), max_size=6).map(" ".join),
                  st.sampled_from(["A", "new", "ZZZZ", ""])),
        st.lists(st.sampled_from([*FACES, "1", "2", "²", "-1", "B", "1000"]), max_size=12)
        .map(" ".join),
        st.just("B: " + " " * 4000 + "1"),
    ))
    actor = data.draw(st.sampled_from(ACTORS))
    with caplog.at_level(logging.ERROR):
        out = table.run(table.service.command(actor, verb, text))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], (verb, text[:80])
    table.check(out, actor)


@settings(max_examples=EXAMPLES // 2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_rummikub_buttons_and_tile_moves_fuzzed(tmp_path_factory, sqlite_template, caplog, data):
    """The tile game's own vocabulary: tile tokens on buttons, tile notation typed."""
    table = _table("rummikub", tmp_path_factory, sqlite_template, "rummikub")
    gid = table.game()
    state = state_of(Record.from_dict(table.run(table.store.get_game(gid)).record))
    actor = data.draw(st.sampled_from(ACTORS))
    if data.draw(st.booleans()):
        raw = data.draw(game_data(list(buttons.GAME)))
        raw = raw.replace("{gid}", str(gid)).replace("{ver}", str(state.version))
        call, what = table.service.press(actor, raw), raw
    else:
        verb = data.draw(st.sampled_from(sorted(TYPED_VERBS)))
        text = data.draw(st.one_of(
            st.lists(st.sampled_from([*TILES, *FACES, "1", "B", "A:"]), max_size=10).map(" ".join),
            st.text(max_size=200),
        ))
        call, what = table.service.command(actor, verb, text), f"{verb} {text[:80]}"
    with caplog.at_level(logging.ERROR):
        out = table.run(call)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], what
    table.check(out, actor)


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_lesson_buttons_and_verbs_fuzzed(tmp_path_factory, sqlite_template, caplog, data):
    table = _table("lesson", tmp_path_factory, sqlite_template)
    lid = table.lesson()
    actor = data.draw(st.sampled_from(ACTORS[4:]))
    with caplog.at_level(logging.ERROR):
        if data.draw(st.booleans()):
            raw = data.draw(game_data(list(RUMMY_VERBS)))  # a lesson's are the game's
            raw = raw.replace("{gid}", str(lid)).replace("{ver}", "1")
            out = table.run(table.service.press(actor, raw))
        else:
            verb = data.draw(st.sampled_from(["lay", "add", "move", "split", "take", "choose",
                                              "show", "skip", "restart", "done", "joker"]))
            out = table.run(table.service.command(actor, verb, data.draw(st.text(max_size=400))))
    assert out is not None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_parser_is_total_and_exact():
    """Whatever it gets, `parse` returns a Press or None, and a Press packs back to its data."""

    @settings(max_examples=EXAMPLES * 5, deadline=None)
    @given(st.one_of(st.text(max_size=80), game_data(list(buttons.GAME))))
    def check(raw: str) -> None:
        press = buttons.parse(raw)
        if press is not None:
            assert pack(press.game_id, press.version, press.action) == raw
            assert 0 <= press.game_id <= buttons.MAX_GAME_ID
            assert all(not isinstance(a, int) or 0 <= a <= buttons.MAX_INDEX or
                       a in buttons.TIMER_CHOICES for a in press.args)

    check()


BT_CARDS = ["s", "stock", "d1", "d²", "7h", "k♣", "shift", "ZZ"]
BT_PLACES = ["²", "١", "𝟐", "1", "4", "5", "new", "bob"]


@settings(max_examples=EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_build_to_ten_typed_verbs_fuzzed(tmp_path_factory, sqlite_template, caplog, data):
    """Build-to-Ten's typed moves (/play 7h 2, /discard 9c new, /joker shift 2…): unicode
    digits, numbers past every bound, other seats' words — an answer, no traceback, every card
    still in one place."""
    from engine.buildten import BuildState
    from engine.buildten.check import conservation_errors as bt_conservation

    table = _table("buildten", tmp_path_factory, sqlite_template, "build-to-ten")
    gid = table.game()
    turn = table.run(table.store.get_game(gid)).record["state"]["turn"]
    verb = data.draw(st.sampled_from(["play", "play", "discard", "joker", "pass", "hint", "x"]))
    text = data.draw(st.one_of(
        st.builds(lambda c, p: f"{c} {p}", st.sampled_from(BT_CARDS), st.sampled_from(BT_PLACES)),
        st.lists(st.sampled_from([*BT_CARDS, *BT_PLACES, "10S", "-1", "00"]), max_size=4)
        .map(" ".join),
        st.text(max_size=60),
    ))
    # mostly the person whose turn it is: a move is read only on one's turn
    actor = data.draw(st.one_of(st.just([ALICE, BOB][turn]), st.just([ALICE, BOB][turn]),
                                st.sampled_from(ACTORS)))
    with caplog.at_level(logging.ERROR):
        out = table.run(table.service.command(actor, verb, text))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], (verb, text)
    assert out is not None and (out.reply or out.group or out.private), (verb, text)
    row = table.run(table.store.get_game(gid))
    state = row.record.get("state")
    if state is not None:
        assert not bt_conservation(BuildState.from_dict(state))


@settings(max_examples=EXAMPLES // 2, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_private_plain_text_fuzzed(tmp_path_factory, sqlite_template, caplog, data):
    """Plain text in a private chat, routed as the chat adapters route it (a game's typed verb
    or /lesson to the service, which hands the chat's lesson its moves; anything else a hint):
    always an answer."""
    table = _table("private", tmp_path_factory, sqlite_template)
    table.game()
    if data.draw(st.booleans()):
        table.lesson()
    me = data.draw(st.sampled_from(ACTORS[4:]))
    line = data.draw(st.one_of(
        st.text(max_size=200),
        st.builds(lambda v, a: f"{v} {a}",
                  st.sampled_from([*sorted(TYPED_VERBS), "hi", "lesson", "done", "play",
                                   "LAY", "²", "/lay"]),
                  st.lists(st.sampled_from([*FACES, "1", "²", "١", "B", "new"]), max_size=5)
                  .map(" ".join)),
    ))
    verb, _sep, rest = line.strip().partition(" ")

    async def route():
        if verb.lower() not in table.service.typed_verbs | {"lesson"}:
            return "help", None  # the adapter answers "Type /help for the commands."
        to = "lesson" if verb.lower() == "lesson" or await table.lesson_here(me) else "game"
        return to, await table.service.command(me, verb, rest)

    with caplog.at_level(logging.ERROR):
        to, out = table.run(route())
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], line[:80]
    if to == "game":
        table.check(out, me)
    elif to == "lesson":
        assert out.reply or out.private, line[:80]
