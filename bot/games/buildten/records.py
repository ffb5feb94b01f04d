"""Build-to-Ten's state read from a hosted record (its host and its web table both read it)."""

from __future__ import annotations

from bot.core.hosting import Refusal
from bot.core.record import Record
from bot.i18n import _
from engine.buildten import BuildState

HOST_KEYS = ("lesson", "actions")  # the host's, beside the engine's state (host.py: _save)


def state_of(record: Record) -> BuildState:
    """The game's state (a lesson's step number and the unsaved actions left out); a clear
    refusal before the deal."""
    if record.state is None:
        raise Refusal(_("The game hasn't started yet."))
    return BuildState.from_dict({k: v for k, v in record.state.items()
                                 if k not in HOST_KEYS})
