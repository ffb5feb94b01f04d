"""State objects of the fake Telegram Bot API server (users, chats, messages, the request log).

Everything here is plain data plus ``to_api()`` serialisers that produce the exact JSON shapes
the real Bot API returns, so python-telegram-bot's ``de_json`` accepts them unchanged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

JSONDict = dict[str, Any]

# Telegram answers these for every ChatFullInfo; PTB 22's de_json requires them.
_ACCEPTED_GIFT_TYPES: JSONDict = {
    "unlimited_gifts": True,
    "limited_gifts": True,
    "unique_gifts": True,
    "premium_subscription": True,
    "gifts_from_channels": True,
}


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status == ``error_code``, plus ``description``."""

    def __init__(
        self, error_code: int, description: str, parameters: JSONDict | None = None
    ) -> None:
        super().__init__(f"{error_code} {description}")
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def body(self) -> JSONDict:
        body: JSONDict = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(description: str) -> ApiError:
    return ApiError(400, f"Bad Request: {description}")


@dataclass(eq=False)
class FakeUser:
    """A Telegram account. ``started``: has opened the bot's private chat; ``blocked``: has
    blocked the bot. Both decide whether the bot may write to the user's private chat."""

    id: int
    first_name: str
    username: str | None = None
    last_name: str | None = None
    language_code: str | None = "en"
    is_bot: bool = False
    started: bool = False
    blocked: bool = False

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_api(self) -> JSONDict:
        data: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass(eq=False)
class FakeFile:
    """An uploaded (or referenced) file. ``data`` is None for photos sent by URL."""

    file_id: str
    file_unique_id: str
    data: bytes | None
    width: int = 0
    height: int = 0
    mime_type: str | None = None
    file_path: str = ""
    sizes: list[JSONDict] = field(default_factory=list)  # PhotoSize dicts, smallest first

    @property
    def file_size(self) -> int:
        return len(self.data) if self.data is not None else 0


@dataclass(eq=False)
class FakeMessage:
    """One message in a chat, as the chat members currently see it."""

    chat: FakeChat
    message_id: int
    sender: FakeUser
    date: int
    text: str | None = None
    entities: list[JSONDict] = field(default_factory=list)
    photo: FakeFile | None = None
    caption: str | None = None
    caption_entities: list[JSONDict] = field(default_factory=list)
    reply_markup: JSONDict | None = None  # only inline keyboards are kept (like Telegram)
    reply_to: FakeMessage | None = None
    edit_date: int | None = None
    edit_count: int = 0
    deleted: bool = False

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    @property
    def chat_id(self) -> int:
        return self.chat.id

    @property
    def photo_bytes(self) -> bytes | None:
        return self.photo.data if self.photo else None

    @property
    def buttons(self) -> list[list[tuple[str, str | None]]]:
        """Rows of (text, callback_data); callback_data is None for URL and other buttons."""
        if not self.reply_markup:
            return []
        return [
            [(b.get("text", ""), b.get("callback_data")) for b in row]
            for row in self.reply_markup.get("inline_keyboard", [])
        ]

    def content_key(self) -> tuple[Any, ...]:
        """What Telegram compares to decide "message is not modified"."""
        photo_key: Any = None
        if self.photo is not None:
            photo_key = self.photo.data if self.photo.data is not None else self.photo.file_id
        return (
            self.text,
            _canonical(self.entities),
            photo_key,
            self.caption,
            _canonical(self.caption_entities),
            _canonical(self.reply_markup),
        )

    def to_api(self, *, with_reply: bool = True) -> JSONDict:
        data: JSONDict = {
            "message_id": self.message_id,
            "from": self.sender.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.photo is not None:
            data["photo"] = self.photo.sizes
            if self.caption is not None:
                data["caption"] = self.caption
                if self.caption_entities:
                    data["caption_entities"] = self.caption_entities
        if self.reply_markup is not None:
            data["reply_markup"] = self.reply_markup
        return data

    def __repr__(self) -> str:
        who = "bot" if self.from_bot else self.sender.first_name
        body = self.text if self.text is not None else f"<photo> {self.caption or ''}".strip()
        flags = " deleted" if self.deleted else ""
        return f"<FakeMessage {self.chat.id}/{self.message_id} {who}: {body!r}{flags}>"


@dataclass(eq=False)
class FakeChat:
    """A private chat (id == the user's id), a group (negative id) or a supergroup (-100…)."""

    id: int
    type: str
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    bot_status: str = "member"  # member | administrator | creator | left | kicked
    members: dict[int, str] = field(default_factory=dict)  # user id -> chat member status
    pinned: list[int] = field(default_factory=list)
    history: dict[int, FakeMessage] = field(default_factory=dict)
    next_message_id: int = 1

    def to_api(self) -> JSONDict:
        data: JSONDict = {"id": self.id, "type": self.type}
        if self.type == "private":
            data["first_name"] = self.first_name or ""
            if self.last_name:
                data["last_name"] = self.last_name
        else:
            data["title"] = self.title or ""
        if self.username:
            data["username"] = self.username
        return data

    def to_full_api(self) -> JSONDict:
        data = self.to_api()
        data.update(
            accent_color_id=self.id % 7 if self.id > 0 else 0,
            max_reaction_count=11,
            accepted_gift_types=dict(_ACCEPTED_GIFT_TYPES),
        )
        if self.pinned:
            pinned = self.history.get(self.pinned[-1])
            if pinned is not None and not pinned.deleted:
                data["pinned_message"] = pinned.to_api(with_reply=False)
        return data


class FoundButton(NamedTuple):
    message: FakeMessage
    row: int
    column: int
    text: str
    callback_data: str | None

    @property
    def message_id(self) -> int:
        return self.message.message_id


@dataclass
class CallbackQueryRecord:
    id: str
    user: FakeUser
    chat_id: int | None
    message_id: int | None
    data: str | None
    created: float  # time.monotonic(): the answer deadline is real time (FakeTelegram)
    answered: bool = False


@dataclass
class RecordedRequest:
    """One Bot API call as the server received and answered it."""

    method: str  # as spelled in the URL, e.g. "sendMessage"
    params: JSONDict  # decoded: JSON values parsed, string parameters kept as sent
    files: dict[str, bytes]  # multipart uploads by part name (e.g. "photo", "attachedab12…")
    chat_id: int | str | None
    time: float  # the fake's clock.monotonic() when the request arrived (Telegram's time)
    wall: float = 0.0  # time.monotonic() then (real time: `settle` waits for real quiet)
    status: int = 200
    response: JSONDict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == 200

    @property
    def result(self) -> Any:
        return self.response.get("result")

    @property
    def description(self) -> str | None:
        return self.response.get("description")

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.params.items() if k != "reply_markup"}
        text = json.dumps(shown, ensure_ascii=False, default=str)
        if len(text) > 120:
            text = text[:117] + "..."
        outcome = "ok" if self.ok else f"{self.status} {self.description}"
        return f"<{self.method} {text} -> {outcome}>"


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
