"""The client's own rules against scripted answers (httpx.MockTransport): retries and their idempotency key,
backoff honouring Retry-After, which statuses raise at once, the problem error, the version header, pagination,
open enums and unions. No service needed (test_service.py covers the real one)."""
from typing import Any, Dict, List

import httpx
import pytest

from tender import API_VERSION, AsyncTender, Tender, TenderConnectionError, TenderError

REDEMPTION = {"id": "rdm_0193f1c2a4b5c6d7e8f9a0b1", "type": "vouchers.one_voucher", "status": "confirmed",
              "version": 3, "amount": 10000, "reversed_amount": 0, "currency": "ZAR", "operations": [],
              "related_ids": [], "created_at": "2026-05-20T08:25:01.014Z", "updated_at": "2026-05-20T08:25:01.014Z"}


def problem(status: int, code: str, **extra: Any) -> Dict[str, Any]:
    return {"type": f"http://x/problems/{code}", "title": code, "status": status, "code": code, "request_id": "req_1", **extra}


class Script:
    """Answers in order (the last one repeats); records each request. "drop" is a connection that fails."""

    def __init__(self, *answers: Any) -> None:
        self.answers = list(answers)
        self.requests: List[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        answer = self.answers[min(len(self.requests) - 1, len(self.answers) - 1)]
        if answer == "drop":
            raise httpx.ConnectError("connection refused", request=request)
        status, body, headers = (answer + ({},))[:3] if len(answer) == 2 else answer
        return httpx.Response(status, json=body, headers=headers)


def client(script: Script, **options: Any) -> Tender:
    settings = {"retry_delay": 0.001, "max_retry_delay": 0.05, **options}
    return Tender(api_key="sk_test_unit", base_url="http://tender.test",
                  http_client=httpx.Client(transport=httpx.MockTransport(script)), **settings)


def test_every_request_carries_the_key_and_the_api_version_it_was_generated_for():
    script = Script((200, REDEMPTION))
    client(script).redemptions.retrieve("rdm_0193f1c2a4b5c6d7e8f9a0b1")
    sent = script.requests[0]
    assert sent.headers["Authorization"] == "Bearer sk_test_unit"
    assert sent.headers["Tender-Version"] == API_VERSION
    assert "Idempotency-Key" not in sent.headers


def test_a_409_conflict_a_429_and_a_5xx_are_retried_under_the_same_idempotency_key():
    script = Script((409, problem(409, "conflict"), {"Retry-After": "0"}),
                    (429, problem(429, "too_many_requests"), {"Retry-After": "0"}),
                    (503, problem(503, "service_unavailable")), (201, REDEMPTION))
    redemption = client(script).redemptions.create(type="vouchers.one_voucher", source={"pin": "4136000000000011"})
    assert redemption.id == REDEMPTION["id"]
    assert type(redemption).__name__ == "OneVoucherRedemption"
    assert len(script.requests) == 4
    keys = {r.headers["Idempotency-Key"] for r in script.requests}
    assert len(keys) == 1
    assert script.requests[3].content == b'{"type":"vouchers.one_voucher","source":{"pin":"4136000000000011"}}'


def test_a_callers_idempotency_key_is_sent_as_given_and_calls_without_one_get_different_keys():
    script = Script((201, REDEMPTION))
    tender = client(script)
    tender.redemptions.create({"type": "vouchers.one_voucher", "source": {"pin": "4136000000000011"}}, idempotency_key="order-42")
    tender.redemptions.create(type="vouchers.one_voucher", source={"pin": "4136000000000011"})
    tender.redemptions.create(type="vouchers.one_voucher", source={"pin": "4136000000000011"})
    keys = [r.headers["Idempotency-Key"] for r in script.requests]
    assert keys[0] == "order-42"
    assert keys[1] != keys[2]


def test_a_failed_connection_is_retried_and_after_the_last_retry_raises_a_connection_error():
    script = Script("drop", (201, REDEMPTION))
    assert client(script).redemptions.create(type="vouchers.one_voucher", source={"pin": "4136000000000011"}).id == REDEMPTION["id"]
    assert script.requests[0].headers["Idempotency-Key"] == script.requests[1].headers["Idempotency-Key"]
    dead = Script("drop")
    with pytest.raises(TenderConnectionError) as raised:
        client(dead, max_retries=2).redemptions.retrieve("rdm_x")
    assert raised.value.status == 0 and isinstance(raised.value, TenderError)
    assert len(dead.requests) == 3


def test_retry_after_is_honoured():
    script = Script((429, problem(429, "too_many_requests"), {"Retry-After": "3"}), (200, REDEMPTION))
    tender = client(script, max_retry_delay=10)
    pauses: List[float] = []
    tender._transport.sleep = pauses.append
    tender.redemptions.retrieve("rdm_x")
    assert pauses == [3.0]


def test_a_retry_after_longer_than_max_retry_delay_raises_the_429_at_once():
    script = Script((429, problem(429, "too_many_requests"), {"Retry-After": "60"}), (200, REDEMPTION))
    tender = client(script, max_retry_delay=20)
    pauses: List[float] = []
    tender._transport.sleep = pauses.append
    with pytest.raises(TenderError) as raised:
        tender.redemptions.retrieve("rdm_x")
    assert raised.value.status == 429 and raised.value.code == "too_many_requests"
    assert len(script.requests) == 1 and pauses == [], "no retry before the service said it would take one"


def test_backoff_grows_exponentially_with_jitter_up_to_its_cap():
    script = Script((500, problem(500, "internal_server_error")))
    tender = Tender(api_key="sk_test_unit", base_url="http://tender.test", retry_delay=1, max_retry_delay=4, max_retries=4,
                    http_client=httpx.Client(transport=httpx.MockTransport(script)))
    pauses: List[float] = []
    tender._transport.sleep = pauses.append
    with pytest.raises(TenderError):
        tender.redemptions.retrieve("rdm_x")
    assert len(pauses) == 4
    for pause, ceiling in zip(pauses, [1, 2, 4, 4]):
        assert ceiling / 2 <= pause <= ceiling


def test_other_4xx_raise_at_once_with_status_code_detail_errors_and_request_id():
    script = Script((400, problem(400, "bad_request", detail="source.pin: must be 16 digits",
                                  errors=[{"field": "source.pin", "message": "must be 16 digits"}])))
    with pytest.raises(TenderError) as raised:
        client(script).redemptions.create(type="vouchers.one_voucher", source={"pin": "1"})
    error = raised.value
    assert (error.status, error.code, error.detail, error.request_id) == (400, "bad_request", "source.pin: must be 16 digits", "req_1")
    assert error.errors == [{"field": "source.pin", "message": "must be 16 digits"}]
    assert len(script.requests) == 1


def test_a_409_other_than_conflict_is_not_retried_and_an_unknown_code_still_parses():
    script = Script((409, problem(409, "a_code_from_the_future")))
    with pytest.raises(TenderError) as raised:
        client(script).payments.capture("pay_x")
    assert raised.value.code == "a_code_from_the_future"
    assert len(script.requests) == 1


def test_an_enum_value_a_field_or_a_union_member_the_library_does_not_know_still_parses():
    script = Script((200, {**REDEMPTION, "status": "a_status_from_the_future", "a_field_from_the_future": {"x": 1}}))
    redemption = client(script).redemptions.retrieve("rdm_x")
    assert redemption.status == "a_status_from_the_future"
    future = Script((200, {**REDEMPTION, "type": "vouchers.a_provider_from_the_future"}))
    unknown = client(future).redemptions.retrieve("rdm_x")
    assert unknown["type"] == "vouchers.a_provider_from_the_future"


def test_a_list_is_walked_across_pages_by_its_cursor_with_its_filters_on_every_page():
    def page(ids, cursor):
        return (200, {"data": [{**REDEMPTION, "id": i} for i in ids], "has_more": cursor is not None, "next_cursor": cursor})

    script = Script(page(["rdm_" + "a" * 24, "rdm_" + "b" * 24], "b"), page(["rdm_" + "c" * 24], None))
    ids = [r.id for r in client(script).redemptions.list(status="confirmed", limit=2, created_at_gte="2026-01-01T00:00:00Z")]
    assert ids == ["rdm_" + "a" * 24, "rdm_" + "b" * 24, "rdm_" + "c" * 24]
    assert [str(r.url) for r in script.requests] == [
        "http://tender.test/collect/redemptions?limit=2&status=confirmed&created_at%5Bgte%5D=2026-01-01T00%3A00%3A00Z",
        "http://tender.test/collect/redemptions?limit=2&cursor=b&status=confirmed&created_at%5Bgte%5D=2026-01-01T00%3A00%3A00Z",
    ]


def test_to_list_stops_at_its_limit_without_fetching_the_page_after_it():
    def page(ids, cursor):
        return (200, {"data": [{**REDEMPTION, "id": i} for i in ids], "has_more": cursor is not None, "next_cursor": cursor})

    script = Script(page(["rdm_" + "a" * 24, "rdm_" + "b" * 24], "b"), page(["rdm_" + "c" * 24], None))
    tender = client(script)
    assert [r.id for r in tender.redemptions.list(limit=2).to_list(2)] == ["rdm_" + "a" * 24, "rdm_" + "b" * 24]
    assert len(script.requests) == 1, "the limit filled by the first page: no second request"
    assert tender.redemptions.list(limit=2).to_list(0) == [] and len(script.requests) == 1


@pytest.mark.anyio
async def test_the_async_client_retries_and_paginates_alike():
    script = Script((409, problem(409, "conflict"), {"Retry-After": "0"}), (201, REDEMPTION),
                    (200, {"data": [REDEMPTION], "has_more": False, "next_cursor": None}))
    async with AsyncTender(api_key="sk_test_unit", base_url="http://tender.test", retry_delay=0.001,
                           http_client=httpx.AsyncClient(transport=httpx.MockTransport(script))) as tender:
        redemption = await tender.redemptions.create(type="vouchers.one_voucher", source={"pin": "4136000000000011"})
        assert redemption.id == REDEMPTION["id"]
        assert script.requests[0].headers["Idempotency-Key"] == script.requests[1].headers["Idempotency-Key"]
        assert [r.id async for r in tender.redemptions.list()] == [REDEMPTION["id"]]


def test_a_body_may_be_a_generated_model_and_keywords_add_to_it():
    from tender._generated.models import OneVoucherRedemptionRequest, OneVoucherSource

    script = Script((201, REDEMPTION))
    body = OneVoucherRedemptionRequest(type="vouchers.one_voucher", source=OneVoucherSource(pin="4136000000000011"))
    client(script).redemptions.create(body, external_reference="order-42")
    assert script.requests[0].content == \
        b'{"source":{"pin":"4136000000000011"},"type":"vouchers.one_voucher","external_reference":"order-42"}'
