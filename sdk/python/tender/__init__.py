"""Tender's client library: `from tender import Tender`."""
from ._client import AsyncTender, Tender
from ._core import AsyncListPage, ListPage, Page, retry_after_seconds
from ._errors import TenderConnectionError, TenderError, WebhookVerificationError
from ._generated.resources import API_VERSION, EVENT_TYPES, OPERATIONS, WebhookEvent
from ._webhooks import UnknownEvent

__all__ = ["Tender", "AsyncTender", "TenderError", "TenderConnectionError", "WebhookVerificationError", "ListPage",
           "AsyncListPage", "Page", "API_VERSION", "EVENT_TYPES", "OPERATIONS", "WebhookEvent", "UnknownEvent",
           "retry_after_seconds"]
