"""The terminal front end: a console "platform" over the same game service as the chats.

The terminal is one group chat (the table) and the person's private chat. It opens the game the
way a host does in a chat — lobby, rulebook, options, computer seats, Start — and then turns
typed lines into the calls a chat adapter makes: typed moves (`lay 7H 8H 9H`) and slash
commands go to `GameService.command`, a number presses that button of the last screen listed.
Outcomes come back through the deliver callback and are printed as text: the log lines they
carry, the screens' own text, their detail (the table one group a line, as the core describes
it) and the buttons with their numbers (every card of the hand: the screens' `cards`). It waits
for the computers by the outcomes' `next_up` and never reads the store or the game record.

Reads lines and writes text through the functions it is given, so tests can drive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import random
import re
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.core.buttons import Press, press_of
from bot.core.commands import Command
from bot.core.fair_use import FairUse
from bot.core.hosting import HostedGame, Refusal
from bot.core.service import Actor, GameService
from bot.core.views import Button, Outcome, Screen, in_rows
from bot.i18n import N_, _, current, every, set_locale, t, using
from bot.i18n import rules as rules_doc

log = logging.getLogger(__name__)

PLATFORM = "console"
GROUP_CHAT = "table"  # the terminal's one group chat
USER = "you"  # the person at the keyboard (user id and private chat id)
STORE_FILE = "terminal.db"
STALL_SECONDS = 120.0  # computer seats that make no move for this long have failed
CARDS_PER_ROW = 8  # card buttons a line in the terminal

# What README.md tells a newcomer to type (`rummy` is not on PATH: it is .venv/bin/rummy).
BYE = N_("Bye — the game is saved; `make play` picks it up again.")
@dataclass
class Setup:
    """A new game's settings: the host's lobby choices, in the order the lobby takes them."""

    rulebook: str = ""  # the game and variant by name ("": the registry's first game's default)
    options: dict[str, str] = field(default_factory=dict)
    computers: list[str] = field(default_factory=lambda: ["medium", "medium"])
    you_first: bool = True  # False: --seats put "you" elsewhere; the lobby seats the host first


def parse_seats(
    text: str, levels_known: Sequence[str], max_seats: int
) -> tuple[list[str], bool]:
    """`you,cpu,cpu:hard` -> the computer levels and whether 'you' came first (the game's
    `levels` and `max_seats`: HostedGame's)."""
    levels: list[str] = []
    you = []
    for i, item in enumerate(text.split(",")):
        kind, _sep, level = item.strip().partition(":")
        if kind.lower() in ("you", "me", "human"):
            you.append(i)
        elif kind.lower() in ("cpu", "computer", "ai", "bot"):
            level = level.strip().lower() or "medium"
            if level not in levels_known:
                raise ValueError(f"Computer level '{level}' should be one of: "
                                 + ", ".join(levels_known))
            levels.append(level)
        else:
            raise ValueError(f"Seat '{item}' should be 'you' or 'cpu' (optionally cpu:easy)")
    if len(you) != 1:
        raise ValueError("The terminal game needs exactly one 'you' seat")
    if not levels:
        raise ValueError("Add at least one computer seat, like --seats you,cpu")
    if len(levels) + 1 > max_seats:
        raise ValueError(f"A table has at most {max_seats} seats")
    return levels, you[0] == 0


def store_url(data_dir: str | Path) -> str:
    """The terminal's own SQLite file: a bot sharing ./data never resumes terminal games."""
    return f"sqlite+aiosqlite:///{Path(data_dir) / STORE_FILE}"


class ConsoleGame:
    """One person at the terminal, as a platform of the game service."""

    def __init__(
        self,
        service: GameService,
        *,
        name: str = "You",
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
        pictures: Path | None = None,
        lang: str = "",
    ) -> None:
        self.service = service
        self.read = read
        self._print = write
        self._held: list[str] = []  # log lines not printed yet (a draw may fold into the last)
        self.pictures = pictures
        # The terminal is one person: the "group" and the private chat speak their language.
        self.group = Actor(PLATFORM, GROUP_CHAT, USER, name, lang=lang)
        self.me = Actor(PLATFORM, USER, USER, name, private=True, lang=lang)
        self.game_id: int | None = None
        self.game: HostedGame | None = None  # the game and variant played: its help
        self.variant: str | None = None
        self.shown_revision = 0  # newest commit delivered (screens never go back)
        self.next_up = ""  # who moves next, as of that commit: "person", "computer" or ""
        self.table: Screen | None = None  # the group's live message
        self.private: Screen | None = None  # my private message
        self.listed: list[Button] = []  # buttons of the last screen listed, by number - 1
        self._listed_from: dict[str, str] = {}  # button action -> "private" or "table"
        self._shown_private: Screen | None = None
        self._shown_table = ""
        self._shown_buttons = ""
        self._delivering = asyncio.Lock()
        self._painted: dict[str, str | None] = {}
        self._delivered = asyncio.Event()
        service.register(PLATFORM, self.deliver)

    def write(self, text: str, *, as_typed: bool = True) -> None:
        """Print `text`, after the log lines held back (they come first, in order); moves
        named as the terminal takes them (`as_typed`: no slash)."""
        self._flush_log()
        self._print(plain_commands(text) if as_typed else text)

    def _flush_log(self) -> None:
        held, self._held = self._held, []
        for line in held:
            self._print("  " + plain_commands(line))

    # -- opening a game -----------------------------------------------------------------

    async def open(self, setup: Setup, *, new: bool = False) -> bool:
        """Resume the unfinished terminal game, or open one as a host does in a chat."""
        out = await self.service.command(self.group, "table")  # the group table, my screen
        if out.game_id is not None and out.group is not None:
            if new or USER not in out.private:  # (a lobby's /table sends no private screen)
                await self.service.command(self.group, "endgame")
            else:
                self.game_id = out.game_id
                rules = out.group.detail.partition("\n")[0]  # the table's first line
                with contextlib.suppress(Refusal):  # its title names the game and variant
                    self.game, self.variant = self.service.game_named(rules.split(" · ")[0])
                self.write(t("Rummy Table — resuming your unfinished game: {rules}", rules=rules))
                self.write(_("(--new starts a fresh game.) Type 'help' for commands."))
                out.reply = None
                await self.deliver(out)  # the last log lines, for context
                return True
        set_locale(self.me.lang)
        try:
            game, variant = self.service.game_named(setup.rulebook)  # any game's, any variant
        except Refusal as refusal:  # a name of nothing of ours: said as a bad setting is
            raise ValueError(refusal.text) from None
        self.game, self.variant = game, variant
        settings = game.settings(variant, setup.options)  # ValueError names what's wrong
        described = " · ".join((settings.title, *settings.describe()))  # in the reader's words
        self.write(t("Rummy Table — {rules}", rules=described))
        self.write(_("Type 'help' for commands."))
        if not setup.you_first:
            self.write(_("(In the terminal you sit first, as the host of the table.)"))
        out = await self.service.command(self.group, "newgame", setup.rulebook)
        if out.alert or out.game_id is None:
            self.write(f"✗ {out.reply}")
            return False
        self.game_id = out.game_id
        presses = [f"opt:{k}:{v}" for k, v in setup.options.items()]
        presses += [f"cpu:{level}" for level in setup.computers]
        version = out.group.version if out.group is not None else 0  # the lobby's
        for action in presses:
            out = await self.service.press(self.group, press_of(self.game_id, version, action))
            if out.alert:
                self.write(f"✗ {out.reply}")
                return False
            version = out.group.version if out.group is not None else version
        if out.group is not None:
            with using(self.me.lang):
                label = _prefix("Players: {names}")
            seats = [x for x in out.group.text.splitlines() if x.startswith(label)]
            self.write("\n".join(seats))
        out = await self.service.press(self.group, Press(self.game_id, version, "start"))
        if out.alert:
            self.write(f"✗ {out.reply}")
            return False
        await self.deliver(out)
        return True

    # -- the loop -----------------------------------------------------------------------

    async def run(self) -> None:
        """Play until the game ends, the person quits, or the input runs out."""
        while True:
            if not await self._settle():
                return
            set_locale(self.me.lang)  # the terminal's own lines, in its language
            if self.over:
                self.write(_("Thanks for playing! `make play` starts a new game."))
                return
            self._show_view()
            self._flush_log()
            try:
                line = self.read("> ").strip()
            except EOFError:
                line = "quit"
            except KeyboardInterrupt:  # Ctrl-C: the line it cut short is no command
                self.write("")
                line = "quit"
            if line.lower() in ("quit", "exit", "q"):
                self.write(_(BYE))
                return
            if not line:
                continue
            try:
                await self.handle(line)
            except Exception as error:  # never a traceback at the table: the log has it
                log.exception("console command failed: %s", line)
                self.write(
                    t("✗ Something went wrong ({error}). The game is saved; try again.",
                      error=str(error))
                )

    @property
    def over(self) -> bool:
        """The game is over (as the newest screens show it)."""
        return any(s is not None and s.phase == "game_over" for s in (self.table, self.private))

    async def _settle(self) -> bool:
        """While the computers move (the newest commit says so), wait for the service's
        deliveries; False if they stop coming (the computer players failed)."""
        waited = 0.0
        seen = self.shown_revision
        while self.next_up == "computer":
            self._delivered.clear()
            try:
                await asyncio.wait_for(self._delivered.wait(), timeout=0.5)
            except TimeoutError:
                waited += 0.5
            if self.shown_revision != seen:
                seen, waited = self.shown_revision, 0.0
            elif waited >= STALL_SECONDS:
                self.write(_("✗ The computer players stopped (see the log). The game is saved."))
                return False
        return True

    # -- typed lines --------------------------------------------------------------------

    async def handle(self, line: str) -> None:
        """One typed line -> service calls; prints the core's answer."""
        command = Command.read(line)  # decoded here, once
        verb, rest = command.verb, command.args
        if verb.isascii() and verb.isdecimal() and not rest:
            await self._press_number(int(verb))
        elif verb in ("help", "h", "?"):
            game = self.game or self.service.default_game
            self.write(game.terminal_help(self.variant))
        elif verb == "table":
            self._shown_private = None
        elif verb in ("hand", "cards"):
            await self._answer(await self.service.command(self.me, "hand"), quiet=True)
            self._shown_private = None
        elif verb == "sort":
            await self._press_action("sort", self.private)
        elif verb in ("next", "finish"):
            await self._press_action(verb, self.table)
        elif verb == "review":  # issue 32: my turns of a finished round, printed here
            # asked as in the game's chat (a finished game is found there); printed here, so
            # "it's in your private chat" is not said (quiet), a refusal is
            await self._answer(await self.service.command(self.group, "review", rest),
                               quiet=True)
        elif verb in self.service.typed_verbs:  # every hosted game's (the game reads its own)
            await self._answer(await self.service.command(self.me, command))
        elif verb == "rules" and (text := full_rules(rest)):
            # the terminal has room for the whole section; the page speaks of the chats too
            self.write(readable(text), as_typed=False)
        elif verb in ("rules", "leaderboard", "stats"):
            await self._answer(await self.service.command(self.group, command))
        else:
            self.write(t("✗ Unknown command '{verb}'. Type 'help' for the list.", verb=verb))

    async def _press_number(self, number: int) -> None:
        if not 1 <= number <= len(self.listed):
            self.write(
                t("✗ There is no button [{number}]. Type 'help' for the commands.", number=number)
            )
            return
        button = self.listed[number - 1]
        owner = self._listed_from.get(button.action)
        # the message as it is now: same buttons, perhaps a newer version (after a hint)
        await self._press_action(button.action, self.table if owner == "table" else self.private)

    async def _press_action(self, action: str, screen: Screen | None) -> None:
        if screen is None or screen.game_id is None or not (
            any(b.action == action for b in screen.cards)  # any card (the buttons: a page)
            or any(b.action == action for r in screen.buttons for b in r)
        ):
            self.write(t("✗ There is no '{action}' button now.", action=action))
            return
        # decoded here, once (an action of the screen's own buttons: never None in practice)
        press = press_of(screen.game_id, screen.version, action)
        await self._answer(await self.service.press(self.me, press))

    async def _answer(self, out: Outcome, *, quiet: bool = False) -> None:
        """Show an outcome of the person's own call, and the core's reply to it."""
        await self.deliver(out)
        if out.picture is not None:  # /stats, /leaderboard: the text here, the picture there
            self._paint("stats", out.picture)
        mine = out.private.get(USER)
        notice = mine.notice.strip() if mine is not None else ""
        if notice and not self._will_show(mine, notice):
            self.write(notice)  # the answer again (a second `hint`): the view has it already
        reply = (out.reply or "").strip()
        if not reply or reply in every("OK") or (quiet and not out.alert):
            return  # "OK" in any language: the screen itself is the answer
        if mine is not None and reply in mine.text:
            return  # the private screen says it (its notice line)
        self.write(f"✗ {reply}" if out.alert else reply)

    def _will_show(self, screen: Screen, text: str) -> bool:
        """Will the next view print `text` of `screen`? Not when the view shown already has
        every line of it (`_show_view` prints only new lines)."""
        old = self._shown_private
        if old is None or self._table_text(screen) != self._shown_table:
            return True  # the whole view is printed again
        return not set(text.splitlines()) <= set(_private_text(old).splitlines())

    # -- outgoing -----------------------------------------------------------------------

    async def deliver(self, outcome: Outcome) -> None:
        """The service's deliver callback (computer turns) and the answer to our own calls."""
        if outcome.game_id is None or outcome.game_id != self.game_id:
            return
        async with self._delivering:  # one at a time: the log prints in commit order
            self._deliver(outcome)
        self._delivered.set()

    def _deliver(self, outcome: Outcome) -> None:
        # The game log's new lines: every move, once (the group caption shows only the
        # newest; one commit can log several, e.g. laid then drew), held until something else
        # prints: a line that says the last one again with more ("drew 13 cards") replaces it.
        lines = list(outcome.log)
        if outcome.log_refolds and self._held and lines:
            self._held[-1] = lines.pop(0)
        self._held += lines
        if outcome.revision is not None:
            if outcome.revision < self.shown_revision:
                return  # a newer screen is up already
            self.shown_revision = outcome.revision
            self.next_up = outcome.next_up
        if outcome.group is not None:
            self.table = outcome.group
            self._paint("table", outcome.group)
        for note in outcome.notes:
            self.write("")
            self.write(note.text)
            self._paint("scores", note)
        mine = outcome.private.get(USER)
        if mine is not None:
            self.private = mine
            self._paint("hand", mine)
        for user, text in outcome.private_notes.items():
            if user == USER:
                self.write(text)
        extras = outcome.private_extras.get(USER, [])
        for i, extra in enumerate(extras):  # a picture's caption repeats the text's first lines
            self._paint("review", extra)
            if extra.painter is None or i == len(extras) - 1:
                self.write("")
                self.write(extra.text)

    def _paint(self, name: str, screen: Screen) -> None:
        """--pictures DIR: the newest picture of each message, as the chats would show it."""
        if self.pictures is None or screen.painter is None:
            return
        if self._painted.get(name) == screen.image_key and screen.image_key is not None:
            return
        image = screen.image
        if image:
            self.pictures.mkdir(parents=True, exist_ok=True)
            (self.pictures / f"{name}.png").write_bytes(image)
            self._painted[name] = screen.image_key

    def _show_view(self) -> None:
        """Before a prompt: the table and my private message, as far as they changed (a new
        table: all of it; else the new lines of the text, and the buttons if they changed)."""
        set_locale(self.me.lang)  # the labels this terminal reads the screens by
        screen = self.private
        old = self._shown_private
        if screen is None:
            return
        table = self._table_text(screen)
        if old is None or table != self._shown_table:
            self.write("")
            self.write(table)
            self.write(_private_text(screen))
        else:
            seen = set(_private_text(old).splitlines())
            for line in _private_text(screen).splitlines():
                if line not in seen:
                    self.write(line)
        buttons = self._buttons_text(screen)
        if old is None or table != self._shown_table or buttons != self._shown_buttons:
            self.write(buttons)
        self._shown_private, self._shown_table, self._shown_buttons = screen, table, buttons

    def _table_text(self, screen: Screen) -> str:
        """The table one group a line, as I see it (my working copy marked): my screen's
        detail but the hand (the text or the card buttons show it); the group's, should it
        be newer than mine (its first line is the rulebook)."""
        detail = screen.detail
        if self.table is not None and self.table.version > screen.version and self.table.detail:
            detail = self.table.detail.partition("\n")[2]
        hands = set(screen.hand_lines)
        return "\n".join(x for x in detail.splitlines() if x not in hands)

    def _buttons_text(self, screen: Screen) -> str:
        """The private message's buttons (and the table's, but My cards) with numbers. The
        card buttons are the whole hand, numbered as the hand is (`lay 1 2 3`): no pages."""
        rows = [("private", hand, r) for hand, r in _hand_buttons(screen)]
        if self.table is not None:
            rows += [("table", False, [b for b in r if b.action != "cards"])
                     for r in self.table.buttons]
        self.listed, self._listed_from = [], {}
        lines = []
        for owner, cards, row in rows:
            hand = screen.hand.label if screen.hand is not None else ""
            parts = [hand if cards and not lines else " " * len(hand) if cards else ""]
            for b in row:
                if b.action == "noop":
                    parts.append(b.label)
                    continue
                self.listed.append(b)
                self._listed_from[b.action] = owner
                parts.append(f"[{len(self.listed)}] {b.label}")
            if len(parts) > 1:
                lines.append(" ".join(parts).rstrip())
        return "\n".join(lines)


# A command's slash, as the chats write it (/lay, /help): at a word's start, not in a path
# or an address (data/terminal.db, https://…). The terminal takes moves without it.
_SLASH = re.compile(r"(?<![\w/:.\\])/(?=[a-z])")


def plain_commands(text: str) -> str:
    """The core's sentences as the terminal takes moves: `lay 5H 6H 7H · done`, `help`."""
    return _SLASH.sub("", text)


def _hand_buttons(screen: Screen) -> list[tuple[bool, list[Button]]]:
    """The screen's rows, each with whether it is the hand's: the hand picker's every piece
    (no pages: the terminal shows the whole hand, numbered as the hand is), then the rest as a
    phone's rows."""
    rows: list[tuple[bool, list[Button]]] = []
    hand = screen.hand
    cards = pieces(screen)
    if cards:
        rows += [(True, r) for r in in_rows(cards, CARDS_PER_ROW)]
    for part in screen.parts:
        if part is not hand:
            rows += [(False, r) for r in part.phone_rows()]
    return rows


def pieces(screen: Screen) -> list[Button]:
    """The hand picker's every piece as a button, named as text shows it (`Choice.text`: a
    tile with its colour's mark, as the log names it — the terminal has no picture)."""
    hand = screen.hand
    if hand is None:
        return []
    return [Button((hand.tick if p.selected else "") + (p.text or p.label), p.action)
            for p in hand.pieces]


def full_rules(name: str) -> str:
    """`rules [rulebook]` in a terminal: the rules page's section (the shared rules without a
    name) in the current language, English where it is untranslated; "" for a name the page
    has no section for (the service's /rules answers it)."""
    name = name.strip()
    if not name:
        shared = ("intro", "what-every-rulebook-shares")
        return "\n\n".join(x for k in shared if (x := rules_doc.section(k, current())))
    key = rules_doc.rulebook_key(name)
    return rules_doc.section(key, current()) if key else ""


# An in-page link of the rules page ([Tahiti](#tahiti)): its words (the terminal has no page).
_ANCHOR_LINK = re.compile(r"\[([^\]]+)\]\(#[^)]*\)")
MAX_WIDTH = 100  # a rules page wider than this reads badly even on a wide terminal


def readable(markdown: str, width: int | None = None) -> str:
    """The rules page's Markdown as a terminal shows text: headings, lists and tables laid out
    (rich's renderer), no link targets, no styling codes, wrapped to the terminal's width."""
    from rich.console import Console
    from rich.markdown import Markdown

    if width is None:
        width = min(MAX_WIDTH, shutil.get_terminal_size((MAX_WIDTH, 40)).columns)
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, force_terminal=False,
                      emoji=False, highlight=False)
    console.print(Markdown(_ANCHOR_LINK.sub(r"\1", markdown), hyperlinks=False))
    text = out.getvalue().replace("**", "")  # emphasis Markdown did not take (ל**„…”**)
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n")


