"""Tender's clients: one per key, sync (`Tender`) and async (`AsyncTender`), their resources generated from the
OpenAPI document, and webhook verification."""
from __future__ import annotations

from typing import Any, Optional

import httpx

from ._core import DEFAULT_BASE_URL, AsyncTransport, Settings, SyncTransport
from ._generated.resources import API_VERSION, async_resources, resources
from ._webhooks import Webhooks


def _settings(api_key: str, base_url: Optional[str], max_retries: int, timeout: float, retry_delay: float,
              max_retry_delay: float) -> Settings:
    if not isinstance(api_key, str) or not api_key:
        raise ValueError("Tender needs an api_key (sk_test_… or sk_…)")
    return Settings(api_key=api_key, base_url=(base_url or DEFAULT_BASE_URL).rstrip("/"), api_version=API_VERSION,
                    max_retries=max_retries, timeout=timeout, retry_delay=retry_delay, max_retry_delay=max_retry_delay)


class Tender:
    """`Tender(api_key="sk_test_…", base_url="http://localhost:8080")`: every resource by name
    (`tender.redemptions.create(...)`, `tender.billing.customers.list()`), `tender.webhooks.verify(...)`.

    max_retries: how often a network error, `409 conflict`, 429 or 5xx is retried (default 3); timeout: seconds per
    attempt (60); retry_delay: the first pause before jitter (0.5 s), doubling up to max_retry_delay (20 s), never
    sooner than Retry-After (a longer Retry-After raises at once); http_client: an httpx.Client of your own (proxies, transports)."""

    webhooks = Webhooks()

    def __init__(self, api_key: str, base_url: Optional[str] = None, *, max_retries: int = 3, timeout: float = 60.0,
                 retry_delay: float = 0.5, max_retry_delay: float = 20.0,
                 http_client: Optional[httpx.Client] = None) -> None:
        self._transport = SyncTransport(_settings(api_key, base_url, max_retries, timeout, retry_delay, max_retry_delay),
                                        http_client)
        self.base_url = self._transport.settings.base_url
        self.__dict__.update(resources(self._transport))

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"Tender has no resource {name!r}")

    def close(self) -> None:
        self._transport.http.close()

    def __enter__(self) -> "Tender":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncTender:
    """The async client: `async with AsyncTender(api_key=...) as tender: await tender.redemptions.create(...)`;
    lists: `async for r in tender.redemptions.list(...)`. The same options as `Tender`."""

    webhooks = Webhooks()

    def __init__(self, api_key: str, base_url: Optional[str] = None, *, max_retries: int = 3, timeout: float = 60.0,
                 retry_delay: float = 0.5, max_retry_delay: float = 20.0,
                 http_client: Optional[httpx.AsyncClient] = None) -> None:
        self._transport = AsyncTransport(_settings(api_key, base_url, max_retries, timeout, retry_delay, max_retry_delay),
                                         http_client)
        self.base_url = self._transport.settings.base_url
        self.__dict__.update(async_resources(self._transport))

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"AsyncTender has no resource {name!r}")

    async def aclose(self) -> None:
        await self._transport.http.aclose()

    async def __aenter__(self) -> "AsyncTender":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()
