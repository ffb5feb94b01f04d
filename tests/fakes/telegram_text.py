"""Text rules of the Bot API, reproduced for the fake server.

* Offsets and lengths of entities are in UTF-16 code units (what PTB's ``parse_entity`` expects).
* ``parse_mode`` HTML / MarkdownV2 / Markdown are parsed like the Bot API server does (it uses
  tdlib's parsers; error texts are tdlib's, prefixed "Bad Request: can't parse entities: ").
* Incoming user text gets ``bot_command`` / ``mention`` entities the way Telegram detects them
  (PTB's CommandHandler only fires on a ``bot_command`` entity at offset 0).
* Inline keyboards are validated with Telegram's limits and error descriptions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .telegram_models import JSONDict, bad_request

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
ANSWER_LIMIT = 200  # a callback query's answer text
CALLBACK_DATA_LIMIT = 64  # bytes, UTF-8
INLINE_BUTTONS_LIMIT = 100
INLINE_ROW_LIMIT = 8


class EntityParseError(ValueError):
    """Raised by the parse_mode parsers; the message is tdlib's text."""


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


def _sort_entities(entities: list[JSONDict]) -> list[JSONDict]:
    return sorted(entities, key=lambda e: (e["offset"], -e["length"]))


# --------------------------------------------------------------------------------------------
# Incoming user text: bot commands and mentions


def detect_entities(text: str) -> list[JSONDict]:
    """Entities Telegram attaches to a user's plain text message."""
    found: list[JSONDict] = []
    n = len(text)
    for match in re.finditer("/", text):
        start = match.start()
        if start > 0 and (_is_word(text[start - 1]) or text[start - 1] in "/<>"):
            continue
        end = start + 1
        while end < n and _is_cmd_char(text[end]):
            end += 1
        if not 1 <= end - start - 1 <= 64:
            continue
        if end < n and text[end] == "@":
            mention_end = end + 1
            while mention_end < n and _is_cmd_char(text[mention_end]):
                mention_end += 1
            if not 3 <= mention_end - end - 1 <= 32:
                continue
            end = mention_end
        if end < n and (_is_word(text[end]) or text[end] in "/<>"):
            continue
        found.append(_entity("bot_command", text, start, end))
    for match in re.finditer("@", text):
        start = match.start()
        if start > 0 and _is_word(text[start - 1]):
            continue
        end = start + 1
        while end < n and _is_cmd_char(text[end]):
            end += 1
        if not 2 <= end - start - 1 <= 32 or (end < n and _is_word(text[end])):
            continue
        if any(e["type"] == "bot_command" and _overlaps(e, text, start) for e in found):
            continue  # the "@bot" part of "/cmd@bot"
        found.append(_entity("mention", text, start, end))
    return _sort_entities(found)


def _overlaps(entity: JSONDict, text: str, index: int) -> bool:
    offset = utf16_len(text[:index])
    return entity["offset"] <= offset < entity["offset"] + entity["length"]


def _entity(kind: str, text: str, start: int, end: int) -> JSONDict:
    return {"type": kind, "offset": utf16_len(text[:start]), "length": utf16_len(text[start:end])}


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _is_cmd_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch == "_")


# --------------------------------------------------------------------------------------------
# parse_mode


def parse_formatted(text: str, parse_mode: str | None) -> tuple[str, list[JSONDict]]:
    """Apply ``parse_mode`` (case-insensitive, like Telegram). Raises ApiError on bad input."""
    if not parse_mode:
        return text, []
    mode = parse_mode.lower()
    parser = {"html": parse_html, "markdownv2": parse_markdown_v2, "markdown": parse_markdown}
    if mode not in parser:
        raise bad_request("unsupported parse_mode")
    try:
        return parser[mode](text)
    except EntityParseError as exc:
        raise bad_request(f"can't parse entities: {exc}") from None


def strip_formatted(text: str, entities: list[JSONDict]) -> tuple[str, list[JSONDict]]:
    """Telegram trims leading/trailing whitespace of texts and captions; entities follow."""
    stripped = text.strip()
    if stripped == text:
        return text, entities
    lead = utf16_len(text[: len(text) - len(text.lstrip())])
    total = utf16_len(stripped)
    result: list[JSONDict] = []
    for entity in entities:
        start = max(entity["offset"] - lead, 0)
        end = min(entity["offset"] + entity["length"] - lead, total)
        if end > start:
            result.append({**entity, "offset": start, "length": end - start})
    return stripped, result


