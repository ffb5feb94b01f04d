"""`rummy lesson`: a guided lesson in the terminal, through the game service as the chats take
it (a lesson is a variant of a hosted game: /lesson, then typed moves), kept in the terminal's
store (the one `rummy play` opens).

The terminal is the learner's private chat on the console platform. Moves are typed as in the
private chat (`lay 5H 6H 7H`, `add A 8H`, `split A 3`, `done`…) and go to the service's
`command`, the chats' one path; what comes back is printed from the lesson screens: their
feedback once (`Screen.notice`), the step's heading and instructions when the step changes,
and before each prompt the position (`Screen.detail`: cards the step outlines in [brackets])
and the actions its buttons offer. `quit` leaves the lesson saved: `rummy lesson` picks it up again.

Reads lines and writes text through the functions it is given, so tests can drive it.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bot.core.buttons import parse, press_of
from bot.core.fair_use import FairUse
from bot.core.hosting import HostedGame, LessonTerminal
from bot.core.service import Actor, GameService
from bot.core.views import Button, Outcome, Screen
from bot.i18n import N_, _, t, using

from .console import PLATFORM, USER, pieces, plain_commands

# What README.md tells a newcomer to type (`rummy` is not on PATH: it is .venv/bin/rummy).
LESSON_BYE = N_("Bye — the lesson is saved; `.venv/bin/rummy lesson` picks it up again.")
# A lesson's own typed words (every game's lesson has them), listed after the game's moves
OWN = ("show", "skip", "help", "quit")
# Where a learner's lesson stands: the game's own JSON (its lesson name, step, finished).
Progress = Any


def _prefixes(words: LessonTerminal) -> tuple[str, ...]:
    """The labels of the lines the position shows too, in the current language ("Hand: ")."""
    return tuple(_(msgid).partition("{")[0] for msgid in words.position_lines)


class ConsoleLesson:
    """One learner at the terminal, as the lesson service's console platform."""

    def __init__(
        self,
        service: GameService,
        *,
        name: str = "You",
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        lang: str = "",
    ) -> None:
        self.service = service
        self.read = read
        self._print = write
        self.listed: list[Button] = []  # what a typed number presses, by number - 1
        self.me = Actor(PLATFORM, USER, USER, name, private=True, lang=lang)
        self.game_id: int | None = None
        self.screen: Screen | None = None
        self._heading: list[str] = []  # the step heading and instructions last printed
        self._notice = ""
        game = service.lesson_game()
        assert game is not None  # (`lesson` checks it)
        self.game = game
        self.words = game.lesson_terminal()  # its help and position lines: it knows no game

    def write(self, text: str) -> None:
        self._print(plain_commands(text))  # moves as the terminal takes them: no slash

    async def run(self, rulebook: str | None = None) -> Progress | None:
        """Run the lesson until it ends, the learner quits or the input runs out; where it
        stands then (None if it could not start). The terminal's own lines speak the
        learner's language, as the lesson does."""
        with using(await self.service.speak_to(self.me)):
            return await self._run(rulebook)

    async def _run(self, rulebook: str | None = None) -> Progress | None:
        out = await self.service.command(self.me, "lesson", rulebook or "")
        if out.game_id is None or USER not in out.private:
            self.write(f"✗ {out.reply}")
            return None
        self.game_id = out.game_id
        state = await self.service.lesson_progress(self.me)
        name = state["lesson"] if state is not None else rulebook or self.game.default_variant
        # the lesson's title in the learner's words
        title = next((v.title for v in self.game.variants() if v.name == name), name)
        self.write(
            t("Rummy Table — {rulebook} lesson. Type 'help' for the commands.", rulebook=title)
        )
        self.show(out)
        while self.screen is not None and self.screen.phase != "game_over":
            self._prompt_view()
            try:
                line = self.read("> ").strip()
            except EOFError:
                break
            except KeyboardInterrupt:  # Ctrl-C: saved (every step is), said so
                self.write("\n" + _(LESSON_BYE))
                break
            verb, _sep, rest = line.partition(" ")
            verb = verb.lower().lstrip("/")
            if not verb:
                continue
            if verb in ("quit", "exit", "q"):
                self.write(_(LESSON_BYE))
                break
            if verb in ("help", "h", "?"):
                self.write(_(self.words.help))
                continue
            if verb.isascii() and verb.isdecimal() and not rest.strip():
                await self._press_number(int(verb))  # as in the game: `1` selects card 1
                continue
            self.show(await self.service.command(self.me, verb, rest.strip()),
                      asked=verb in ("show", "hint"))
        state = await self.service.lesson_progress(self.me)
        if state is not None and state["finished"]:
            self.write(t('Play a real game: make play ARGS="--rulebook {rulebook}"',
                         rulebook=name))
        return state

    def show(self, out: Outcome, *, asked: bool = False) -> None:
        """An answer of the service: the feedback once, the step heading when it changes
        (`asked`: the learner asked for it — `show`, `hint` — so it is said again)."""
        screen = out.private.get(USER)
        if screen is None:
            if out.reply:
                self.write(f"✗ {out.reply}" if out.alert else out.reply)
            return
        self.screen = screen
        notice = screen.notice.strip()
        if notice and (notice != self._notice or out.reply or asked):
            self.write(notice)  # (out.reply is its first line, or "✓ Correct!")
        elif out.reply and out.alert:
            self.write(f"✗ {out.reply}")
        self._notice = notice
        said = set(notice.splitlines())
        heading = [
            x for x in screen.text.splitlines()
            if not x.startswith(_prefixes(self.words)) and x not in said
        ]
        if heading[:1] != self._heading[:1]:  # a new step (its label is the first line)
            self.write("")
            self.write("\n".join(heading))
        self._heading = heading

    async def _press_number(self, number: int) -> None:
        """A number presses that button of the screen, as in the game: the hand's pieces
        first (numbered as the hand is: `lay 1 2 3`), then the rest as listed."""
        screen = self.screen
        if screen is None or screen.game_id is None or not 1 <= number <= len(self.listed):
            self.write(
                t("✗ There is no button [{number}]. Type 'help' for the commands.", number=number)
            )
            return
        action = self.listed[number - 1].action
        self.show(await self.service.press(self.me, press_of(screen.game_id, screen.version,
                                                             action)), asked=action == "show")

    def _prompt_view(self) -> None:
        """Before a prompt: the position, and the buttons with their numbers (the hand's are its
        numbers in the position; cards out of the table follow it) and the typed words."""
        screen = self.screen
        if screen is None:
            return
        self.write(screen.detail)
        self.listed = pieces(screen)
        table_cards = [f"[{i}] {b.label}" for i, b in enumerate(self.listed, 1)
                       if b.label.lstrip("✓").startswith("(")]  # (a card out of a group)
        if table_cards:
            self.write("  " + " ".join(table_cards))
        hand = screen.hand
        rows = [row for part in screen.parts if part is not hand for row in part.phone_rows()]
        lines = []
        for row in rows:
            shown = []
            for button in row:
                if button.action == "noop":
                    shown.append(button.label)  # a heading (Joker in A stands for:)
                    continue
                self.listed.append(button)
                shown.append(f"[{len(self.listed)}] {button.label}")
            lines.append(" " + " ".join(shown))
        self.write("\n".join(lines))
        actions: list[str] = []
        choices: list[str] = []
        for row in rows:
            for button in row:
                press = parse(f"0:0:{button.action}")
                if press is None:
                    continue
                head, _sep, arg = press.action.partition(":")
                if not press.args and head in self.game.typed_verbs and head not in OWN:
                    actions.append(head)  # a one-word move, typed as its button's verb
                elif head == "jk":  # jk:<group>:<faces>
                    choices.append(arg.partition(":")[2].replace(",", " "))
        if choices:
            self.write(t("Type: {choices}", choices=_(" or ").join(f"choose {c}" for c in choices)))
        self.write(
            t("Actions: {actions}", actions=" · ".join([*actions, *OWN]))
        )


