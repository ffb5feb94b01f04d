"""The terminal as a person meets it, through a real pseudo-terminal: the `rummy` command's
Ctrl-C (one press saves and quits, as the README says), in a game and in a lesson."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

RUMMY = [sys.executable, "-m", "bot.cli"]
ROOT = Path(__file__).resolve().parent.parent


def _own_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is its stdin (the pty)."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """`rummy …` on a pseudo-terminal: what it printed, keys sent to it."""

    def __init__(self, args: list[str], data: Path) -> None:
        self.master, slave = pty.openpty()
        env = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": "", "TERM": "dumb"}
        self.proc = subprocess.Popen(
            [*RUMMY, *args, "--data", str(data), "--lang", "en"],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True,
            preexec_fn=_own_terminal,  # Ctrl-C becomes SIGINT only on the controlling terminal
        )
        os.close(slave)
        self.text = ""

    def read_until(self, wanted: str, timeout: float = 60.0) -> bool:
        """Read until `wanted` shows (True) or the program ends or time runs out (False)."""
        end = time.monotonic() + timeout
        while wanted not in self.text and time.monotonic() < end:
            ready, _w, _x = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the program ended: its side of the terminal is closed
                    break
                if not chunk:
                    break
                self.text += chunk.decode("utf-8", "replace")
        return wanted in self.text

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        os.close(self.master)


@pytest.mark.parametrize(
    ("args", "bye"),
    [
        (["play", "--seed", "3"], "the game is saved"),
        (["lesson"], "the lesson is saved"),
    ],
)
def test_one_ctrl_c_saves_and_quits(tmp_path, args, bye):
    term = Terminal(args, tmp_path)
    try:
        assert term.read_until("\n> "), term.text[-2000:]
        term.press(b"\x03")  # one Ctrl-C, once
        assert term.read_until(bye, timeout=20), term.text[-1500:]
        assert term.proc.wait(20) == 0
        assert "Traceback" not in term.text
        assert "make play" in term.text or "rummy lesson" in term.text
    finally:
        term.close()
    again = Terminal(args, tmp_path)  # it was saved: the next start picks it up
    try:
        assert again.read_until("\n> "), again.text[-2000:]
        assert "resuming" in again.text or "Welcome back" in again.text, again.text[-1500:]
        again.press(b"quit\r")
        assert again.read_until(bye, timeout=20)
    finally:
        again.close()