_HTML_ENTITY = re.compile(r"&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|lt|gt|amp|quot);")
_HTML_TAGS = {
    "a", "b", "strong", "i", "em", "s", "strike", "del", "u", "ins", "tg-spoiler", "tg-emoji",
    "span", "pre", "code", "blockquote",
}  # fmt: skip
_HTML_SIMPLE = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline",
    "ins": "underline", "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
    "tg-spoiler": "spoiler",
}  # fmt: skip


def _html_unescape(value: str) -> str:
    def repl(match: re.Match[str]) -> str:
        name = match.group(1)
        if name[0] == "#":
            code = int(name[2:], 16) if name[1] in "xX" else int(name[1:])
            return chr(code) if 0 < code <= 0x10FFFF else match.group(0)
        return {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}[name]

    return _HTML_ENTITY.sub(repl, value)


@dataclass
class _OpenTag:
    name: str
    attrs: dict[str, str]
    offset: int  # UTF-16 offset in the output text
    byte_offset: int


def parse_html(text: str) -> tuple[str, list[JSONDict]]:
    out: list[str] = []
    offset = 0
    stack: list[_OpenTag] = []
    entities: list[JSONDict] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "&":
            match = _HTML_ENTITY.match(text, i)
            decoded = _html_unescape(match.group(0)) if match else "&"
            out.append(decoded)
            offset += utf16_len(decoded)
            i = match.end() if match else i + 1
            continue
        if ch != "<":
            out.append(ch)
            offset += utf16_len(ch)
            i += 1
            continue
        begin = i
        i += 1
        if i < n and text[i] == "/":  # end tag
            i += 1
            name_start = i
            while i < n and not text[i].isspace() and text[i] != ">":
                i += 1
            end_name = text[name_start:i].lower()
            while i < n and text[i].isspace():
                i += 1
            if i >= n or text[i] != ">":
                raise EntityParseError(
                    f"Unclosed end tag at byte offset {_byte_offset(text, begin)}"
                )
            i += 1
            if not stack:
                raise EntityParseError(
                    f"Unexpected end tag at byte offset {_byte_offset(text, begin)}"
                )
            tag = stack.pop()
            if end_name != tag.name:
                raise EntityParseError(
                    f"Unmatched end tag at byte offset {_byte_offset(text, begin)}, "
                    f'expected "</{tag.name}>", found "</{end_name}>"'
                )
            entity = _html_entity(tag, offset, stack)
            if entity is not None:
                entities.append(entity)
            continue
        name_start = i
        while i < n and not text[i].isspace() and text[i] != ">":
            i += 1
        name = text[name_start:i].lower()
        if i >= n:
            raise EntityParseError(f"Unclosed start tag at byte offset {_byte_offset(text, begin)}")
        if name not in _HTML_TAGS:
            raise EntityParseError(
                f'Unsupported start tag "{name}" at byte offset {_byte_offset(text, begin)}'
            )
        attrs: dict[str, str] = {}
        while True:
            while i < n and text[i].isspace():
                i += 1
            if i >= n:
                raise EntityParseError(
                    f"Unclosed start tag at byte offset {_byte_offset(text, begin)}"
                )
            if text[i] == ">":
                i += 1
                break
            attr_start = i
            while i < n and not text[i].isspace() and text[i] not in "=>":
                i += 1
            attr = text[attr_start:i].lower()
            if not attr:
                raise EntityParseError(
                    f'Empty attribute name in the tag "{name}" at byte offset '
                    f"{_byte_offset(text, begin)}"
                )
            while i < n and text[i].isspace():
                i += 1
            if i < n and text[i] == "=":
                i += 1
                while i < n and text[i].isspace():
                    i += 1
                if i < n and text[i] in "\"'":
                    quote = text[i]
                    end = text.find(quote, i + 1)
                    if end < 0:
                        raise EntityParseError(
                            f"Unclosed start tag at byte offset {_byte_offset(text, begin)}"
                        )
                    value = text[i + 1 : end]
                    i = end + 1
                else:
                    value_start = i
                    while i < n and not text[i].isspace() and text[i] != ">":
                        i += 1
                    value = text[value_start:i]
                attrs[attr] = _html_unescape(value)
            else:
                attrs[attr] = ""
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise EntityParseError(
                f'Tag "span" must have class "tg-spoiler" at byte offset '
                f"{_byte_offset(text, begin)}"
            )
        stack.append(_OpenTag(name, attrs, offset, _byte_offset(text, begin)))
    if stack:
        raise EntityParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1].name}"')
    return "".join(out), _sort_entities(_merge_pre_code(entities))


