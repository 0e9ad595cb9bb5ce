"""Standard Webhooks verification: the specification's published example, the time tolerance, a changed body or
secret, a rotation's second signature, and the typed event chosen by `type`."""
import base64
import json
import time

import pytest

from tender import EVENT_TYPES, Tender, UnknownEvent, WebhookVerificationError
from tender._generated.models import PaymentSucceededEvent

SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
tender = Tender(api_key="sk_test_unit")
PAYMENT = {"id": "pay_0193f1c2a4b5c6d7e8f9a0b1", "amount": 15000, "authorized_amount": 15000, "capture_method": "automatic",
           "country": "ZA", "created_at": "2026-05-20T08:25:01.014Z", "currency": "ZAR", "intent": "payment", "mode": "test",
           "paid_amount": 15000, "refunded_amount": 0, "status": "succeeded", "updated_at": "2026-05-20T08:25:01.014Z",
           "version": 2, "voided_amount": 0,
           "payment_method_details": {"type": "card", "card": {"scheme": "VISA", "bin": "424242", "last4": "4242",
                                                              "exp_month": 12, "exp_year": 2034}}}
EVENT = json.dumps({"id": "evt_0193f1c2a4b5c6d7e8f9a0b1", "type": "payment.succeeded",
                    "created_at": "2026-05-20T08:25:01.014Z", "data": PAYMENT}).encode()


def headers(body: bytes, timestamp=None, secret=SECRET):
    timestamp = int(time.time()) if timestamp is None else timestamp
    return {"webhook-id": "evt_0193f1c2a4b5c6d7e8f9a0b1", "webhook-timestamp": str(timestamp),
            "webhook-signature": tender.webhooks.sign(secret, "evt_0193f1c2a4b5c6d7e8f9a0b1", timestamp, body)}


def test_the_signature_of_the_specifications_published_example_is_reproduced():
    assert tender.webhooks.sign(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, b'{"test": 2432232314}') \
        == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def test_a_signed_delivery_verifies_over_its_raw_bytes_and_comes_back_as_its_typed_event():
    event = tender.webhooks.verify(EVENT, headers(EVENT), SECRET)
    assert isinstance(event, PaymentSucceededEvent)
    assert event.data.amount == 15000
    assert event.data.payment_method_details.card.last4 == "4242"
    assert set(EVENT_TYPES) >= {"payment.succeeded", "redemption.confirmed", "refund.succeeded"}


def test_header_names_are_read_whatever_their_case():
    upper = {k.upper(): v for k, v in headers(EVENT).items()}
    assert tender.webhooks.verify(EVENT, upper, SECRET).id == "evt_0193f1c2a4b5c6d7e8f9a0b1"


def test_a_changed_body_another_secret_a_missing_header_or_a_stale_timestamp_is_refused():
    good = headers(EVENT)
    other = "whsec_" + base64.b64encode(b"another secret of thirty-two b!!").decode()
    for body, given, secret in [
        (EVENT.replace(b"15000", b"15001"), good, SECRET),
        (json.dumps(json.loads(EVENT), indent=2).encode(), good, SECRET),
        (EVENT, good, other),
        (EVENT, {k: v for k, v in good.items() if k != "webhook-signature"}, SECRET),
        (EVENT, {**good, "webhook-signature": "v1,é" + good["webhook-signature"][4:]}, SECRET),
        (EVENT, headers(EVENT, int(time.time()) - 301), SECRET),
        (EVENT, headers(EVENT, int(time.time()) + 301), SECRET),
        (EVENT, {**good, "webhook-timestamp": "\u00b2"}, SECRET),  # a digit, but not Unix seconds
    ]:
        with pytest.raises(WebhookVerificationError):
            tender.webhooks.verify(body, given, secret)
    assert tender.webhooks.verify(EVENT, headers(EVENT, int(time.time()) - 301), SECRET, tolerance=600)


def test_during_a_secret_rotation_either_signature_verifies():
    rotated = "whsec_" + base64.b64encode(b"a new secret of thirty-two bytes").decode()
    timestamp = int(time.time())
    both = " ".join(tender.webhooks.sign(s, "evt_0193f1c2a4b5c6d7e8f9a0b1", timestamp, EVENT) for s in (rotated, SECRET))
    given = {"webhook-id": "evt_0193f1c2a4b5c6d7e8f9a0b1", "webhook-timestamp": str(timestamp), "webhook-signature": both}
    assert tender.webhooks.verify(EVENT, given, SECRET)
    assert tender.webhooks.verify(EVENT, given, rotated)


def test_an_event_type_the_library_does_not_know_still_verifies_and_parses():
    body = json.dumps({"id": "evt_1", "type": "a_type.from_the_future", "created_at": "2026-05-20T08:25:01.014Z",
                       "data": {"x": 1}}).encode()
    event = tender.webhooks.verify(body, headers(body), SECRET)
    assert isinstance(event, UnknownEvent)
    assert (event.type, event.data) == ("a_type.from_the_future", {"x": 1})
