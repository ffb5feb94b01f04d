"""Games and rulebooks by the name a player types, in any language: `/rules רמיקוב`,
`/newgame Руммикуб`, `/leaderboard manipulation` (UX.md §8). A title matches whatever its case,
niqqud, accents (Russian ё/е) or dashes; the longest title that starts the words wins."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.i18n import LANGUAGES, _, using

if TYPE_CHECKING:
    from .hosting import HostedGame

MAX_WORDS = 80  # a title is a few words: more is never one


def fold(words: str) -> str:
    """Words as a player may type them: no case, no marks (niqqud, ё's dots, й's breve — the
    same on both sides), dashes and underscores as spaces, one space between words."""
    text = unicodedata.normalize("NFD", words[:MAX_WORDS]).casefold()
    kept = []
    for ch in text:
        kind = unicodedata.category(ch)
        if kind == "Mn" or kind == "Cf":  # marks; bidi controls a client may add
            continue
        kept.append(" " if kind in ("Pd", "Zs") or ch in "_\t\n" else ch)
    return " ".join("".join(kept).split())


@dataclass(frozen=True)
class Named:
    """What the words name: a game, and its variant when they name one (else None)."""

    game: HostedGame
    variant: str | None


class Titles:
    """Every game's and variant's key and title in every language, folded, to what it names."""

    def __init__(self, games: Mapping[str, HostedGame]) -> None:
        self.games: dict[str, HostedGame] = {}  # folded game name or title -> game
        self.variants: dict[str, tuple[HostedGame, str]] = {}  # folded -> (game, variant)
        for game in games.values():
            self.games[fold(game.name)] = game
            self.games[fold(game.title)] = game
            for lang in LANGUAGES:
                with using(lang):
                    for v in game.variants():
                        for word in (v.name, v.title):
                            self.variants.setdefault(fold(word), (game, v.name))

    def find(self, words: str | None) -> Named | None:
        """The game (and variant) `words` name, or None: nothing of ours is called that.
        A game's name may come first: `rummy carousel`, `build-to-ten lesson`."""
        text = fold(words or "")
        if text in self.variants:
            game, name = self.variants[text]
            return Named(game, name)
        starts = [k for k in self.games if text == k or text.startswith(k + " ")]
        if not starts:
            return None
        first = max(starts, key=len)
        game, rest = self.games[first], text[len(first):].strip()
        if not rest:
            return Named(game, None)
        inner = self.variants.get(rest)
        return Named(game, inner[1]) if inner is not None and inner[0] is game else None


def key_named(words: str, titles: Mapping[str, str]) -> str | None:
    """The key whose title (a msgid, in any language) or own name `words` are, or None
    (`/lesson רמיקוב` -> "rummikub")."""
    text = fold(words)
    for lang in LANGUAGES:
        with using(lang):
            for key, msgid in titles.items():
                if text in (fold(key), fold(_(msgid))):
                    return key
    return None