def _html_entity(tag: _OpenTag, end: int, outer: list[_OpenTag]) -> JSONDict | None:
    length = end - tag.offset
    if length <= 0:
        return None
    entity: JSONDict = {"offset": tag.offset, "length": length}
    if tag.name in _HTML_SIMPLE:
        entity["type"] = _HTML_SIMPLE[tag.name]
    elif tag.name == "span":
        entity["type"] = "spoiler"
    elif tag.name == "a":
        href = tag.attrs.get("href", "")
        user = re.fullmatch(r"tg://user\?id=(\d+)", href)
        if user:
            mentioned = {"id": int(user.group(1)), "is_bot": False, "first_name": ""}
            entity.update(type="text_mention", user=mentioned)
        elif href:
            entity.update(type="text_link", url=href)
        else:
            return None
    elif tag.name == "code":
        entity["type"] = "code"
        language = tag.attrs.get("class", "")
        if outer and outer[-1].name == "pre" and language.startswith("language-"):
            entity["language"] = language.removeprefix("language-")
    elif tag.name == "pre":
        entity["type"] = "pre"
    elif tag.name == "blockquote":
        entity["type"] = "expandable_blockquote" if "expandable" in tag.attrs else "blockquote"
    elif tag.name == "tg-emoji":
        entity.update(type="custom_emoji", custom_emoji_id=tag.attrs.get("emoji-id", ""))
    return entity


def _merge_pre_code(entities: list[JSONDict]) -> list[JSONDict]:
    """<pre><code class="language-x">…</code></pre> is one "pre" entity with a language."""
    result = []
    for entity in entities:
        if entity["type"] == "code" and "language" in entity:
            for pre in entities:
                if (
                    pre["type"] == "pre"
                    and pre["offset"] == entity["offset"]
                    and pre["length"] == entity["length"]
                ):
                    pre["language"] = entity["language"]
                    break
            continue
        result.append(entity)
    return result


_MDV2_TDLIB_NAMES = {
    "bold": "Bold", "italic": "Italic", "underline": "Underline", "strikethrough": "Strikethrough",
    "spoiler": "Spoiler", "code": "Code", "pre": "Pre", "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji", "blockquote": "BlockQuote",
}  # fmt: skip


@dataclass
class _OpenMd:
    type: str
    argument: str
    offset: int
    byte_offset: int
    out_start: int


