"""A tile lesson's words (Rummikub: tiles, a rack, the pool) where the runner's own speak of
cards, a hand or the stock. The runner picks them by the rulebook's `tiles`, as the game's
screens do (bot/games/rummy/screens.py); the game's msgids are reused where it has one."""

from __future__ import annotations

from .words import N_

# by what went wrong (runner.REASON_KEYS); a key not here has no card word in its nudge
TILE_NUDGES: dict[str, str] = {
    "too_few": N_("A group or a run needs at least 3 tiles."),
    "not_meld": N_(
        "Every combination must be a group (3–4 tiles of one number, all different colours) "
        "or a run (3 or more tiles of one colour in order)."
    ),
    "back_to_hand": N_(
        "A tile on the table never goes back to a rack: put it into a combination."
    ),
    "nothing_added": N_("Every move adds at least one tile from your rack."),
    "loose": N_("Tiles you took out of a combination must go into one before Done."),
    "stock_empty": N_("The pool is empty: pass instead."),
    "pass_stock": N_("You pass only when the pool is empty."),
    "no_card": N_("Check the tiles on your rack and the group letters on the picture."),
}

TILE_MISS_LEADS: dict[str, str] = {"drew": N_("That drew a tile.")}

# the buttons a demo presses, as a tile game's screen labels them
TILE_BUTTONS: dict[str, str] = {"draw": N_("Draw a tile")}
GIVE_UP_ONE = N_("Give up (+1)")  # a failed move drawing one tile (Rummikub's option)

SPLIT_AFTER_TILE = N_("✂ Split ▸ {group} after tile {n}")
POOL_EMPTY = N_("The pool is empty.")
# The game's own plural sentences (bot/games/rummy/narrate.py extracts them with their
# plurals; unmarked here, so the catalog keeps one entry each), with its placeholders.
GIVE_UP_CONFIRM = (
    "Give up puts the table back and you draw {n} tile — tap Give up (+{n}) again to confirm.",
    "Give up puts the table back and you draw {n} tiles — tap Give up (+{n}) again to confirm.",
)
COMPUTER_DREW = ("{name} drew {n} tile", "{name} drew {n} tiles")
