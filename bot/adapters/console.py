"""The terminal front end: play against computer players with typed commands.

Reads lines and writes text through the functions it is given, so tests can drive it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from bot.core.typed import cannot_place
from engine import (
    Commit,
    Draw,
    GiveUp,
    Hint,
    IllegalAction,
    JokerChoiceNeeded,
    Knock,
    Move,
    NextRound,
    Pass,
    Place,
    Reset,
    SetDraft,
    Split,
    Take,
    apply,
    find_move,
    get_rulebook,
    group_index,
    group_label,
    new_game,
    parse_cards,
    player_view,
)
from engine.actions import Action, Finish
from engine.ai import choose_action
from engine.cards import Card, rank_order, suit_order
from engine.game import Event, PlayerView
from engine.state import GameState

HELP = """Commands (cards like 7H 10S QD, * for a joker; or hand numbers like 1 4 5):
  lay 7H 8H 9H     put cards from your hand into a new group
  add B 10H        put cards into group B
  take B QS        take a card out of group B (it must be placed again before done)
  move B:QS A      move a card from group B to group A ('new' for a new group)
  split B 4        split group B after its 4th card
  auto 7H 8H       let the solver place these cards (rearranging the table if needed)
  done             play your working copy        reset   put everything back
  draw / pass / knock / giveup / hint / sort / help / quit"""


@dataclass
class Seat:
    name: str
    computer: str | None = None  # level, or None for the person at the keyboard


class ConsoleGame:
    def __init__(
        self,
        rulebook: str,
        seats: list[Seat],
        seed: int,
        options: dict | None = None,
        *,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.rules = get_rulebook(rulebook, **(options or {}))
        self.seats = seats
        self.state: GameState = new_game(self.rules, len(seats), seed)
        self.read = read
        self.write = write
        self.sort = "suit"
        self.pending_joker: tuple[int, list] | None = None

    # -- the loop ---------------------------------------------------------------------

    def run(self) -> GameState:
        self.write(f"Rummy Table — {self.rules.describe()}")
        self.write("Type 'help' for commands.")
        self.show_table()
        while self.state.phase != "game_over":
            seat = self.state.turn
            if self.state.phase == "round_over":
                if not self._round_over():
                    break
                continue
            if self.seats[seat].computer:
                self._computer_turn(seat)
                continue
            if not self._human_step(seat):
                break
        if self.state.result:
            self._game_over()
        return self.state

    def _apply(self, action: Action) -> list[Event]:
        self.state, events = apply(self.state, action)
        return events

    def _computer_turn(self, seat: int) -> None:
        view = player_view(self.state, seat)
        action = choose_action(view, self.seats[seat].computer or "medium")
        events = self._apply(action)
        self._report(events)

    def _human_step(self, seat: int) -> bool:
        view = player_view(self.state, seat)
        self.show_private(view)
        try:
            line = self.read("> ").strip()
        except EOFError:
            return False
        if not line:
            return True
        if line.lower() in ("quit", "exit", "q"):
            self.write("Bye.")
            return False
        try:
            events = self.command(seat, line)
        except IllegalAction as error:
            if isinstance(error, JokerChoiceNeeded):
                self.pending_joker = (error.group, error.options)
                self.write(f"{error} — type 'joker <card>' (e.g. joker {error.options[0][0]})")
            else:
                self.write(f"✗ {error}")
            return True
        except ValueError as error:
            self.write(f"✗ {error}")
            return True
        self._report(events)
        return True

    def _round_over(self) -> bool:
        data = self.state.rounds[-1]
        names = [s.name for s in self.seats]
        self.write(
            f"— Round {self.state.round} over ({data['how']}). Winner: "
            + ", ".join(names[w] for w in data["winners"])
        )
        self.write(
            "  this round: " + " · ".join(f"{names[i]} {p}" for i, p in enumerate(data["points"]))
        )
        self.write(
            "  totals:     "
            + " · ".join(f"{names[i]} {p}" for i, p in enumerate(self.state.scores))
        )
        if any(s.computer is None for s in self.seats):
            if self.rules.length == "open":
                answer = self._ask("Next round or finish? [n/f] ")
                if answer is None:
                    return False
                if answer.startswith("f"):
                    self._report(self._apply(Finish(0)))
                    return True
            elif self._ask("Press Enter for the next round ") is None:
                return False
        self._report(self._apply(NextRound(0)))
        self.show_table()
        return True

    def _ask(self, prompt: str) -> str | None:
        try:
            return self.read(prompt).strip().lower()
        except EOFError:
            return None

    def _game_over(self) -> None:
        result = self.state.result or {}
        names = [s.name for s in self.seats]
        winners = result.get("winners", [])
        if result.get("draw"):
            self.write("Game over — a draw between " + ", ".join(names[w] for w in winners))
        else:
            self.write("Game over — " + " and ".join(names[w] for w in winners) + " won")
        totals = result.get("totals", [])
        if totals:
            self.write("Final: " + " · ".join(f"{names[i]} {t}" for i, t in enumerate(totals)))

    # -- commands ---------------------------------------------------------------------

    def command(self, seat: int, line: str) -> list[Event]:
        """Turn one typed line into engine actions; raises IllegalAction/ValueError."""
        verb, _, rest = line.strip().partition(" ")
        verb = verb.lower().lstrip("/")
        rest = rest.strip()
        view = player_view(self.state, seat)
        if verb in ("help", "h", "?"):
            self.write(HELP)
            return []
        if verb == "sort":
            self.sort = "rank" if self.sort == "suit" else "suit"
            return []
        if verb == "table":
            self.show_table()
            return []
        if verb in ("draw", "d"):
            return self._apply(Draw(seat))
        if verb == "pass":
            return self._apply(Pass(seat))
        if verb == "knock":
            return self._apply(Knock(seat))
        if verb in ("giveup", "give"):
            return self._apply(GiveUp(seat))
        if verb == "reset":
            return self._apply(Reset(seat))
        if verb == "hint":
            return self._apply(Hint(seat))
        if verb == "done":
            return self._apply(Commit(seat))
        if verb == "joker":
            if not self.pending_joker:
                raise ValueError("No joker is waiting for a choice")
            group, _ = self.pending_joker
            choice = tuple(rest.upper().split())
            self.pending_joker = None
            return self._apply(Commit(seat, None, {group: choice}))
        if verb == "lay":
            return self._apply(Place(seat, self._cards(view, rest), None))
        if verb == "add":
            label, _, cards = rest.partition(" ")
            return self._apply(Place(seat, self._cards(view, cards), group_index(label)))
        if verb == "take":
            label, _, cards = rest.partition(" ")
            events: list[Event] = []
            for card in parse_cards(cards):
                events += self._apply(Take(seat, group_index(label), card))
            return events
        if verb == "move":
            match = re.fullmatch(r"([A-Za-z]+)\s*:\s*(.+?)\s+([A-Za-z]+)", rest)
            if not match:
                raise ValueError("Write it as: move B:QS A  (or 'new' as the target)")
            source, cards, target = match.groups()
            to = None if target.lower() == "new" else group_index(target)
            return self._apply(Move(seat, tuple(parse_cards(cards)), group_index(source), to))
        if verb == "split":
            label, _, at = rest.partition(" ")
            if not at.strip().isdigit():
                raise ValueError("Write it as: split B 4  (split group B after its 4th card)")
            return self._apply(Split(seat, group_index(label), int(at)))
        if verb == "auto":
            return self._auto(seat, view, rest)
        raise ValueError(f"Unknown command '{verb}'. Type 'help' for the list.")

    def _cards(self, view: PlayerView, text: str) -> tuple[Card, ...]:
        """Cards by notation or by the numbers shown next to the hand."""
        hand = self._sorted(view.draft_hand)
        out = []
        for token in text.replace(",", " ").split():
            if token.isdigit():
                index = int(token)
                if not 1 <= index <= len(hand):
                    raise ValueError(f"There is no card number {index} in your hand")
                out.append(hand[index - 1])
            else:
                out.extend(parse_cards(token))
        if not out:
            raise ValueError("Name the cards (like 7H 8H 9H) or their numbers")
        return tuple(out)

    def _auto(self, seat: int, view: PlayerView, text: str) -> list[Event]:
        wanted = self._cards(view, text)
        hand = list(view.hand)
        chosen = []
        for card in wanted:
            match = next((c for c in hand if c.face == card.face and c not in chosen), None)
            if match is None:
                raise ValueError(f"You have no {card.pretty()}")
            chosen.append(match)
        table = [list(g) for g in view.table] + [[c] for c in view.singles]
        move = find_move(
            self.rules,
            table,
            hand,
            objective="any",
            select=chosen,
            first_lay_done=view.first_lay_done,
            singles=view.singles,
        )
        if move is None:
            raise ValueError(cannot_place(chosen))
        events = self._apply(SetDraft(seat, tuple(tuple(g) for g in move.new_table)))
        self.write("Placed. Type 'done' to play it, or keep editing.")
        return events

    # -- output -----------------------------------------------------------------------

    def _sorted(self, cards) -> list[Card]:
        return sorted(cards, key=rank_order if self.sort == "rank" else suit_order)

    def _name(self, seat: int | None) -> str:
        return self.seats[seat].name if seat is not None else ""

    def _whose(self, seat: int) -> str:
        return "Your" if self.seats[seat].computer is None else f"{self._name(seat)}'s"

    def show_table(self) -> None:
        view = player_view(self.state, 0)
        self.write(self._status(view))
        self.write(self._groups_text(view.table, set(), view.singles))

    def _status(self, view: PlayerView) -> str:
        counts = " · ".join(f"{s.name} {view.hand_counts[i]}" for i, s in enumerate(self.seats))
        line = (
            f"{self.rules.title} · round {view.round} · {self._whose(view.turn)} turn · "
            f"stock {view.stock} · cards: {counts}"
        )
        if self.rules.length != "single":
            line += " · scores: " + " · ".join(
                f"{s.name} {view.scores[i]}" for i, s in enumerate(self.seats)
            )
        return line

    def _groups_text(self, groups, changed: set[int], singles=(), loose=()) -> str:
        lines = []
        for i, group in enumerate(groups):
            mark = "*" if i in changed else " "
            lines.append(f" {mark}{group_label(i):>2}  {' '.join(c.pretty() for c in group)}")
        if not groups:
            lines.append("    (the table is empty)")
        if singles:
            lines.append("  singles: " + " ".join(c.pretty() for c in singles))
        if loose:
            lines.append(
                "  loose (place these before done): " + " ".join(c.pretty() for c in loose)
            )
        return "\n".join(lines)

    def show_private(self, view: PlayerView) -> None:
        self.write("")
        self.write(self._status(view))
        draft = view.draft
        if draft is not None:
            self.write("Your working copy (* = changed):")
            self.write(
                self._groups_text(draft.groups, set(view.changed), draft.singles, draft.loose)
            )
        else:
            self.write(self._groups_text(view.table, set(), view.singles))
        hand = self._sorted(view.draft_hand)
        self.write("Your hand: " + "  ".join(f"{i + 1}:{c.pretty()}" for i, c in enumerate(hand)))
        if view.hint:
            self._show_hint(view.hint)
        buttons = [
            b for b in ("commit", "draw", "pass", "knock", "give_up", "reset") if b in view.legal
        ]
        names = {"commit": "done", "give_up": "giveup"}
        self.write("Actions: " + " · ".join(names.get(b, b) for b in buttons) + " · hint · help")

    def _show_hint(self, hint: dict) -> None:
        card = Card.from_token(hint["card"])
        groups = ", ".join(group_label(g) for g in hint["groups"])
        where = f" — it changes group {groups}" if groups else " — as a new group"
        rearrange = " (you need to rearrange the table)" if hint["rearrange"] else ""
        self.write(f"💡 You can play {card.pretty()}{where}{rearrange}")

    def _report(self, events: list[Event]) -> None:
        for event in events:
            text = self._event_text(event)
            if text:
                self.write(text)

    def _event_text(self, event: Event) -> str | None:
        who = self._name(event.seat)
        human = event.seat is not None and self.seats[event.seat].computer is None
        match event.kind:
            case "drew":
                if human and event.private.get("cards"):
                    cards = " ".join(Card.from_token(t).pretty() for t in event.private["cards"])
                    return f"You drew {cards}"
                n = event.data["count"]
                return f"{who} drew {n} card{'s' * (n != 1)}" if n else f"{who} could not draw"
            case "laid":
                cards = " ".join(Card.from_token(t).pretty() for t in event.data["placed"])
                how = " (rearranging the table)" if event.data["rearranged"] else ""
                return f"{who} laid {cards}{how}"
            case "passed":
                return f"{who} passed"
            case "knocked":
                return f"{who} knocked!"
            case "reminder":
                self._show_hint(event.private["hint"])
                return "You must lay cards if you can. Tap draw (or pass) again to go ahead anyway."
            case "hint":
                if event.private.get("hint"):
                    self._show_hint(event.private["hint"])
                    return None
                return "No card of yours can be played now."
            case "give_up_confirm":
                return ("Give up puts everything back and you draw 3 cards. "
                        "Type giveup again to confirm.")
            case "gave_up":
                return f"{who} gave up the move and drew {event.data['count']}"
            case "turn" if event.data.get("final") and event.seat is not None:
                return f"Final turns: {who} may lay cards or pass (no drawing)."
            case "round_started":
                return f"Round {event.data['round']} starts."
            case _:
                return None


def parse_seats(text: str) -> list[Seat]:
    """`you,cpu,cpu:hard` -> seats; 'you' is the person at the keyboard."""
    seats = []
    number = 0
    for item in text.split(","):
        kind, _, level = item.strip().partition(":")
        if kind.lower() in ("you", "me", "human"):
            seats.append(Seat("You"))
        elif kind.lower() in ("cpu", "computer", "ai", "bot"):
            number += 1
            seats.append(Seat(f"CPU {number}", level or "medium"))
        else:
            raise ValueError(f"Seat '{item}' should be 'you' or 'cpu' (optionally cpu:easy)")
    if sum(s.computer is None for s in seats) != 1:
        raise ValueError("The terminal game needs exactly one 'you' seat")
    return seats


def scripted(lines: list[str]) -> Callable[[str], str]:
    """An input function that answers from a list, then raises EOFError (for tests)."""
    it: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read
