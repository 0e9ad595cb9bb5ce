"""Standard Webhooks verification with the standard library's hmac: HMAC-SHA256 of
"<webhook-id>.<webhook-timestamp>.<raw body>" under the base64 key after `whsec_`, compared in constant time with
each `v1,<base64>` of `webhook-signature`. A dozen lines; a package for it would be a dependency to keep."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

from pydantic import BaseModel, ConfigDict

from ._errors import WebhookVerificationError
from ._generated.resources import EVENT_TYPES, WebhookEvent

RawBody = Union[bytes, bytearray, memoryview, str]


class UnknownEvent(BaseModel):
    """An event of a type this library does not know (added to the API after it was generated)."""

    model_config = ConfigDict(extra="allow")
    id: str
    type: str
    created_at: Optional[str] = None
    data: Dict[str, Any] = {}


def _raw(body: RawBody) -> bytes:
    if isinstance(body, str):
        return body.encode("utf-8")
    return bytes(body)


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, (list, tuple)) else value
    return None


def sign(secret: str, message_id: str, timestamp: Union[int, str], body: RawBody) -> str:
    """The `v1,<base64>` signature of a message under a `whsec_` secret, as the service sends it."""
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    digest = hmac.new(key, f"{message_id}.{timestamp}.".encode() + _raw(body), hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def verify(raw_body: RawBody, headers: Mapping[str, Any], secret: str, *, tolerance: int = 300,
           now: Optional[float] = None) -> Union[WebhookEvent, UnknownEvent]:
    """Checks a delivery's signature over the raw body, exactly as received (not re-serialized JSON), and that its
    timestamp is within `tolerance` seconds of now; then parses it into its event class by `type`. Raises
    WebhookVerificationError otherwise."""
    message_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not message_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header")
    if not (timestamp.isascii() and timestamp.isdigit()):
        raise WebhookVerificationError("webhook-timestamp is not Unix seconds")
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance:
        raise WebhookVerificationError(f"webhook-timestamp is more than {tolerance} s from now: a replay, or a wrong clock")
    if not secret.startswith("whsec_"):
        raise WebhookVerificationError("the secret is the endpoint's whsec_… signing secret")
    body = _raw(raw_body)
    expected = sign(secret, message_id, timestamp, body)
    # Compared as bytes: compare_digest refuses str that is not ASCII, which a forged header may hold.
    if not any(hmac.compare_digest(candidate.encode(), expected.encode())
               for candidate in signatures.split(" ") if candidate.startswith("v1,")):
        raise WebhookVerificationError("no signature matches: wrong secret, or the body was changed (verify the raw bytes)")
    event = json.loads(body)
    cls = EVENT_TYPES.get(event.get("type")) if isinstance(event, dict) else None
    if cls is None:
        return UnknownEvent.model_validate(event)
    return cls.from_dict(event)


class Webhooks:
    """`tender.webhooks`: verification needs no key, so it is the same for every client."""

    @staticmethod
    def verify(raw_body: RawBody, headers: Mapping[str, Any], secret: str, *, tolerance: int = 300,
               now: Optional[float] = None) -> Union[WebhookEvent, UnknownEvent]:
        return verify(raw_body, headers, secret, tolerance=tolerance, now=now)

    @staticmethod
    def sign(secret: str, message_id: str, timestamp: Union[int, str], body: RawBody) -> str:
        return sign(secret, message_id, timestamp, body)