def _prefix(msgid: str) -> str:
    """A screen line's label before its value ("Hand: "), in the current language."""
    return _(msgid).partition("{")[0]


def _private_text(screen: Screen) -> str:
    """The private message's text but what the terminal shows otherwise (the screen's typed
    `repeats`: a working copy the table block marks) and, on my turn, the hand (the numbered
    card buttons are the hand)."""
    skip = {*screen.repeats, *(screen.hand_lines if screen.cards else ())}
    lines = [x for x in screen.text.splitlines() if x not in skip]
    return "\n".join(dict.fromkeys(lines))  # the hint can be both the hint line and the notice


async def play(
    setup: Setup,
    *,
    url: str,
    games: Mapping[str, HostedGame],
    seed: int | None = None,
    new: bool = False,
    name: str = "You",
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
    pictures: Path | None = None,
    lang: str = "",
) -> None:
    """Open the store as `rummy run` does, serve the console platform, play one game."""
    from bot.store import Store

    store = await Store.open(url)
    # Computer seats move at once; a frozen clock means no turn timer at the keyboard.
    service = GameService(
        store,
        games=games,
        computer_delay=0,
        clock=lambda: 0.0,
        rng=random.Random(seed) if seed is not None else None,
    )
    # One person at their own keyboard (or a script piping moves in): no fair-use limit.
    unlimited = float("inf")
    service.fair_use = FairUse(
        user_rate=unlimited, user_burst=unlimited, chat_rate=unlimited, chat_burst=unlimited
    )
    console = ConsoleGame(
        service, name=name, read=read, write=write, pictures=pictures, lang=lang
    )
    try:
        await service.start()  # resumes a saved game's computer turns
        if await console.open(setup, new=new):
            await console.run()
    finally:
        await service.stop()
        await store.close()


def scripted(lines: list[str]) -> Callable[[str], str]:
    """An input function that answers from a list, then raises EOFError (for tests)."""
    it: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read
