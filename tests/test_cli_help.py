"""`rummy --help` and its subcommands' help say what each flag takes (issue 44); `rummy run`
without a token says its one useful line, before any database work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from engine.rummy import ALL_RULEBOOKS
from engine.rummy.rulebooks import option_choices

ROOT = Path(__file__).resolve().parent.parent


def help_of(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_every_flag_has_help_and_options_list_keys_and_values(capsys, command):
    text = help_of(capsys, command)
    flat = " ".join(text.split())
    for flag in ("--rulebook", "--option", "--seed"):
        line = next(x for x in text.splitlines() if x.strip().startswith(flag))
        after = flat.split(line.split()[0], 1)[1].split(" --", 1)[0]
        assert len(after.split()) > 3, (flag, after)  # a sentence, not just the metavar
    for name in ALL_RULEBOOKS:
        for key, values in option_choices(name).items():
            assert f"{key}=" in flat, key
            assert all(str(v) in flat for v in values), (key, values)
    if command == "simulate":
        for flag in ("--players", "--games"):
            line = next(x for x in text.splitlines() if x.strip().startswith(flag))
            after = flat.split(line.split()[0], 1)[1].split(" --", 1)[0]
            assert len(after.split()) > 3, (flag, after)


def test_the_top_help_lists_the_commands(capsys):
    text = help_of(capsys)
    for command in ("play", "lesson", "simulate", "run", "migrate", "party"):
        assert command in text


def test_run_without_a_token_says_one_line_and_touches_no_database(tmp_path):
    env = {k: v for k, v in os.environ.items()
           if k not in ("TELEGRAM_TOKEN", "DISCORD_TOKEN", "DATABASE_URL")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "bot.cli", "run"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    said = (done.stdout + done.stderr).strip().splitlines()
    assert said == ["Set TELEGRAM_TOKEN and/or DISCORD_TOKEN (see .env.example). "
                    "To play without a token: make play"], said
    assert done.returncode != 0
    assert not (tmp_path / "data").exists()  # no database made for nothing