def parse_markdown_v2(text: str) -> tuple[str, list[JSONDict]]:
    """Port of tdlib's parse_markdown_v2 (the Bot API's MarkdownV2)."""
    out: list[str] = []
    offset = 0
    nested: list[_OpenMd] = []
    entities: list[JSONDict] = []
    have_quote = False
    n = len(text)

    def at(k: int) -> str:
        return text[k] if k < n else ""

    def reserved_error(ch: str) -> EntityParseError:
        return EntityParseError(
            f"Character '{ch}' is reserved and must be escaped with the preceding '\\'"
        )

    i = 0
    while i < n:
        ch = text[i]
        nxt = at(i + 1)
        if ch == "\\" and nxt and 0 < ord(nxt) <= 126:
            out.append(nxt)
            offset += 1
            i += 2
            continue
        reserved = "_*[]()~`>#+-=|{}.!\n"
        if nested and nested[-1].type in ("code", "pre"):
            reserved = "`"
        if ch not in reserved:
            out.append(ch)
            offset += utf16_len(ch)
            i += 1
            continue
        is_end = False
        if nested:
            top = nested[-1].type
            if have_quote and ch == "\n" and nxt != ">":
                is_end = True
            else:
                is_end = {
                    "bold": ch == "*",
                    "italic": ch == "_" and nxt != "_",
                    "code": ch == "`",
                    "pre": ch == "`" and nxt == "`" and at(i + 2) == "`",
                    "text_link": ch == "]",
                    "underline": ch == "_" and nxt == "_",
                    "strikethrough": ch == "~",
                    "spoiler": ch == "|" and nxt == "|",
                    "custom_emoji": ch == "]",
                    "blockquote": False,
                }[top]
        if not is_end:
            kind: str | None
            argument = ""
            byte_offset = _byte_offset(text, i)
            if ch == "_":
                kind = "underline" if nxt == "_" else "italic"
                i += 1 if nxt == "_" else 0
            elif ch == "*":
                kind = "bold"
            elif ch == "~":
                kind = "strikethrough"
            elif ch == "|":
                if nxt != "|":
                    raise reserved_error(ch)
                i += 1
                kind = "spoiler"
            elif ch == "[":
                kind = "text_link"
            elif ch == "`":
                if nxt == "`" and at(i + 2) == "`":
                    i += 3
                    kind = "pre"
                    lang_end = i
                    while lang_end < n and not text[lang_end].isspace() and text[lang_end] != "`":
                        lang_end += 1
                    if i != lang_end and lang_end < n and text[lang_end] != "`":
                        argument = text[i:lang_end]
                        i = lang_end
                    if at(i) in ("\n", "\r"):
                        i += 2 if at(i + 1) in ("\n", "\r") and at(i + 1) != at(i) else 1
                    i -= 1
                else:
                    kind = "code"
            elif ch == "!":
                if nxt != "[":
                    raise reserved_error(ch)
                i += 1
                kind = "custom_emoji"
            elif ch == "\n":
                out.append("\n")
                offset += 1
                kind = None
                if nxt == ">":
                    i += 1
                    if not have_quote:
                        kind = "blockquote"
                        have_quote = True
            elif ch == ">" and i == 0:
                kind = "blockquote"
                have_quote = True
            else:
                raise reserved_error(ch)
            if kind is not None:
                nested.append(_OpenMd(kind, argument, offset, byte_offset, len(out)))
            i += 1
            continue
        top_entity = nested[-1]
        if ch == "\n" and top_entity.type != "blockquote":
            raise EntityParseError(
                f"Can't find end of {_MDV2_TDLIB_NAMES[top_entity.type]} entity at byte offset "
                f"{top_entity.byte_offset}"
            )
        skip = offset == top_entity.offset
        entity: JSONDict = {"type": top_entity.type}
        if top_entity.type in ("underline", "spoiler"):
            i += 1
        elif top_entity.type == "pre":
            i += 2
            if top_entity.argument:
                entity["language"] = top_entity.argument
        elif top_entity.type in ("text_link", "custom_emoji"):
            if nxt != "(":
                if top_entity.type == "custom_emoji":
                    raise EntityParseError("Custom emoji entity must contain a tg://emoji URL")
                url = "".join(out[top_entity.out_start :])
            else:
                i += 2
                url_begin = i
                chars: list[str] = []
                while i < n and text[i] != ")":
                    if text[i] == "\\" and at(i + 1) and 0 < ord(at(i + 1)) <= 126:
                        chars.append(text[i + 1])
                        i += 2
                        continue
                    chars.append(text[i])
                    i += 1
                if at(i) != ")":
                    what = "a URL" if top_entity.type == "text_link" else "a custom emoji URL"
                    raise EntityParseError(
                        f"Can't find end of {what} at byte offset {_byte_offset(text, url_begin)}"
                    )
                url = "".join(chars)
            if top_entity.type == "custom_emoji":
                entity["custom_emoji_id"] = url.rsplit("id=", 1)[-1]
            elif not url:
                skip = True
            else:
                entity["url"] = url
        elif top_entity.type == "blockquote":
            have_quote = False
            out.append(ch)
            offset += 1
        if not skip:
            entity.update(offset=top_entity.offset, length=offset - top_entity.offset)
            entities.append(entity)
        nested.pop()
        i += 1
    if have_quote and nested and nested[-1].type == "blockquote":
        quote = nested.pop()
        if offset > quote.offset:
            entities.append(
                {"type": "blockquote", "offset": quote.offset, "length": offset - quote.offset}
            )
    if nested:
        raise EntityParseError(
            f"Can't find end of {_MDV2_TDLIB_NAMES[nested[-1].type]} entity at byte offset "
            f"{nested[-1].byte_offset}"
        )
    return "".join(out), _sort_entities(entities)