async def lesson(
    rulebook: str | None = None,
    *,
    url: str,
    games: Mapping[str, HostedGame],
    name: str = "You",
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    lang: str = "",
) -> Progress | None:
    """Open the store as `rummy play` does and run one lesson on the console platform."""
    from bot.store import Store

    store = await Store.open(url)
    try:
        service = GameService(store, games=games)
        # one person at their own keyboard (or a script piping moves in): no fair-use limit
        unlimited = float("inf")
        service.fair_use = FairUse(
            user_rate=unlimited, user_burst=unlimited, chat_rate=unlimited, chat_burst=unlimited
        )
        if service.lesson_game() is None:
            raise ValueError("None of these games has lessons")
        console = ConsoleLesson(service, name=name, read=read, write=write, lang=lang)
        return await console.run(rulebook)
    finally:
        await store.close()


def run_lesson(
    rulebook: str | None = None,
    read: Callable[[str], str] | None = None,
    write: Callable[[str], None] | None = None,
    *,
    url: str | None = None,
    games: Mapping[str, HostedGame],
    name: str = "You",
    lang: str = "",
) -> Progress | None:
    """Run a lesson to its end (or until `quit` / end of input); returns the progress. Without
    `url` the lesson lives in a scratch store for this run only.
    `read`/`write` default to input/print, looked up at the call (a test may replace them)."""
    read, write = read or input, write or print
    if url is not None:
        return asyncio.run(
            lesson(
                rulebook, url=url, name=name, read=read, write=write, lang=lang, games=games
            )
        )
    with tempfile.TemporaryDirectory() as scratch:
        url = f"sqlite+aiosqlite:///{Path(scratch) / 'lesson.db'}"
        return asyncio.run(
            lesson(
                rulebook, url=url, name=name, read=read, write=write, lang=lang, games=games
            )
        )
