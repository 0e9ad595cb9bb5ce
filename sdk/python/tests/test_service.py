"""The library against a running service (TENDER_BASE_URL, TENDER_API_KEY): a paid session and its refund, a list
walked across pages, a problem with its code, a retried request that moves money once (sync threads and async
tasks), and a real webhook delivery verified and typed. The service must let test-mode webhooks reach loopback
(TENDER_WEBHOOKS_ALLOW_PRIVATE_TARGETS=true, as the build's SdkIT starts it)."""
import asyncio
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tender import TenderError
from tender._generated.models import RedemptionConfirmedEvent

from conftest import (BASE_URL, Answers, eventually, fresh_pin, pay_by_card, recording_async_client,
                      recording_client)


def test_a_session_paid_at_the_hosted_checkout_then_part_of_it_refunded(tender):
    session = tender.payment_sessions.create(amount=15000, currency="ZAR",
                                             options={"checkout_options": {"return_url": f"{BASE_URL}/"}})
    assert session.payment_outcome == "not_started"
    pay_by_card(session.session_url)
    paid = eventually("the session paid", lambda: tender.payment_sessions.retrieve(session.id),
                      lambda s: s.payment_outcome == "paid")
    payment = tender.payments.retrieve(paid.payment_id)
    assert (payment.status, payment.paid_amount) == ("succeeded", 15000)
    assert payment.payment_method_details.type == "card"
    assert payment.payment_method_details.card.last4 == "4242"

    refund = tender.refunds.create(payment.id, amount=5000, reason="requested_by_customer")
    assert (refund.payment_id, refund.amount) == (payment.id, 5000)
    eventually("the refund succeeded", lambda: tender.refunds.retrieve(refund.id), lambda r: r.status == "succeeded")
    assert [r.id for r in tender.refunds.list(payment=payment.id)] == [refund.id]
    assert tender.payments.retrieve(payment.id).refunded_amount == 5000


def test_a_list_is_walked_across_pages_each_item_once_newest_first():
    answers = Answers()
    tender = recording_client(answers)
    since = datetime.now(timezone.utc) - timedelta(seconds=1)
    created = [tender.redemptions.create(type="vouchers.one_voucher", source={"pin": fresh_pin()}).id for _ in range(5)]
    answers.seen.clear()
    seen = [r.id for r in tender.redemptions.list(created_at_gte=since, limit=2)]
    assert len(answers.seen) >= 3, "5 items at 2 a page take 3 pages or more"
    assert len(set(seen)) == len(seen)
    assert [i for i in seen if i in created] == list(reversed(created))


def test_a_problem_raises_with_its_status_code_detail_and_the_fields_it_names(tender):
    with pytest.raises(TenderError) as raised:
        tender.redemptions.create(type="vouchers.one_voucher", source={"pin": "123"})
    error = raised.value
    assert (error.status, error.code) == (400, "bad_request")
    assert error.detail and error.request_id
    assert any(e["field"] == "source.pin" for e in error.errors), error.errors
    with pytest.raises(TenderError) as missing:
        tender.redemptions.retrieve("rdm_000000000000000000000000")
    assert (missing.value.status, missing.value.code) == (404, "resource_not_found")


def race(create_all):
    """Rounds (at most five) of eight calls with one key at once, until a round saw a 409 conflict: the service runs
    the first and answers the others `conflict` with Retry-After while it runs; the library waits and asks again."""
    conflicts = 0
    for _ in range(5):
        answers = Answers()
        key = f"sdk-race-{uuid.uuid4()}"
        reference = f"sdk-race-{uuid.uuid4().hex[:8]}"
        body = {"type": "vouchers.one_voucher", "source": {"pin": fresh_pin()}, "external_reference": reference}
        redemptions, listed = create_all(answers, key, body, reference)
        assert len({r.id for r in redemptions}) == 1, "every call has the one redemption"
        assert redemptions[0].status == "confirmed", "redeemed once (a second provider call would find the voucher used)"
        assert len(listed) == 1, "one redemption for the reference"
        keyed = [a for a in answers.seen if a["key"] is not None]
        assert len(keyed) >= 8 and all(a["key"] == key for a in keyed), "every call and retry under the one key"
        conflicts = sum(1 for a in answers.seen if a["status"] == 409 and a["code"] == "conflict")
        if conflicts:
            return
    pytest.fail("no request met 409 conflict while the first ran")


def test_requests_racing_one_key_meet_409_conflict_are_retried_and_redeem_once():
    def create_all(answers, key, body, reference):
        tender = recording_client(answers)
        with ThreadPoolExecutor(8) as pool:
            redemptions = list(pool.map(lambda _: tender.redemptions.create(body, idempotency_key=key), range(8)))
        return redemptions, tender.redemptions.list(external_reference=reference).to_list()

    race(create_all)


def test_the_async_client_racing_one_key_redeems_once():
    def create_all(answers, key, body, reference):
        async def run():
            async with recording_async_client(answers) as tender:
                redemptions = await asyncio.gather(*(tender.redemptions.create(body, idempotency_key=key) for _ in range(8)))
                return redemptions, await tender.redemptions.list(external_reference=reference).to_list()

        return asyncio.run(run())

    race(create_all)


def test_a_real_webhook_delivery_verifies_over_its_raw_body_and_comes_back_typed(tender):
    deliveries = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers["Content-Length"]))
            deliveries.append((body, dict(self.headers)))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = tender.webhook_endpoints.create(url=f"http://127.0.0.1:{server.server_port}/webhooks",
                                               enabled_events=["redemption.confirmed"])
    try:
        assert endpoint.secret.startswith("whsec_")
        redemption = tender.redemptions.create(type="vouchers.one_voucher", source={"pin": fresh_pin()})
        events = []

        def received():
            while deliveries:
                body, headers = deliveries.pop(0)
                events.append(tender.webhooks.verify(body, headers, endpoint.secret))
            return events

        eventually("the delivery", received, lambda found: any(e.data.id == redemption.id for e in found))
        event = next(e for e in events if e.data.id == redemption.id)
        assert isinstance(event, RedemptionConfirmedEvent)
        assert event.type == "redemption.confirmed"
        assert event.data.status == "confirmed"
        assert event.id.startswith("evt_")
    finally:
        tender.webhook_endpoints.delete(endpoint.id)
        server.shutdown()
