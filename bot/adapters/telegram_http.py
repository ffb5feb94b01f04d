"""python-telegram-bot's HTTP requests made with aiohttp rather than httpx.

Every screen a person sees is one Bot API request, and in the press path PTB's default
`HTTPXRequest` was the largest share of the bot's CPU: httpx and httpcore parse and build HTTP in
Python (bench/bot.py --profile: ~25 % of a press). aiohttp does it in C and is already here
(discord.py runs on it). PTB supports other HTTP libraries through `BaseRequest`
(`do_request` → status and body); this is that, with PTB's own timeouts and error types.

A sent or edited message comes back whole, with the keyboard and photo sizes we sent, and PTB
builds objects of all of it; so does a button press's update, with the message the button was
on. The bot reads the id and chat of such a message, never what it echoes: `lighten` drops
that before PTB parses it (together ~10 % of an idle press's CPU, most of it keyboards).
"""

from __future__ import annotations

import aiohttp
from telegram._utils.defaultvalue import DefaultValue
from telegram._utils.types import JSONDict, ODVInput
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

# Methods whose result is the message just sent or edited, and what of it only echoes the
# request (the bot reads `message_id`; `chat` and `date` PTB requires).
ECHO_METHODS = frozenset({
    "sendPhoto", "sendMessage", "editMessageMedia", "editMessageCaption", "editMessageText",
    "editMessageReplyMarkup",
})
ECHOED = ("reply_markup", "photo", "caption_entities", "entities")


def lighten(message: object) -> None:
    """Drop from a message (JSON) what only echoes what the bot sent."""
    if isinstance(message, dict):
        for key in ECHOED:
            message.pop(key, None)


def lighten_update(update: object) -> object:
    """A button press's update without the echoes of the message it was on."""
    if isinstance(update, dict) and isinstance(query := update.get("callback_query"), dict):
        lighten(query.get("message"))
    return update


class AiohttpRequest(BaseRequest):
    """One aiohttp session with up to `connection_pool_size` connections. The timeouts are
    HTTPXRequest's defaults (5 s; 20 s to write an upload)."""

    def __init__(
        self,
        connection_pool_size: int = 256,
        read_timeout: float | None = 5.0,
        write_timeout: float | None = 5.0,
        connect_timeout: float | None = 5.0,
        pool_timeout: float | None = 1.0,
        media_write_timeout: float | None = 20.0,
    ) -> None:
        self._pool_size = connection_pool_size
        self._read, self._write, self._connect = read_timeout, write_timeout, connect_timeout
        self._pool, self._media_write = pool_timeout, media_write_timeout
        self._session: aiohttp.ClientSession | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self._pool_size)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT}
            )

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def post(  # type: ignore[override]
        self, url: str, request_data: RequestData | None = None, *args: object, **kwargs: object
    ) -> JSONDict | list[JSONDict] | bool:
        result = await super().post(url, request_data, *args, **kwargs)  # type: ignore[arg-type]
        method = url.rpartition("/")[2]
        if method in ECHO_METHODS:
            lighten(result)
        elif method == "getUpdates" and isinstance(result, list):
            for update in result:
                lighten_update(update)
        return result

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        write_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        connect_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
        pool_timeout: ODVInput[float] = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        if self._session is None or self._session.closed:
            raise RuntimeError("This AiohttpRequest is not initialized!")
        files = request_data.multipart_data if request_data else None
        fields = request_data.json_parameters if request_data else None

        def given(value: ODVInput[float], default: float | None) -> float | None:
            return default if isinstance(value, DefaultValue) else value  # type: ignore[return-value]

        read = given(read_timeout, self._read)
        write = given(write_timeout, self._media_write if files else self._write)
        # aiohttp has no separate write timeout: a request may take connect + write + read.
        total = None if None in (read, write) else sum(
            t for t in (given(connect_timeout, self._connect), write, read) if t)
        timeout = aiohttp.ClientTimeout(
            total=total, connect=given(pool_timeout, self._pool),
            sock_connect=given(connect_timeout, self._connect), sock_read=read,
        )
        data: aiohttp.FormData | dict[str, str] | None = fields
        if files:
            form = aiohttp.FormData(quote_fields=False)
            for name, value in (fields or {}).items():
                form.add_field(name, value)
            for name, (filename, content, mimetype) in files.items():
                form.add_field(name, content, filename=filename, content_type=mimetype)
            data = form
        try:
            async with self._session.request(method, url, data=data, timeout=timeout) as res:
                return res.status, await res.read()
        except TimeoutError as error:
            raise TimedOut from error
        except aiohttp.ClientError as error:
            raise NetworkError(f"aiohttp.{error.__class__.__name__}: {error}") from error
