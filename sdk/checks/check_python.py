"""Compiles, imports and uses the python client OpenAPI Generator made of the committed document (pom.xml,
execution "python-check"): every module compiles and imports, and the unions parse as an integrator's code reads
them. Its runtime dependencies come from the machine's pip index into a virtual environment under target/.
Usage: python3 check_python.py <target/generator-checks/python>"""
import json
import os
import subprocess
import sys
import venv

root = os.path.abspath(sys.argv[1])
client = os.path.join(root, "client")
env = os.path.join(root, "venv")
python = os.path.join(env, "bin", "python")

if not os.path.exists(python):
    venv.EnvBuilder(with_pip=True).create(env)
subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--retries", "0",
                "pydantic>=2", "python-dateutil", "urllib3>=2", "typing-extensions"], check=True)
subprocess.run([python, "-W", "error", "-m", "compileall", "-q", os.path.join(client, "tender_check")], check=True)

USAGE = r'''
import importlib, json, pkgutil, warnings, sys
warnings.simplefilter("error")
import tender_check
from tender_check import models

# Every module imports.
imported = 0
for module in pkgutil.walk_packages(tender_check.__path__, "tender_check."):
    importlib.import_module(module.name)
    imported += 1

from tender_check.models import (CreateRedemptionRequest, OneVoucherRedemptionRequest, OneVoucherSource, Redemption,
                                 Event, PaymentMethodDetails, ProblemDetail, CreatePaymentSessionRequest)

# The README's session body.
session = CreatePaymentSessionRequest.from_dict({"amount": 15000, "currency": "ZAR",
                                                 "options": {"checkout_options": {"return_url": "http://localhost:8080/"}}})
assert session.options.checkout_options.return_url == "http://localhost:8080/"

request = CreateRedemptionRequest(OneVoucherRedemptionRequest(type="vouchers.one_voucher",
                                                              source=OneVoucherSource(pin="4136000000000011")))
assert json.loads(request.to_json())["source"]["pin"] == "4136000000000011"

redemption = Redemption.from_json(json.dumps({
    "id": "rdm_" + "a" * 24, "type": "vouchers.provider_c", "status": "confirmed", "version": 3, "amount": 5000,
    "reversed_amount": 0, "currency": "ZAR", "operations": [], "related_ids": [],
    "created_at": "2026-05-20T08:25:01.014Z", "updated_at": "2026-05-20T08:25:01.014Z",
    "change_voucher": {"pin": "****1234", "serial_number": "1", "reference": "PC1"}}))
assert type(redemption.actual_instance).__name__ == "ProviderCRedemption", redemption.actual_instance
assert redemption.actual_instance.change_voucher.reference == "PC1"

details = PaymentMethodDetails.from_dict({"type": "card", "card": {"scheme": "VISA", "bin": "424242", "last4": "4242",
                                                                    "exp_month": 12, "exp_year": 2034}})
assert details.actual_instance.card.last4 == "4242"

event = Event.from_json(json.dumps({"id": "evt_" + "b" * 24, "type": "obligation.amount_applied",
                                    "created_at": "2026-05-20T08:25:01.014Z",
                                    "data": {"id": "ob_" + "c" * 24, "amount": 100, "currency": "ZAR",
                                             "payment_id": "pay_" + "d" * 24}}))
assert event.actual_instance.data.amount == 100

# A code this client does not know still parses.
problem = ProblemDetail.from_dict({"type": "x", "title": "New", "status": 400, "code": "a_code_from_the_future"})
assert problem.code == "a_code_from_the_future"
print("imported", imported, "modules")
'''
subprocess.run([python, "-c", USAGE], check=True, cwd=client)
print("generator checks (python): passed")
