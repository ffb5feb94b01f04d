"""clean_name: display names tidied for showing (bot/core/names.py)."""

from __future__ import annotations

import random
import re
import time
import unicodedata

import pytest
from fakes.telegram_text import detect_entities

from bot.core.names import (
    FALLBACK,
    MAX_MARKS,
    MAX_NAME,
    PERSON_MARK,
    clean_name,
    looks_like_computer,
)


@pytest.mark.parametrize(("raw", "name"), [
    ("alice", "alice"),
    ("  Bob   the\tBuilder \n", "Bob the Builder"),
    ("e\u0301mile", "émile"),  # NFC
    ("e\u200b\u0301", "é"),  # composed once the zero-width space is gone
    ("ev\u202eil\u202c", "evil"),  # bidi override
    ("a\u2066b\u2067c\u2068d\u2069", "abcd"),  # isolates
    ("\u200bz\u200c\u200de\u2060r\ufeffo\u00ad", "zero"),  # zero-width, word joiner, BOM, SHY
    ("bell\x07\x00\x1b[31m", "bell[31m"),  # controls (the escape's text stays, harmless)
    ("tag\U000e0041\U000e0042", "tag"),  # tag characters
    ("\ud800bob\udfff", "bob"),  # lone surrogates: could not even be encoded
    ("pri\ue000vate", "private"),
    ("\u3164\u3164", FALLBACK),  # Hangul filler: a "blank" name
    ("\u2800 a \u00a0\u2003 b", "a b"),  # Braille blank, no-break and em spaces
    ("", FALLBACK),
    ("   ", FALLBACK),
    ("\u0301\u0301", FALLBACK),  # marks with nothing to sit on
    ("a" + "\u0301" * 50, "á" + "\u0301" * MAX_MARKS),  # no Zalgo towers
    ("x" * 100, "x" * MAX_NAME),
    # markdown is the adapters' to escape; a link's and a mention's signs are look-alikes
    ("**Boss** [x](http://e.vil) @everyone",
     "**Boss** [x](http:\u2215\u2215e\u2024vil) \uff20ever"),
])
def test_clean_name(raw: str, name: str) -> None:
    assert clean_name(raw) == name
    assert clean_name(name) == name


def test_not_a_string_is_a_player() -> None:
    assert clean_name(None) == FALLBACK  # type: ignore[arg-type]


IMPOSTORS = [
    "🤖 Computer 2", "Computer 2", "computer", "COMPUTER 12", "Computer3", "🤖 alice",
    "alice 🤖", "  computer   1 ", "Ｃｏｍｐｕｔｅｒ ２",  # fullwidth
    "𝐂𝐨𝐦𝐩𝐮𝐭𝐞𝐫 𝟐", "𝕔𝕠𝕞𝕡𝕦𝕥𝕖𝕣",  # mathematical letters
    "Сomputer 1", "Cοmputеr 1",  # Cyrillic С, Greek ο, Cyrillic е
    "C0mput3r 1", "Cornputer 2", "Cömputér 2", "C.o.m.p.u.t.e.r 2", "C o m p u t e r",
    "Comp\u200buter 2", "ⓒⓞⓜⓟⓤⓣⓔⓡ", "bob, Computer 2 (hard)", "Computer 2 (easy)",
    "Computer-2", "Computer²",
]


@pytest.mark.parametrize("raw", IMPOSTORS)
def test_a_person_cannot_pass_for_a_computer(raw: str) -> None:
    name = clean_name(raw)
    assert name.endswith(PERSON_MARK) and len(name) <= MAX_NAME, name
    assert clean_name(name) == name  # marked once


@pytest.mark.parametrize("raw", ["alice", "Compton", "Computerfreak", "Computers", "Tom Puter",
                                 "Player 2", "Comp 2"])
def test_ordinary_names_are_not_marked(raw: str) -> None:
    assert clean_name(raw) == raw
    assert not looks_like_computer(raw)


def test_the_mark_fits_in_32_characters() -> None:
    name = clean_name("Computer " + "x" * 40)
    assert len(name) <= MAX_NAME and name.endswith(PERSON_MARK)
    assert clean_name("🤖" * 40) == "🤖" * (MAX_NAME - len(PERSON_MARK)) + PERSON_MARK
    # Already marked: kept as it is (a person, plainly).
    assert clean_name("Computer 2 (person)") == "Computer 2 (person)"


def test_the_bots_own_computer_names_look_like_computers() -> None:
    """The rule is about the names the core gives computer seats (`Computer N`, shown with
    🤖): those are exactly what a person must not be able to take."""
    for n in range(1, 6):
        assert looks_like_computer(f"Computer {n}") and looks_like_computer(f"🤖 Computer {n}")


POOL = (
    "aé\u0301\u0308\u0344 \t\n\u00a0\u2800\u3164\u200b\u200d\u202e\u2066\ufeff\x00\x7f"
    "🤖Cc0omMprnuUtTe3rR2²Ｃ𝐂\ud800\ue000\U000e0041ﬁ\ufdfd#*_[](@<>:/-"
)


def test_idempotent_and_bounded_on_random_names() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        raw = "".join(rng.choice(POOL) for _ in range(rng.randrange(0, 60)))
        name = clean_name(raw)
        assert clean_name(name) == name, (raw, name)
        assert 1 <= len(name) <= MAX_NAME
        assert name == name.strip() and "  " not in name
        assert unicodedata.is_normalized("NFC", name)
        name.encode()  # no lone surrogates
        assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in name)


@pytest.mark.parametrize("raw", [
    "c" + "." * 4095, "\u0301" * 4096, "e\u0301" * 2048, "🤖" * 4096, "Computer " * 455,
    "a\u200b" * 2048, "\ufdfd" * 4096, " \u3164\u2800" * 1365, "c.o.m.p.u.t.e" * 315,
    "x" * 1_000_000,  # only the first 4,096 characters are read
])
def test_linear_time(raw: str) -> None:
    start = time.perf_counter()
    clean_name(raw)
    assert time.perf_counter() - start < 0.2


# Telegram's own entity rules for a bot's plain text (tests/fakes/telegram_text.py detects
# commands and mentions as Telegram does); a link: a scheme, or a bare domain with a TLD.
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://|(?<![\w.])[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b")


@pytest.mark.parametrize("raw", [
    "/leave", "/endgame@RummyBot", "@someone", "@everyone", "<@123456789012345678>",
    "https://evil.example/x", "tg://resolve?domain=x", "evil.com", "t.me/joinchat/abc",
    "me@mail.example", "Ann /start", "x.y.z.co",
])
def test_a_name_is_no_command_mention_or_link_in_a_caption(raw):
    """Issue 31: a player named `/leave`, `@someone` or a URL became a tappable command,
    mention or link in group captions. The name still reads as typed."""
    name = clean_name(raw)
    for caption in (f"{name}'s turn · stock 40 · {name} 7", f"Last: {name} drew a card", name):
        assert detect_entities(caption) == [], caption
        assert not _URL.search(caption), caption
    assert "@" not in name and "/" not in name
    assert len(name) == len(raw.strip())  # one look-alike for each sign: nothing hidden
    assert clean_name(name) == name


def test_a_plain_name_keeps_its_dots_and_signs_that_do_nothing():
    assert clean_name("J. Smith") == "J. Smith"
    assert clean_name("Anna-Lena #1") == "Anna-Lena #1"
