"""Bot API methods of the fake Telegram server: Telegram's rules, limits and error texts.

``BotApiMethods`` is a mixin of ``FakeTelegram`` (telegram_server.py), which owns the state and
calls these methods under its lock. Each method takes the decoded parameters and returns the
``result`` of the answer or raises ``ApiError``.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image, UnidentifiedImageError

from bot.clock import Clock

from .telegram_models import (
    ApiError,
    CallbackQueryRecord,
    FakeChat,
    FakeFile,
    FakeMessage,
    FakeUser,
    JSONDict,
    bad_request,
)
from .telegram_text import (
    ANSWER_LIMIT,
    CAPTION_LIMIT,
    TEXT_LIMIT,
    parse_formatted,
    strip_formatted,
    utf16_len,
    validate_reply_markup,
)

NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly the "
    "same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
DEFAULT_UPDATE_KINDS = frozenset(
    {
        "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
        "business_message", "edited_business_message", "deleted_business_messages",
        "inline_query", "chosen_inline_result", "callback_query", "shipping_query",
        "pre_checkout_query", "purchased_paid_media", "poll", "poll_answer", "my_chat_member",
        "chat_join_request", "chat_boost", "removed_chat_boost",
    }
)  # fmt: skip  # Telegram's default: everything but chat_member and message reactions
_CHAT_ACTIONS = frozenset(
    {
        "typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
        "upload_document", "choose_sticker", "find_location", "record_video_note",
        "upload_video_note",
    }
)  # fmt: skip
ADMIN_STATUSES = frozenset({"administrator", "creator"})

ChatRef = FakeChat | int
UserRef = FakeUser | int


@dataclass
class Upload:
    filename: str
    data: bytes
    content_type: str


class ApiParams:
    """Decoded request parameters with Telegram-like type errors."""

    def __init__(self, values: JSONDict, uploads: dict[str, Upload]) -> None:
        self.values = values
        self.uploads = uploads

    def get(self, name: str) -> Any:
        return self.values.get(name)

    def as_int(self, name: str) -> int | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise bad_request(f"wrong parameter {name} in request")
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            return int(value)
        raise bad_request(f"wrong parameter {name} in request")

    def as_number(self, name: str) -> float | None:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        try:
            return float(value)
        except (TypeError, ValueError):
            raise bad_request(f"wrong parameter {name} in request") from None

    def as_str(self, name: str) -> str | None:
        value = self.values.get(name)
        if value is None or isinstance(value, str):
            return value
        return json.dumps(value) if isinstance(value, dict | list | bool) else str(value)

    def as_bool(self, name: str) -> bool:
        return self.values.get(name) in (True, 1, "true", "True", "1")

    def as_json(self, name: str, *, kind: type = dict) -> Any:
        """A JSON-object/array parameter; a string here means it was not valid JSON."""
        value = self.values.get(name)
        if value is None:
            return None
        if not isinstance(value, kind):
            raise bad_request(f"can't parse {name} JSON object")
        return value


class BotApiMethods:
    """Telegram's side of each Bot API call (state attributes are set by FakeTelegram)."""

    bot: FakeUser
    privacy_mode: bool
    callback_answer_timeout: float
    clock: Clock
    answers: dict[str, JSONDict]
    queries: dict[str, CallbackQueryRecord]
    webhook: JSONDict | None
    commands: dict[tuple[str, str], list[JSONDict]]
    _users: dict[int, FakeUser]
    _chats: dict[int, FakeChat]
    _files: dict[str, FakeFile]
    _updates: list[JSONDict]
    _allowed_updates: frozenset[str]
    _file_ids: itertools.count[int]

    def _api_methods(self) -> dict[str, Callable[[ApiParams], Any]]:
        """Handlers by lower-cased method name (Telegram method names are case-insensitive)."""
        table: dict[str, Callable[[ApiParams], Any]] = {
            "getMe": self._get_me,
            "logOut": lambda p: True,
            "close": lambda p: True,
            "deleteWebhook": self._delete_webhook,
            "setWebhook": self._set_webhook,
            "getWebhookInfo": self._get_webhook_info,
            "setMyCommands": self._set_my_commands,
            "getMyCommands": self._get_my_commands,
            "deleteMyCommands": self._delete_my_commands,
            "setChatMenuButton": self._set_chat_menu_button,
            "getChatMenuButton": self._get_chat_menu_button,
            "sendMessage": self._send_message,
            "sendPhoto": self._send_photo,
            "editMessageText": self._edit_message_text,
            "editMessageCaption": self._edit_message_caption,
            "editMessageMedia": self._edit_message_media,
            "editMessageReplyMarkup": self._edit_message_reply_markup,
            "deleteMessage": self._delete_message,
            "deleteMessages": self._delete_messages,
            "pinChatMessage": self._pin_chat_message,
            "unpinChatMessage": self._unpin_chat_message,
            "answerCallbackQuery": self._answer_callback_query,
            "getChat": self._get_chat,
            "getChatMember": self._get_chat_member,
            "getChatAdministrators": self._get_chat_administrators,
            "getChatMemberCount": self._get_chat_member_count,
            "sendChatAction": self._send_chat_action,
            "getFile": self._get_file,
        }
        return {name.lower(): handler for name, handler in table.items()}

    def _set_allowed_updates(self, allowed: Any) -> None:
        if not isinstance(allowed, list):
            raise bad_request("can't parse allowed_updates JSON object")
        self._allowed_updates = frozenset(allowed) if allowed else DEFAULT_UPDATE_KINDS

    def _user(self, user: UserRef) -> FakeUser:
        if isinstance(user, FakeUser):
            self._users.setdefault(user.id, user)
            return self._users[user.id]
        try:
            return self._users[user]
        except KeyError:
            raise ValueError(f"unknown user {user}; create it with fake.user()") from None

    def _chat(self, chat: ChatRef) -> FakeChat:
        chat_id = chat.id if isinstance(chat, FakeChat) else chat
        found = self._resolve_chat(chat_id)
        if found is None:
            raise ValueError(f"unknown chat {chat_id}; create it with fake.group()/user()")
        return found

    def _private_chat(self, user: FakeUser) -> FakeChat:
        chat = self._chats.get(user.id)
        if chat is None:
            chat = self._chats[user.id] = FakeChat(id=user.id, type="private")
        chat.first_name, chat.last_name, chat.username = (
            user.first_name,
            user.last_name,
            user.username,
        )
        return chat

    def _resolve_chat(self, raw: Any) -> FakeChat | None:
        if isinstance(raw, str):
            if raw.startswith("@"):
                name = raw[1:].lower()
                return next(
                    (
                        c
                        for c in self._chats.values()
                        if c.type != "private" and (c.username or "").lower() == name
                    ),
                    None,
                )
            if not re.fullmatch(r"-?\d+", raw.strip()):
                return None
            raw = int(raw)
        if isinstance(raw, bool) or not isinstance(raw, int):
            return None
        chat = self._chats.get(raw)
        if chat is None and raw > 0 and raw in self._users and raw != self.bot.id:
            chat = self._private_chat(self._users[raw])
        return chat

    def _target_chat(self, params: ApiParams) -> FakeChat:
        """The chat the bot wants to write to, after Telegram's access checks."""
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise bad_request("chat_id is empty")
        chat = self._resolve_chat(raw)
        if chat is None:
            raise bad_request("chat not found")
        if chat.type == "private":
            user = self._users[chat.id]
            if user.is_bot:
                raise ApiError(403, "Forbidden: bot can't send messages to bots")
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat")
        elif chat.bot_status == "left":
            raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat")
        return chat

    def _known_chat(self, params: ApiParams) -> FakeChat:
        raw = params.get("chat_id")
        if raw is None or raw == "":
            raise bad_request("chat_id is empty")
        chat = self._resolve_chat(raw)
        if chat is None:
            raise bad_request("chat not found")
        return chat

    def _bot_message(self, chat: FakeChat, params: ApiParams) -> FakeMessage:
        if params.get("inline_message_id") is not None:
            raise bad_request("MESSAGE_ID_INVALID")  # inline messages: not modelled
        message_id = params.as_int("message_id")
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = chat.history.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def _new_message(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> FakeMessage:
        message = FakeMessage(
            chat=chat,
            message_id=chat.next_message_id,
            sender=sender,
            date=int(self.clock.now()),
            **fields,
        )
        chat.history[message.message_id] = message
        chat.next_message_id += 1
        return message

    def _text_field(
        self, params: ApiParams, field: str, entities_field: str, limit: int
    ) -> tuple[str | None, list[JSONDict]]:
        raw = params.as_str(field)
        if raw is None:
            return None, []
        explicit = params.as_json(entities_field, kind=list)
        if explicit is not None:
            text, entities = raw, explicit  # parse_mode is ignored when entities are given
        else:
            text, entities = parse_formatted(raw, params.as_str("parse_mode"))
        text, entities = strip_formatted(text, entities)
        if utf16_len(text) > limit:
            what = "message" if field == "text" else "message caption"
            raise bad_request(f"{what} is too long")
        return (text or None), entities

    def _reply_target(self, chat: FakeChat, params: ApiParams) -> FakeMessage | None:
        reply = params.as_json("reply_parameters")
        if reply is not None:
            message_id = reply.get("message_id")
            allow = bool(reply.get("allow_sending_without_reply"))
        else:
            message_id = params.as_int("reply_to_message_id")
            allow = params.as_bool("allow_sending_without_reply")
        if message_id is None:
            return None
        target = chat.history.get(message_id)
        if target is None or target.deleted:
            if allow:
                return None
            raise bad_request("message to be replied not found")
        return target

    # ---------------------------------------------------------------------------------------
    # files

    def _photo_from(self, value: Any, uploads: dict[str, Upload], field: str) -> FakeFile:
        if value is None and field in uploads:
            return self._store_photo(uploads[field])
        if isinstance(value, str) and value.startswith("attach://"):
            upload = uploads.get(value.removeprefix("attach://"))
            if upload is None:
                raise bad_request(f'can\'t find attached file "{value}"')
            return self._store_photo(upload)
        if isinstance(value, str) and re.match(r"https?://", value):
            return self._register_file(None, 320, 320, None)  # Telegram would download the URL
        if isinstance(value, str) and value:
            known = self._files.get(value)
            if known is None:
                raise bad_request("wrong file identifier/HTTP URL specified")
            return known
        raise bad_request("there is no photo in the request")

    def _store_photo(self, upload: Upload) -> FakeFile:
        try:
            with Image.open(io.BytesIO(upload.data)) as image:
                width, height = image.size
                mime = Image.MIME.get(image.format or "", "image/png")
        except (UnidentifiedImageError, OSError):
            raise bad_request("IMAGE_PROCESS_FAILED") from None
        if width + height > 10_000 or max(width, height) > 20 * min(width, height):
            raise bad_request("PHOTO_INVALID_DIMENSIONS")
        if len(upload.data) > 10 * 1024 * 1024:
            raise bad_request("file is too big")
        return self._register_file(upload.data, width, height, mime)

    def _register_file(
        self, data: bytes | None, width: int, height: int, mime: str | None
    ) -> FakeFile:
        number = next(self._file_ids)
        main = FakeFile(
            file_id=f"AgACAgIAAxkBAAI{number:06d}{secrets.token_urlsafe(12)}",
            file_unique_id=f"AQAD{number:04d}{secrets.token_urlsafe(4)}",
            data=data,
            width=width,
            height=height,
            mime_type=mime,
            file_path=f"photos/file_{number}.{(mime or 'image/jpeg').split('/')[-1]}",
        )
        # Like Telegram: thumbnails of standard sizes plus the full picture, smallest first.
        # The fake does not rescale; every size serves the uploaded bytes.
        longest = max(width, height, 1)
        bounds = [b for b in (90, 320, 800, 1280) if b < longest] + [min(longest, 2560)]
        for index, bound in enumerate(bounds):
            scale = bound / longest
            size_id = main.file_id if index == len(bounds) - 1 else f"{main.file_id}_{bound}"
            main.sizes.append(
                {
                    "file_id": size_id,
                    "file_unique_id": f"{main.file_unique_id}{index}",
                    "width": max(1, round(width * scale)),
                    "height": max(1, round(height * scale)),
                    "file_size": main.file_size,
                }
            )
            self._files[size_id] = main
        return main

    # ---------------------------------------------------------------------------------------
    # Bot API methods (run under the lock)

    def _get_me(self, params: ApiParams) -> JSONDict:
        return {
            **self.bot.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def _delete_webhook(self, params: ApiParams) -> bool:
        self.webhook = None
        if params.as_bool("drop_pending_updates"):
            self._updates.clear()
        return True

    def _set_webhook(self, params: ApiParams) -> bool:
        url = params.as_str("url") or ""
        if url and not url.startswith("https://"):
            raise bad_request("bad webhook: An HTTPS URL must be provided for webhook")
        if params.get("allowed_updates") is not None:
            self._set_allowed_updates(params.as_json("allowed_updates", kind=list))
        if params.as_bool("drop_pending_updates"):
            self._updates.clear()
        self.webhook = dict(params.values) if url else None
        return True

    def _get_webhook_info(self, params: ApiParams) -> JSONDict:
        info: JSONDict = {
            "url": (self.webhook or {}).get("url", ""),
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }
        if self.webhook is not None:
            info["max_connections"] = self.webhook.get("max_connections", 40)
            info["allowed_updates"] = sorted(self._allowed_updates)
        return info

    @staticmethod
    def _commands_key(params: ApiParams) -> tuple[str, str]:
        scope = params.as_json("scope") or {"type": "default"}
        return json.dumps(scope, sort_keys=True), params.as_str("language_code") or ""

    def _set_my_commands(self, params: ApiParams) -> bool:
        commands = params.as_json("commands", kind=list)
        if commands is None:
            raise bad_request('parameter "commands" is required')
        if len(commands) > 100:
            raise bad_request("too many commands specified")
        for command in commands:
            if not isinstance(command, dict) or not re.fullmatch(
                r"[a-z0-9_]{1,32}", str(command.get("command", ""))
            ):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise bad_request("command description is empty or too long")
        self.commands[self._commands_key(params)] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def _get_my_commands(self, params: ApiParams) -> list[JSONDict]:
        return list(self.commands.get(self._commands_key(params), []))

    def _delete_my_commands(self, params: ApiParams) -> bool:
        self.commands.pop(self._commands_key(params), None)
        return True

    def _set_chat_menu_button(self, params: ApiParams) -> bool:
        """The bot's menu button (a private chat's, or every chat's default): "commands",
        "default", or "web_app" with a text and an HTTPS Web App URL, as Telegram checks them."""
        button = params.as_json("menu_button") or {"type": "default"}
        kind = button.get("type")
        if kind == "web_app":
            url = str((button.get("web_app") or {}).get("url", ""))
            if not 1 <= len(str(button.get("text", ""))) <= 64:
                raise bad_request("BUTTON_TEXT_INVALID")
            if not url.startswith("https://"):
                raise bad_request("BUTTON_URL_INVALID")
        elif kind not in ("commands", "default"):
            raise bad_request("can't parse menu button: unknown type")
        self.menu_buttons[params.as_str("chat_id") or ""] = button
        return True

    def _get_chat_menu_button(self, params: ApiParams) -> JSONDict:
        return self.menu_buttons.get(params.as_str("chat_id") or "", {"type": "default"})

    def _send_message(self, params: ApiParams) -> JSONDict:
        chat = self._target_chat(params)
        text, entities = self._text_field(params, "text", "entities", TEXT_LIMIT)
        if text is None:
            raise bad_request("message text is empty")
        markup = validate_reply_markup(params.as_json("reply_markup"), inline_only=False)
        reply_to = self._reply_target(chat, params)
        message = self._new_message(
            chat,
            self.bot,
            text=text,
            entities=entities,
            reply_markup=_shown_markup(markup),
            reply_to=reply_to,
        )
        return message.to_api()

    def _send_photo(self, params: ApiParams) -> JSONDict:
        chat = self._target_chat(params)
        photo = self._photo_from(params.get("photo"), params.uploads, "photo")
        caption, caption_entities = self._text_field(
            params, "caption", "caption_entities", CAPTION_LIMIT
        )
        markup = validate_reply_markup(params.as_json("reply_markup"), inline_only=False)
        reply_to = self._reply_target(chat, params)
        message = self._new_message(
            chat,
            self.bot,
            photo=photo,
            caption=caption,
            caption_entities=caption_entities,
            reply_markup=_shown_markup(markup),
            reply_to=reply_to,
        )
        return message.to_api()

    def _commit_edit(self, message: FakeMessage, **changes: Any) -> JSONDict:
        """Apply an edit, or refuse it like Telegram when nothing would change."""
        before = {name: getattr(message, name) for name in changes}
        old_key = message.content_key()
        for name, value in changes.items():
            setattr(message, name, value)
        if message.content_key() == old_key:
            for name, value in before.items():
                setattr(message, name, value)
            raise bad_request(NOT_MODIFIED)
        message.edit_date = int(self.clock.now())
        message.edit_count += 1
        return message.to_api()

    def _edit_message_text(self, params: ApiParams) -> JSONDict:
        chat = self._target_chat(params)
        message = self._bot_message(chat, params)
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        text, entities = self._text_field(params, "text", "entities", TEXT_LIMIT)
        if text is None:
            raise bad_request("message text is empty")
        # No reply_markup in an edit removes the inline keyboard (Telegram semantics).
        markup = validate_reply_markup(params.as_json("reply_markup"), inline_only=True)
        return self._commit_edit(message, text=text, entities=entities, reply_markup=markup)

    def _edit_message_caption(self, params: ApiParams) -> JSONDict:
        chat = self._target_chat(params)
        message = self._bot_message(chat, params)
        if message.photo is None:
            raise bad_request("there is no caption in the message to edit")
        caption, entities = self._text_field(params, "caption", "caption_entities", CAPTION_LIMIT)
        markup = validate_reply_markup(params.as_json("reply_markup"), inline_only=True)
        return self._commit_edit(
            message, caption=caption, caption_entities=entities, reply_markup=markup
        )

    def _edit_message_media(self, params: ApiParams) -> JSONDict:
        chat = self._target_chat(params)
        message = self._bot_message(chat, params)
        media = params.as_json("media")
        if media is None:
            raise bad_request("media is empty")
        if media.get("type") != "photo":
            raise bad_request("the fake supports only InputMediaPhoto in editMessageMedia")
        if message.photo is None:
            raise bad_request("there is no media in the message to edit")
        photo = self._photo_from(media.get("media"), params.uploads, "media")
        caption_params = ApiParams(
            {
                "caption": media.get("caption"),
                "parse_mode": media.get("parse_mode"),
                "caption_entities": media.get("caption_entities"),
            },
            {},
        )
        caption, entities = self._text_field(
            caption_params, "caption", "caption_entities", CAPTION_LIMIT
        )
        markup = validate_reply_markup(params.as_json("reply_markup"), inline_only=True)
        return self._commit_edit(
            message, photo=photo, caption=caption, caption_entities=entities, reply_markup=markup
        )

    def _edit_message_reply_markup(self, params: ApiParams) -> JSONDict:
        chat = self._target_chat(params)
        message = self._bot_message(chat, params)
        markup = validate_reply_markup(params.as_json("reply_markup"), inline_only=True)
        return self._commit_edit(message, reply_markup=markup)

    def _delete_one(self, chat: FakeChat, message_id: int | None) -> None:
        if message_id is None:
            raise bad_request("message identifier is not specified")
        message = chat.history.get(message_id)
        if message is None or message.deleted:
            raise bad_request("message to delete not found")
        bot_is_admin = chat.bot_status in ADMIN_STATUSES
        if not message.from_bot and chat.type != "private" and not bot_is_admin:
            raise bad_request("message can't be deleted")
        message.deleted = True
        if message_id in chat.pinned:
            chat.pinned.remove(message_id)

    def _delete_message(self, params: ApiParams) -> bool:
        chat = self._known_chat(params)
        self._delete_one(chat, params.as_int("message_id"))
        return True

    def _delete_messages(self, params: ApiParams) -> bool:
        chat = self._known_chat(params)
        ids = params.as_json("message_ids", kind=list) or []
        if not 1 <= len(ids) <= 100:
            raise bad_request("message_ids must contain 1-100 identifiers")
        for message_id in ids:
            with contextlib.suppress(ApiError):  # Telegram skips what it cannot delete
                self._delete_one(chat, message_id)
        return True

    def _pin_chat_message(self, params: ApiParams) -> bool:
        chat = self._target_chat(params)
        if chat.type != "private" and chat.bot_status not in ADMIN_STATUSES:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message_id = params.as_int("message_id")
        message = chat.history.get(message_id or 0)
        if message is None or message.deleted:
            raise bad_request("message to pin not found")
        if message.message_id not in chat.pinned:
            chat.pinned.append(message.message_id)
        return True

    def _unpin_chat_message(self, params: ApiParams) -> bool:
        chat = self._target_chat(params)
        if chat.type != "private" and chat.bot_status not in ADMIN_STATUSES:
            raise bad_request("not enough rights to manage pinned messages in the chat")
        message_id = params.as_int("message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif message_id in chat.pinned:
            chat.pinned.remove(message_id)
        return True

    def _answer_callback_query(self, params: ApiParams) -> bool:
        query_id = params.as_str("callback_query_id")
        if not query_id:
            raise bad_request("query_id is empty")  # PTB never sends it empty
        query = self.queries.get(query_id)
        too_old = (
            query is None
            or query.answered
            or time.monotonic() - query.created > self.callback_answer_timeout
        )
        if too_old:
            raise bad_request(QUERY_TOO_OLD)
        assert query is not None
        if utf16_len(params.as_str("text") or "") > ANSWER_LIMIT:
            raise bad_request("MESSAGE_TOO_LONG")  # Telegram's text for it (0-200 characters)
        query.answered = True
        self.answers[query_id] = {
            "text": params.as_str("text"),
            "show_alert": params.as_bool("show_alert"),
            "url": params.as_str("url"),
            "cache_time": params.as_int("cache_time"),
        }
        return True

    def _get_chat(self, params: ApiParams) -> JSONDict:
        return self._known_chat(params).to_full_api()

    def _member(self, chat: FakeChat, user: FakeUser) -> JSONDict:
        if user.id == self.bot.id:
            status = chat.bot_status
        elif chat.type == "private":
            status = "member" if user.id == chat.id else "left"
        else:
            status = chat.members.get(user.id, "left")
        return _chat_member(user, status)

    def _get_chat_member(self, params: ApiParams) -> JSONDict:
        chat = self._known_chat(params)
        user_id = params.as_int("user_id")
        if user_id is None:
            raise bad_request("user_id is empty")
        user = self._users.get(user_id)
        if user is None:
            raise bad_request("user not found")
        return self._member(chat, user)

    def _get_chat_administrators(self, params: ApiParams) -> list[JSONDict]:
        chat = self._known_chat(params)
        admins = [
            self._member(chat, self._users[uid])
            for uid, status in chat.members.items()
            if status in ADMIN_STATUSES and uid in self._users
        ]
        if chat.bot_status in ADMIN_STATUSES:
            admins.append(self._member(chat, self.bot))
        return admins

    def _get_chat_member_count(self, params: ApiParams) -> int:
        chat = self._known_chat(params)
        if chat.type == "private":
            return 2
        present = [s for s in chat.members.values() if s not in ("left", "kicked")]
        return len(present) + (chat.bot_status not in ("left", "kicked"))

    def _send_chat_action(self, params: ApiParams) -> bool:
        self._target_chat(params)
        if params.as_str("action") not in _CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True

    def _get_file(self, params: ApiParams) -> JSONDict:
        file_id = params.as_str("file_id") or ""
        found = self._files.get(file_id)
        if found is None:
            raise bad_request("invalid file_id")
        return {
            "file_id": file_id,
            "file_unique_id": found.file_unique_id,
            "file_size": found.file_size,
            "file_path": found.file_path,
        }


def _shown_markup(markup: JSONDict | None) -> JSONDict | None:
    # Messages only ever show inline keyboards; reply keyboards live in the client.
    return markup if markup is not None and "inline_keyboard" in markup else None


_ADMIN_RIGHTS = {
    "can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
    "can_delete_messages": True, "can_manage_video_chats": True, "can_restrict_members": True,
    "can_promote_members": False, "can_change_info": True, "can_invite_users": True,
    "can_post_stories": False, "can_edit_stories": False, "can_delete_stories": False,
    "can_pin_messages": True, "can_manage_topics": False,
}  # fmt: skip
_RESTRICTED_RIGHTS = {
    "is_member": True, "can_change_info": False, "can_invite_users": False,
    "can_pin_messages": False, "can_send_messages": False, "can_send_polls": False,
    "can_send_other_messages": False, "can_add_web_page_previews": False,
    "can_manage_topics": False, "until_date": 0, "can_send_audios": False,
    "can_send_documents": False, "can_send_photos": False, "can_send_videos": False,
    "can_send_video_notes": False, "can_send_voice_notes": False, "can_edit_tag": False,
    "can_react_to_messages": False,
}  # fmt: skip


def _chat_member(user: FakeUser, status: str) -> JSONDict:
    member: JSONDict = {"status": status, "user": user.to_api()}
    if status == "creator":
        member["is_anonymous"] = False
    elif status == "administrator":
        member.update(_ADMIN_RIGHTS)
    elif status == "restricted":
        member.update(_RESTRICTED_RIGHTS)
    elif status == "kicked":
        member["until_date"] = 0
    return member
