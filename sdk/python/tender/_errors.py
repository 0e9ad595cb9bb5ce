"""One error for every failed call: the service's problem (RFC 9457)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional

import httpx


class TenderError(Exception):
    """A failed call: the problem's `status`, `code` (an open set: compare with the documented codes, treat another
    by its status), `detail`, field `errors` (`[{"field", "message"}]`) and `request_id` (quote it to support)."""

    def __init__(self, message: str, *, status: int, code: str, title: Optional[str] = None,
                 detail: Optional[str] = None, errors: Optional[List[Dict[str, Any]]] = None,
                 request_id: Optional[str] = None, type: Optional[str] = None, instance: Optional[str] = None,
                 headers: Optional[httpx.Headers] = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.errors = errors or []
        self.request_id = request_id
        self.type = type
        self.instance = instance
        self.headers = headers if headers is not None else httpx.Headers()

    @classmethod
    def from_response(cls, response: httpx.Response) -> "TenderError":
        try:
            body = response.json()
        except ValueError:
            body = None
        problem: Dict[str, Any] = body if isinstance(body, dict) else {}

        def text(name: str) -> Optional[str]:
            value = problem.get(name)
            return value if isinstance(value, str) else None

        code = text("code") or f"http_{response.status_code}"
        detail = text("detail")
        errors = [e for e in problem.get("errors", []) if isinstance(e, dict)] if isinstance(problem.get("errors"), list) else []
        fields = "; ".join(f"{e.get('field')}: {e.get('message')}" for e in errors)
        message = f"{response.status_code} {code}" + (f": {detail}" if detail else "")
        if fields and (not detail or fields not in detail):
            message += f" ({fields})"
        status = problem.get("status")
        return cls(message, status=status if isinstance(status, int) else response.status_code, code=code,
                   title=text("title"), detail=detail, errors=errors,
                   request_id=text("request_id") or response.headers.get("Request-Id"), type=text("type"),
                   instance=text("instance"), headers=response.headers)


class TenderConnectionError(TenderError):
    """No answer at all (refused, reset, DNS, a timeout) after every retry: `status` 0."""

    def __init__(self, message: str) -> None:
        super().__init__(message, status=0, code="connection_error")


class WebhookVerificationError(Exception):
    """A webhook whose signature, timestamp or headers do not verify: never process its body."""