def parse_markdown(text: str) -> tuple[str, list[JSONDict]]:
    """Port of tdlib's parse_markdown (legacy "Markdown" parse mode)."""
    out: list[str] = []
    offset = 0
    entities: list[JSONDict] = []
    n = len(text)
    i = 0

    def at(k: int) -> str:
        return text[k] if k < n else ""

    while i < n:
        ch = text[i]
        if ch == "\\" and at(i + 1) in ("_", "*", "`", "["):
            out.append(text[i + 1])
            offset += 1
            i += 2
            continue
        if ch not in "_*`[":
            out.append(ch)
            offset += utf16_len(ch)
            i += 1
            continue
        begin = i
        end_char = "]" if ch == "[" else ch
        is_pre = False
        language = ""
        i += 1
        if ch == "`" and at(i) == "`" and at(i + 1) == "`":
            i += 2
            is_pre = True
            lang_end = i
            while lang_end < n and not text[lang_end].isspace() and text[lang_end] != "`":
                lang_end += 1
            if i != lang_end and lang_end < n and text[lang_end] != "`":
                language = text[i:lang_end]
                i = lang_end
            if at(i) in ("\n", "\r"):
                i += 2 if at(i + 1) in ("\n", "\r") and at(i + 1) != at(i) else 1
        start_offset = offset
        while i < n and (
            text[i] != end_char or (is_pre and not (at(i + 1) == "`" and at(i + 2) == "`"))
        ):
            out.append(text[i])
            offset += utf16_len(text[i])
            i += 1
        if i >= n:
            raise EntityParseError(
                f"Can't find end of the entity starting at byte offset {_byte_offset(text, begin)}"
            )
        if offset != start_offset:
            entity: JSONDict = {"offset": start_offset, "length": offset - start_offset}
            if ch == "_":
                entity["type"] = "italic"
            elif ch == "*":
                entity["type"] = "bold"
            elif ch == "[":
                if at(i + 1) == "(":
                    close = text.find(")", i + 2)
                    url = text[i + 2 : close if close >= 0 else n]
                    i = close if close >= 0 else n
                else:
                    url = text[begin + 1 : i]
                entity.update(type="text_link", url=url)
            elif is_pre:
                entity["type"] = "pre"
                if language:
                    entity["language"] = language
            else:
                entity["type"] = "code"
            entities.append(entity)
        if is_pre:
            i += 2
        i += 1
    return "".join(out), _sort_entities(entities)


# --------------------------------------------------------------------------------------------
# Keyboards

_BUTTON_ACTIONS = (
    "url", "callback_data", "web_app", "login_url", "switch_inline_query",
    "switch_inline_query_current_chat", "switch_inline_query_chosen_chat", "copy_text",
    "callback_game", "pay",
)  # fmt: skip


def validate_reply_markup(markup: Any, *, inline_only: bool) -> JSONDict | None:
    """Check a decoded ``reply_markup``; returns it (None if absent). Raises ApiError."""
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if inline_only:
            raise bad_request("inline keyboard expected")
        if not any(k in markup for k in ("keyboard", "remove_keyboard", "force_reply")):
            raise bad_request("can't parse reply keyboard markup JSON object")
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request(
            'field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays'
        )
    total = 0
    for row in rows:
        total += len(row)
        if len(row) > INLINE_ROW_LIMIT or total > INLINE_BUTTONS_LIMIT:
            raise bad_request("reply markup is too long")
        for button in row:
            if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                raise bad_request('can\'t find field "text"')
            actions = [key for key in _BUTTON_ACTIONS if key in button]
            if not actions:
                raise bad_request("text buttons are unallowed in the inline keyboard")
            if "callback_data" in button:
                data = button["callback_data"]
                if not isinstance(data, str) or not 1 <= len(data.encode()) <= CALLBACK_DATA_LIMIT:
                    raise bad_request("BUTTON_DATA_INVALID")
            if "url" in button and not re.match(r"(https?|tg)://\S+$", str(button["url"])):
                raise bad_request("BUTTON_URL_INVALID")
    return markup
