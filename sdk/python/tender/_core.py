"""The hand-written part every generated resource method goes through: the HTTP call (httpx) with its key, version
and idempotency key, retries with backoff, the problem error, parsing into the generated models, and pagination."""
from __future__ import annotations

import asyncio
import email.utils
import random
import time
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, AsyncIterator, Callable, Dict, Generic, Iterator, List, Optional, TypeVar, Union
from urllib.parse import quote

import httpx
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from ._errors import TenderConnectionError, TenderError

T = TypeVar("T")

DEFAULT_BASE_URL = "http://localhost:8080"


def _q(value: str) -> str:
    """A path parameter, escaped."""
    return quote(str(value), safe="")


@dataclass
class Call:
    method: str
    path: str
    query: Optional[Dict[str, Any]] = None
    body: Any = None
    idempotency_key: Union[str, None, bool] = False
    """False: the call carries no key; None: one is made; a string: that key."""
    if_match: Union[str, int, None] = None
    max_retries: Optional[int] = None
    timeout: Optional[float] = None
    headers: Optional[Dict[str, str]] = None


@dataclass
class Settings:
    api_key: str
    base_url: str
    api_version: str
    max_retries: int
    timeout: float
    retry_delay: float
    max_retry_delay: float


def _query_value(value: Any) -> Any:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, bool):
        return "true" if value else "false"
    if hasattr(value, "value") and isinstance(getattr(value, "value"), str):
        return value.value
    return value


def _retryable(status: int, code: Optional[str]) -> bool:
    """Retried whatever the method: the request did not run, or its key is free again (decisions §1)."""
    return (status == 409 and code == "conflict") or status == 429 or status >= 500


