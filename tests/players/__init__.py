"""One scripted-player harness for tests and benches (issue 29): a person sees what the bot sent
them, decides as someone who knows the rules would, and acts only through the fake server —
never through the bot's database.

- `mind`: platform-independent — what a person reads off a screen (`Sight`: their hand, the
  table, what the caption says) and what they then do (`decide` → `Plan`), with the pure engine.
- `telegram`: a person on the fake Bot API (their private messages, the group's messages;
  presses).
- `discord`: a member on the fake Discord (their DM or ephemeral view, the channel's live
  table; clicks and menu picks).

tests/test_players.py keeps it honest: nothing here imports the store or the saved record.
"""
