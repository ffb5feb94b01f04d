"""Build-to-Ten's state read from a hosted record (its host and its web table both read it)."""

from __future__ import annotations

from bot.core.hosting import Refusal
from bot.core.record import Record
from bot.i18n import _
from engine.buildten import BuildState


def state_of(record: Record) -> BuildState:
    """The game's state (a lesson's step number left out); a clear refusal before the deal."""
    if record.state is None:
        raise Refusal(_("The game hasn't started yet."))
    return BuildState.from_dict({k: v for k, v in record.state.items() if k != "lesson"})
