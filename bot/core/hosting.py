"""What a game gives the platform: the one interface the core hosts every game through.

In the spirit of OpenSpiel's game/state split: a game declares its variants and their options
with defaults; it deals a new state from a seed; its state is plain JSON-safe data; it says whose
move it is, when it is over and with what result; it plays a computer seat. It also says how it
looks in a chat — its table, a seat's private screen, its presses and typed moves — because those
are as much the game's as its rules are.

The core (lobby, seats, turn timers, computer seats, records, results, ratings, leaderboards)
knows nothing else about a game: it never names a card, a meld or an action. The rummy family is
one game with seven rulebooks (bot/games/rummy); Build-to-Ten will be another.

Every method that changes the game takes a `Table` — the hosted record plus the platform's
hooks — changes `table.record` in place (its `state`, per-seat `ui`, `log`) and returns the
`Outcome` (screens and a reply). It raises `Refusal` for an answer that changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .buttons import Kind, Press
    from .record import Record
    from .views import Outcome, Screen


class Refusal(Exception):
    """A user-facing answer that stops the change (nothing is saved). `outcome`: a fresh
    screen of the unchanged game to show with it (an out-of-date button, say)."""

    def __init__(self, text: str, *, alert: bool = True, outcome: Outcome | None = None) -> None:
        super().__init__(text)
        self.text = text
        self.alert = alert
        self.outcome = outcome


@dataclass(frozen=True)
class Variant:
    """One way to play a game (a rulebook): its name, title and options with their choices."""

    name: str
    title: str
    options: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # key -> choices
    lesson: bool = False  # a guided lesson teaches it (/lesson <name>)


@dataclass(frozen=True)
class LessonTerminal:
    """A game's lessons at a terminal, which knows no game: the help for its typed moves, and
    the screen lines the position (`Screen.detail`) shows too, left out of the step's heading —
    msgids, said in the learner's language where they are shown."""

    help: str
    position_lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class Settings:
    """A variant with every option set (validated by the game, defaults filled in)."""

    variant: str
    title: str
    options: Mapping[str, Any]
    # key -> "must lay: remind", in the language the settings were made in (the game's words)
    labels: Mapping[str, str] = field(default_factory=dict)
    # the lobby picture's own arguments (render.views.LobbyView's), the game's: passed on
    picture: Mapping[str, Any] = field(default_factory=dict)
    # key -> "remind, with a hint": the value alone, for a button in the option's own row
    choices: Mapping[str, str] = field(default_factory=dict)

    def choice(self, key: str) -> str:
        """The option's value as its row's button says it (the option named once, above)."""
        return self.choices.get(key) or self.label(key)

    def label(self, key: str) -> str:
        if key in self.labels:
            return self.labels[key]
        return f"{key.replace('_', ' ')}: {str(self.options[key]).replace('_', ' ')}"

    def describe(self) -> tuple[str, ...]:
        return tuple(self.label(k) for k in self.options)


@dataclass(frozen=True)
class Results:
    """A finished game: every seat's total, who won (several: a draw), and which way the
    totals count (penalty points: lower is better)."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    higher_is_better: bool


@dataclass
class Table:
    """What a game method gets: the hosted record (seats, the game's state and per-seat UI,
    the log) and the platform's hooks."""

    game_id: int
    record: Record
    clock: Callable[[], float]

    def turn_started(self, to_move: int | None) -> None:
        """A new turn (or round) began: the turn timer restarts for a person on move, and
        every seat's screen state (mode, selection) starts afresh."""
        record = self.record
        record.warned = False
        person = to_move is not None and not record.seats[to_move].is_computer
        record.deadline = self.clock() + record.turn_seconds if person else None
        for ui in record.ui.values():
            ui.mode = "main"
            ui.selected = []


def hosted(game: HostedGame, record: Record) -> HostedGame:
    """The definition a record is played by: its game's, or the game's variant it names."""
    return game.played_variants.get(record.rulebook, game)