def retry_after_seconds(value: Optional[str]) -> Optional[float]:
    """`Retry-After` in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


class _Attempts:
    """What a sync and an async call share: the request to send, and whether and how long to wait before the next."""

    def __init__(self, settings: Settings, call: Call) -> None:
        self.settings = settings
        self.call = call
        headers = {
            "Authorization": f"Bearer {settings.api_key}",
            "Tender-Version": settings.api_version,
            "Accept": "application/json, application/problem+json",
        }
        headers.update(call.headers or {})
        if call.body is not None:
            headers["Content-Type"] = "application/json"
        if call.idempotency_key is not False:
            headers["Idempotency-Key"] = call.idempotency_key or str(uuid.uuid4())
        if call.if_match is not None:
            headers["If-Match"] = str(call.if_match)
        self.headers = headers
        self.params = [(k, _query_value(v)) for k, v in (call.query or {}).items() if v is not None]
        self.content = None if call.body is None else httpx_json(call.body)
        self.max_retries = settings.max_retries if call.max_retries is None else call.max_retries
        self.timeout = settings.timeout if call.timeout is None else call.timeout
        self.attempt = 0

    def request(self, client: Union[httpx.Client, httpx.AsyncClient]) -> httpx.Request:
        return client.build_request(self.call.method, self.settings.base_url + self.call.path, params=self.params,
                                    headers=self.headers, content=self.content, timeout=self.timeout)

    def backoff(self, retry_after: Optional[float]) -> float:
        """The pause before the next attempt: exponential with jitter over its upper half, never below Retry-After
        (which after_answer has kept within max_retry_delay)."""
        exponential = min(self.settings.max_retry_delay, self.settings.retry_delay * 2 ** (self.attempt - 1))
        jittered = exponential / 2 + random.random() * exponential / 2
        return min(self.settings.max_retry_delay, max(jittered, retry_after or 0.0))

    def after_network_error(self, error: Exception) -> float:
        """The pause before retrying after no answer; raises once the retries are used up."""
        self.attempt += 1
        if self.attempt > self.max_retries:
            raise TenderConnectionError(f"{self.call.method} {self.call.path}: no answer after {self.attempt} attempts: {error}") from error
        return self.backoff(None)

    def after_answer(self, response: httpx.Response) -> Optional[float]:
        """None for a success; the pause before retrying a retryable failure; raises any other failure."""
        if response.is_success:
            return None
        error = TenderError.from_response(response)
        self.attempt += 1
        retry_after = retry_after_seconds(response.headers.get("Retry-After"))
        # A wait longer than max_retry_delay surfaces as the error (a long rate-limit wait is the caller's to know of),
        # never as a retry sent before the service said it would take one.
        if (_retryable(error.status, error.code) and self.attempt <= self.max_retries
                and (retry_after or 0.0) <= self.settings.max_retry_delay):
            return self.backoff(retry_after)
        raise error


def httpx_json(body: Any) -> bytes:
    import json

    return json.dumps(to_jsonable_python(body, by_alias=True, exclude_none=True), separators=(",", ":")).encode()


def body_of(body: Any, fields: Dict[str, Any]) -> Any:
    """A request body from a generated model, a dict, keyword fields, or a mix (the keywords win)."""
    if body is None and not fields:
        return None
    if isinstance(body, BaseModel):
        body = body.to_dict() if hasattr(body, "to_dict") else body.model_dump(by_alias=True, exclude_none=True)
    merged = dict(body or {})
    merged.update(fields)
    return merged


def parse(expect: Any, response: httpx.Response) -> Any:
    if expect is None:
        return None
    if expect == "text":
        return response.text
    if expect == "bytes":
        return response.content
    return parse_object(expect, response.json())


def parse_object(cls: Any, data: Any) -> Any:
    """JSON into a generated model; a union into the member its discriminator names (a dict for one it does not know)."""
    model = cls.from_dict(data)
    if hasattr(model, "one_of_schemas"):
        return model.actual_instance
    return model


class Resource:
    """What every generated sync resource extends."""

    def __init__(self, client: "SyncTransport") -> None:
        self._client = client

    @staticmethod
    def _body(body: Any, fields: Dict[str, Any]) -> Any:
        return body_of(body, fields)

    def _request(self, call: Call, expect: Any) -> Any:
        return parse(expect, self._client.send(call))

    def _list(self, call: Call, item: Any) -> "ListPage[Any]":
        return ListPage(self._client, call, item)


class AsyncResource:
    """What every generated async resource extends."""

    def __init__(self, client: "AsyncTransport") -> None:
        self._client = client

    @staticmethod
    def _body(body: Any, fields: Dict[str, Any]) -> Any:
        return body_of(body, fields)

    async def _request(self, call: Call, expect: Any) -> Any:
        return parse(expect, await self._client.send(call))

    def _list(self, call: Call, item: Any) -> "AsyncListPage[Any]":
        return AsyncListPage(self._client, call, item)


class SyncTransport:
    def __init__(self, settings: Settings, http_client: Optional[httpx.Client]) -> None:
        self.settings = settings
        self.http = http_client or httpx.Client()
        self.sleep: Callable[[float], None] = time.sleep

    def send(self, call: Call) -> httpx.Response:
        attempts = _Attempts(self.settings, call)
        while True:
            try:
                response = self.http.send(attempts.request(self.http))
                response.read()
            except httpx.TransportError as error:
                self.sleep(attempts.after_network_error(error))
                continue
            pause = attempts.after_answer(response)
            if pause is None:
                return response
            self.sleep(pause)


class AsyncTransport:
    def __init__(self, settings: Settings, http_client: Optional[httpx.AsyncClient]) -> None:
        self.settings = settings
        self.http = http_client or httpx.AsyncClient()

    async def send(self, call: Call) -> httpx.Response:
        attempts = _Attempts(self.settings, call)
        while True:
            try:
                response = await self.http.send(attempts.request(self.http))
                await response.aread()
            except httpx.TransportError as error:
                await asyncio.sleep(attempts.after_network_error(error))
                continue
            pause = attempts.after_answer(response)
            if pause is None:
                return response
            await asyncio.sleep(pause)


def _page_call(call: Call, cursor: Optional[str]) -> Call:
    query = dict(call.query or {})
    if cursor is not None:
        query["cursor"] = cursor
    return Call(method="GET", path=call.path, query=query, max_retries=call.max_retries, timeout=call.timeout,
                headers=call.headers)


class Page(Generic[T]):
    """One page of a list: its items (`data`), `has_more` and `next_cursor`."""

    def __init__(self, data: List[T], has_more: bool, next_cursor: Optional[str]) -> None:
        self.data = data
        self.has_more = has_more
        self.next_cursor = next_cursor

    @classmethod
    def of(cls, item: Any, body: Dict[str, Any]) -> "Page[Any]":
        return cls([parse_object(item, entry) for entry in body.get("data", [])], bool(body.get("has_more")),
                   body.get("next_cursor"))


class ListPage(Generic[T]):
    """What a list method returns: iterate it for every item of every page (fetched as the loop reaches it);
    `.first_page()` for one page, `.pages()` page by page, `.to_list(limit)`."""

    def __init__(self, client: SyncTransport, call: Call, item: Any) -> None:
        self._client, self._call, self._item = client, call, item

    def _fetch(self, cursor: Optional[str]) -> Page[T]:
        return Page.of(self._item, self._client.send(_page_call(self._call, cursor)).json())

    def first_page(self) -> Page[T]:
        return self._fetch(None)

    def pages(self) -> Iterator[Page[T]]:
        page = self._fetch(None)
        while True:
            yield page
            if not page.has_more or not page.next_cursor:
                return
            page = self._fetch(page.next_cursor)

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.data

    def to_list(self, limit: Optional[int] = None) -> List[T]:
        items: List[T] = []
        if limit is not None and limit <= 0:
            return items
        for item in self:
            items.append(item)
            if limit is not None and len(items) >= limit:
                break
        return items


class AsyncListPage(Generic[T]):
    """The async list: `async for item in ...`; `await .first_page()`, `.pages()`, `await .to_list(limit)`."""

    def __init__(self, client: AsyncTransport, call: Call, item: Any) -> None:
        self._client, self._call, self._item = client, call, item

    async def _fetch(self, cursor: Optional[str]) -> Page[T]:
        return Page.of(self._item, (await self._client.send(_page_call(self._call, cursor))).json())

    async def first_page(self) -> Page[T]:
        return await self._fetch(None)

    async def pages(self) -> AsyncIterator[Page[T]]:
        page = await self._fetch(None)
        while True:
            yield page
            if not page.has_more or not page.next_cursor:
                return
            page = await self._fetch(page.next_cursor)

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.pages():
            for item in page.data:
                yield item

    async def to_list(self, limit: Optional[int] = None) -> List[T]:
        items: List[T] = []
        if limit is not None and limit <= 0:
            return items
        async for item in self:
            items.append(item)
            if limit is not None and len(items) >= limit:
                break
        return items
