"""The moves log in each reader's language: the chats show the group's (one language a chat),
the web table shows each person the log in the language their seat reads
(`Record.log_in`, `bot/core/narrate.py` `said_in`)."""

from __future__ import annotations

import re

from bot.core.hosting import Table, hosted
from bot.core.record import Record, SeatInfo
from bot.games import default_games

CYRILLIC = re.compile("[а-яА-ЯёЁ]")


def test_a_language_new_to_the_log_takes_the_group_s_earlier_lines():
    record = Record()
    record.add_log("a")
    record.add_log("b", {"ru": "б"})
    assert record.log == ["a", "b"] and record.log_for("ru") == ["a", "б"]
    assert record.log_for("he") == ["a", "b"]  # nobody reads Hebrew here: the group's
    record.fold_log("B", {"ru": "Б"})
    assert record.log == ["a", "B"] and record.log_for("ru") == ["a", "Б"]
    record.add_log("c")  # said only in the group's language
    assert record.log_for("ru") == ["a", "Б", "c"]
    for i in range(30):
        record.add_log(str(i), {"ru": f"р{i}"})
    assert len(record.log) == len(record.log_for("ru")) == 20
    assert record.log_for("ru")[-1] == "р29" and record.log[-1] == "29"
    assert Record.from_dict(record.to_dict()).log_for("ru") == record.log_for("ru")


def _played(game_name: str, rulebook: str) -> Record:
    """An English group's game where Boris's seat reads Russian: started, then a few turns
    (a person's timed out: the computer plays it, and the time-out's note)."""
    record = Record(rulebook=rulebook, seed=7, lang="en", game_name=game_name, seats=[
        SeatInfo("Alice", "a"), SeatInfo("Boris", "b", lang="ru"),
        SeatInfo("Cleo", None, computer="easy")])
    game = hosted(default_games()[game_name], record)
    table = Table(1, record, lambda: 0.0)
    game.start(table)
    for _ in range(12):  # the people time out, the computer moves
        seat = game.to_move(record.state)
        if seat is None:
            break
        if record.seats[seat].is_computer:
            game.computer_step(table)
        else:
            game.play_for(table, seat)
    return record


def test_each_line_is_said_in_the_group_s_language_and_the_seat_s():
    for game_name, rulebook in (("rummy", "manipulation"), ("rummy", "rummikub"),
                                ("build-to-ten", "")):
        record = _played(game_name, rulebook)
        russian = record.log_for("ru")
        assert len(record.log) >= 3 and len(russian) == len(record.log), record.log
        assert not any(CYRILLIC.search(line) for line in record.log), record.log
        assert all(CYRILLIC.search(line) for line in russian), russian
        assert record.log_for("he") == record.log  # no seat reads Hebrew


def test_a_timed_out_turn_s_draws_are_one_line():
    """The computer finishing a person's Manipulation turn draws several cards in one go: the
    log says "drew 4 cards" once, as it does for a person's draws one press at a time — not
    "drew 1 card" four times (the log keeps 20 lines)."""
    record = Record(rulebook="manipulation", seed=7, lang="en", game_name="rummy", seats=[
        SeatInfo("Alice", "a"), SeatInfo("Boris", "b", lang="ru"),
        SeatInfo("Cleo", None, computer="easy")])
    game = hosted(default_games()["rummy"], record)
    table = Table(1, record, lambda: 0.0)
    game.start(table)
    game.play_for(table, 0)
    assert record.log[2:] == ["Alice drew 4 cards", "Alice laid 3♠ 3♦ 3♣"], record.log
    assert record.log_for("ru")[2] == "Alice: взято 4 карты", record.log_for("ru")
