"""What the tests against a running service share: where it is (TENDER_BASE_URL, TENDER_API_KEY), fresh sandbox
vouchers, paying a hosted checkout over HTTP as a browser does, and a record of every answer the client got."""
import os
import random
import re
import time
from typing import Any, Callable, Dict, List, Optional
from urllib.parse import urlparse

import httpx
import pytest

from tender import AsyncTender, Tender

BASE_URL = os.environ.get("TENDER_BASE_URL", "")
API_KEY = os.environ.get("TENDER_API_KEY", "")


@pytest.fixture
def anyio_backend():
    return "asyncio"


def require_service() -> None:
    """Fails (never skips) without a service, so a run without one cannot pass silently."""
    assert BASE_URL and API_KEY.startswith("sk_test_"), (
        "set TENDER_BASE_URL and TENDER_API_KEY (a test secret key, sk_test_…) to a running service (sdk/python/README.md)")


class Answers:
    """Every answer a client got: status, problem code, the Idempotency-Key it was sent with."""

    def __init__(self) -> None:
        self.seen: List[Dict[str, Any]] = []

    def record(self, response: httpx.Response) -> None:
        response.read()
        code = None
        if response.status_code >= 400:
            try:
                code = response.json().get("code")
            except ValueError:
                pass
        self.seen.append({"status": response.status_code, "code": code,
                          "key": response.request.headers.get("Idempotency-Key")})

    async def arecord(self, response: httpx.Response) -> None:
        await response.aread()
        self.record(response)


@pytest.fixture
def tender() -> Tender:
    require_service()
    with Tender(api_key=API_KEY, base_url=BASE_URL) as client:
        yield client


def recording_client(answers: Answers) -> Tender:
    require_service()
    return Tender(api_key=API_KEY, base_url=BASE_URL, http_client=httpx.Client(event_hooks={"response": [answers.record]}))


def recording_async_client(answers: Answers) -> AsyncTender:
    require_service()
    return AsyncTender(api_key=API_KEY, base_url=BASE_URL,
                       http_client=httpx.AsyncClient(event_hooks={"response": [answers.arecord]}))


def fresh_pin() -> str:
    """A one_voucher PIN no run has used: 16 digits, ending in 1 (the sandbox's unused voucher, worth ZAR 100.00)."""
    return "5" + str(time.time_ns() // 1_000_000)[-11:] + f"{random.randrange(1000):03d}" + "1"


def pay_by_card(session_url: str, card: str = "4242424242424242") -> None:
    """What a browser does with a session's checkout page: loads it, and posts its card form with the page's token."""
    path = urlparse(session_url).path
    with httpx.Client(base_url=BASE_URL) as browser:
        page = browser.get(path)
        assert page.status_code == 200, f"the checkout page {path}"
        token = re.search(r'name="_csrf" value="([^"]+)"', page.text)
        assert token, "the checkout page's form has a CSRF token"
        posted = browser.post(f"{path}/pay", headers={"Sec-Fetch-Site": "same-origin"}, data={
            "_csrf": token.group(1), "method": "card", "card_number": card, "expiry": "12/34", "security_code": "123"})
        assert posted.status_code == 302, f"the card form was accepted: {posted.status_code} {posted.text}"


def eventually(what: str, ask: Callable[[], Any], done: Callable[[Any], bool], seconds: float = 30) -> Any:
    """Asks until `done` says yes, at most `seconds`."""
    until = time.monotonic() + seconds
    while True:
        value = ask()
        if done(value):
            return value
        assert time.monotonic() < until, f"{what}: not within {seconds} s; last: {value!r}"
        time.sleep(0.25)