class PlayedRules(Protocol):
    """What the platform plays of a game's rules (engine/contract.py's GameRules; the core
    imports no engine module): bot/core/turns.py plays it."""

    levels: tuple[str, ...]

    def to_move(self, state: Any) -> int | None: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]: ...

    def player_view(self, state: Any, seat: int | None) -> Any: ...

    def choose_action(self, view: Any, level: str) -> Any: ...

    def time_up(self, state: Any, seat: int) -> Any | None: ...

    def result(self, state: Any) -> Any | None: ...  # totals, winners, higher_is_better


class HostedGame(Protocol):
    """A game the core can host (see the module docstring)."""

    name: str  # "rummy"
    title: str  # "Rummy"
    # the game's rules behind the one contract (engine/contract.py); the platform plays them
    # through the part named above
    rules: PlayedRules
    min_seats: int
    max_seats: int
    levels: tuple[str, ...]  # computer levels, weakest first
    default_level: str  # the level that takes over a person's seat
    default_variant: str
    typed_verbs: frozenset[str]  # typed commands the game reads (/lay, /draw …)
    # button verbs after the game has started: name -> argument kinds (bot.core.buttons)
    vocabulary: Mapping[str, tuple[Kind, ...]]  # a kind: a platform name or a game's pattern
    # Optional features, declared here so the platform reads them and never probes a game for
    # a method (TurnFlow's defaults offer none): `review` below works (else the platform says
    # there is none yet, and the web table offers none); `lesson_options` and `lesson` work
    # (the platform's /lesson reaches the first game that offers them).
    offers_review: bool
    offers_lessons: bool
    # the variant the platform's sentences name as an example (/lesson rummikub, /newgame
    # Rummikub, /leaderboard rummikub): the platform names none itself
    example_variant: str
    offers_puzzles: bool  # the puzzle of the day: the `puzzle_*` methods below
    # Variants that play otherwise (a lesson; issue 41's puzzle): each is this game's own
    # definition with some methods overridden (a subclass: boardgame.io's `{...game, moves}`),
    # by the variant's name, which a record carries as its `rulebook`. The platform hosts such
    # a record through its variant (`hosted`), never asks a game which one it is.
    played_variants: Mapping[str, HostedGame]

    # -- rules ------------------------------------------------------------------------
    def variants(self) -> Sequence[Variant]: ...

    def seats_for(self, variant: str | None) -> int:
        """The seats `variant` takes, for the lobby (TurnFlow's: `max_seats`; Rummikub is for
        four of the rummy family's five)."""
        ...

    def settings(self, variant: str | None, options: Mapping[str, Any]) -> Settings:
        """The variant with these options (defaults for the rest); ValueError with a
        sentence for a player for an unknown variant, option or value."""
        ...

    def to_move(self, state: Mapping[str, Any]) -> int | None:
        """The seat whose move it is, or None (a round is over and waits for a person to go
        on, or the game is over). Reads the saved dict: called on every save."""
        ...

    def is_over(self, state: Mapping[str, Any]) -> bool: ...

    def results(self, record: Record) -> Results | None:
        """The result if the game is over, else None."""
        ...

    def rounds(self, state: Mapping[str, Any]) -> Sequence[Sequence[int]]:
        """Every finished round's points per seat, in order (a one-round game: one row)."""
        ...

    # -- a game in a chat ---------------------------------------------------------------
    def start(self, table: Table) -> Outcome:
        """Deal (from `record.seed`) and return every screen of the new game."""
        ...

    def press(self, table: Table, seat: int | None, user: str, press: Press) -> Outcome:
        """A button of the running game pressed by `user` (seated at `seat`, or None)."""
        ...

    def typed(self, table: Table, seat: int, user: str, verb: str, args: str) -> Outcome:
        """A typed move (`verb` in `typed_verbs`) by the seated `user`."""
        ...

    def select(
        self, table: Table, seat: int, user: str, version: int, items: Sequence[str]
    ) -> Outcome:
        """Pick exactly these items of the private screen (a multi-select menu)."""
        ...

    # -- the turn flow: bot/core/turns.py's TurnFlow gives these (and `results`, and `press`
    # and `typed` above through the game's press -> action) to a host from its contract; a
    # host implements them itself only to play otherwise
    def computer_step(self, table: Table) -> Outcome | None:
        """One move of the computer seat on move; None when no computer is on move."""
        ...

    def play_for(self, table: Table, seat: int) -> Outcome:
        """The turn timer ran out: the computer finishes `seat`'s turn."""
        ...

    def screens(self, table: Table, *, new: bool = False) -> Outcome:
        """The table and every person's private screen as they are now (posted anew when
        `new`)."""
        ...

    def table_screen(self, table: Table) -> Screen: ...

    def private_screen(self, table: Table, seat: int) -> Screen: ...

    # -- the web table (bot/web) --------------------------------------------------------
    def web_view(self, record: Record, seat: int | None) -> dict[str, Any]:
        """What the web page of `seat` (None: a spectator) shows, as JSON-safe data: the
        seat's working copy and hand, which groups don't hold, the actions open now. Never
        what that seat can't see."""
        ...

    def web_edit(self, table: Table, seat: int, user: str, edit: Any) -> Outcome:
        """A page's edit (bot/web/protocol.py `Edit`): the same draft edit or action the
        chat buttons make, after the same version and turn checks."""
        ...

    def review(self, table: Table, seat: int, round: int | None) -> Screen:
        """Issue 32: `seat`'s own review of a finished `round` (None: the last one over) — a
        picture and its text in the seat's language, made from that seat's views only; never
        changes the game. Refusal with a sentence when there is nothing to review. Called only
        when the game `offers_review`."""
        ...

    def help_text(self) -> str: ...

    def rules_text(self, variant: str | None) -> str: ...

    def discord_help(self) -> str:
        """This game's lines of Discord's /rummy help (after the platform's commands), in the
        current language."""
        ...

    def terminal_help(self, variant: str | None) -> str:
        """The terminal's commands for `variant` (None: the default) in the current language:
        the game's typed moves as typed there (no slash), and a button's number to press it."""
        ...

    # -- the puzzle of the day (optional: `offers_puzzles`; bot/core/puzzles.py) ---------
    def puzzle_cut(self, record: Record) -> tuple[int, dict[str, Any]] | None:
        """A finished game's best puzzle from its people's own views, as (score, JSON-safe
        data) — a higher score, a better puzzle — or None. Pure CPU (run off the loop)."""
        ...

    def puzzle_post(self, data: dict[str, Any], day: str) -> Screen:
        """The puzzle as its chat sees it (a picture and its text, in the current language);
        no names, nothing of the game but the puzzle's own position."""
        ...

    def puzzle_solution(self, data: dict[str, Any], day: str) -> Screen:
        """The next day's answer to the puzzle."""
        ...

    def puzzle_try(self, table: Table, data: dict[str, Any]) -> Outcome:
        """Deal the puzzle in this new row of the person's private chat (its one seat: the
        person) as the game's own puzzle variant, and show it: one turn, judged when it ends."""
        ...

    def puzzle_verdict(self, record: Record) -> tuple[bool, int] | None:
        """A finished try: (solved, cards laid); None when the row holds no try."""
        ...

    # -- guided lessons (optional: `offers_lessons`): a lesson is a variant of the hosted game,
    # in a row of the learner's private chat marked `record.lesson` (never rated; kept
    # lesson_retention_days). The platform's /lesson reaches the first game that offers them
    # (service.lesson).
    def lesson_options(self, words: str | None) -> dict[str, Any] | None:
        """The lesson `words` name, as the lesson row's options (None: no words); ValueError
        with a sentence for a person when there is no such lesson."""
        ...

    def lesson(self, table: Table, options: dict[str, Any] | None) -> Outcome:
        """Begin the lesson `options` name in this row (a new row, or the learner's old
        lesson row taken up again), or with None resume the lesson the row holds."""
        ...

    def lesson_terminal(self) -> LessonTerminal:
        """What the terminal's lesson needs of this game's lessons (bot/adapters/
        console_lesson.py): it names no game."""
        ...
