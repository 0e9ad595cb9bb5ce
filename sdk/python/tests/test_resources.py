"""Every operation of the document is reachable through both clients, by the name OPERATIONS records, and the
names integrators know are where they expect them."""
import json
import os
from functools import reduce

from tender import OPERATIONS, AsyncTender, Tender

DOCUMENT = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "openapi.json")


def test_every_operation_of_the_document_is_a_method_of_both_clients():
    with open(DOCUMENT, encoding="utf-8") as f:
        document = json.load(f)
    reachable = {(method, path): at for _, method, path, at in OPERATIONS}
    missing = []
    count = 0
    for client in (Tender(api_key="sk_test_unit"), AsyncTender(api_key="sk_test_unit")):
        for path, item in document["paths"].items():
            for method in ("get", "post", "put", "patch", "delete"):
                if method not in item:
                    continue
                count += 1
                at = reachable.get((method.upper(), path))
                target = reduce(lambda o, k: getattr(o, k, None), at.split("."), client) if at else None
                if not callable(target):
                    missing.append(f"{type(client).__name__}: {method.upper()} {path} ({item[method]['operationId']})")
    assert missing == []
    assert len(OPERATIONS) * 2 == count


def test_resources_are_named_as_integrators_expect():
    at = {entry[3] for entry in OPERATIONS}
    assert at >= {"redemptions.create", "redemptions.retrieve", "redemptions.list", "payment_sessions.create",
                  "payments.capture", "refunds.create", "billing.customers.create", "webhook_endpoints.create",
                  "events.list"}
