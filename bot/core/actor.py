"""Who sent a command: the platform, the chat and the person (decoded once by an adapter)."""

from __future__ import annotations

from dataclasses import dataclass

from bot import i18n

from .names import clean_name


@dataclass
class Actor:
    platform: str
    chat_id: str
    user: str
    name: str
    private: bool = False
    lang: str = ""  # the client's language (Telegram language_code, Discord locale); "" unknown
    admin: bool = False  # a chat admin (asked by the adapter only where a command needs it)

    def __post_init__(self) -> None:
        # A display name is the client's: no bidi tricks, no passing for a computer seat.
        self.name = clean_name(self.name)
        self.lang = i18n.normalize(self.lang) if self.lang else ""
