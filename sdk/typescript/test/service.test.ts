// The library against a running service (TENDER_BASE_URL, TENDER_API_KEY): a paid session and its refund, a list
// walked across pages, a problem with its code, a retried request that moves money once, and a real webhook delivery
// verified and typed. The service must let test-mode webhooks reach loopback
// (TENDER_WEBHOOKS_ALLOW_PRIVATE_TARGETS=true, as the build's SdkIT starts it).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { TenderError, type WebhookEvent } from "@tender/sdk";
import { BASE_URL, eventually, freshPin, payByCard, recordingFetch, service } from "./support.js";

test("a session paid at the hosted checkout, then part of it refunded", async () => {
  const tender = service();
  const session = await tender.paymentSessions.create({
    amount: 15000, currency: "ZAR", options: { checkout_options: { return_url: `${BASE_URL}/` } },
  });
  assert.equal(session.payment_outcome, "not_started");
  assert.ok(session.session_url, "a session has a checkout URL");
  await payByCard(session.session_url);
  const paid = await eventually("the session paid", () => tender.paymentSessions.retrieve(session.id), (s) => s.payment_outcome === "paid");
  assert.ok(paid.payment_id);
  const payment = await tender.payments.retrieve(paid.payment_id);
  assert.equal(payment.status, "succeeded");
  assert.equal(payment.paid_amount, 15000);
  assert.equal(payment.payment_method_details?.type, "card");

  const refund = await tender.refunds.create(payment.id, { amount: 5000, reason: "requested_by_customer" });
  assert.equal(refund.payment_id, payment.id);
  assert.equal(refund.amount, 5000);
  const succeeded = await eventually("the refund succeeded", () => tender.refunds.retrieve(refund.id), (r) => r.status === "succeeded");
  assert.equal(succeeded.currency, "ZAR");
  const refunds = await tender.refunds.list({ payment: payment.id }).toArray();
  assert.deepEqual(refunds.map((r) => r.id), [refund.id]);
  assert.equal((await tender.payments.retrieve(payment.id)).refunded_amount, 5000);
});

test("a list is walked across pages, each item once, newest first", async () => {
  const recorder = recordingFetch();
  const tender = service({ fetch: recorder.fetch });
  const since = new Date(Date.now() - 1000).toISOString();
  const created: string[] = [];
  for (let i = 0; i < 5; i++) {
    created.push((await tender.redemptions.create({ type: "vouchers.one_voucher", source: { pin: freshPin() } })).id);
  }
  recorder.answers.length = 0;
  const seen: string[] = [];
  for await (const redemption of tender.redemptions.list({ "created_at[gte]": since, limit: 2 })) {
    seen.push(redemption.id);
  }
  assert.ok(recorder.answers.length >= 3, `5 items at 2 a page take 3 pages or more: ${recorder.answers.length}`);
  assert.equal(new Set(seen).size, seen.length, "no item twice");
  const ours = seen.filter((id) => created.includes(id));
  assert.deepEqual(ours, [...created].reverse(), "every one we made, newest first");
});

test("a problem raises with its status, code, detail and the fields it names", async () => {
  const tender = service();
  await assert.rejects(tender.redemptions.create({ type: "vouchers.one_voucher", source: { pin: "123" } }), (e: unknown) => {
    assert.ok(e instanceof TenderError);
    assert.equal(e.status, 400);
    assert.equal(e.code, "bad_request");
    assert.ok(e.detail);
    assert.ok(e.errors.some((f) => f.field === "source.pin"), JSON.stringify(e.errors));
    assert.match(e.requestId ?? "", /\S/);
    return true;
  });
  await assert.rejects(tender.redemptions.retrieve("rdm_000000000000000000000000"), (e: unknown) => {
    assert.ok(e instanceof TenderError);
    assert.equal(e.status, 404);
    assert.equal(e.code, "resource_not_found");
    return true;
  });
});

test("requests racing one idempotency key are answered 409 conflict while the first runs, retried, and redeem once", async () => {
  // Eight calls with one key at once: the service runs the first and answers the others 409 `conflict` with
  // Retry-After while it runs; the library waits and asks again, and gets the first one's answer. Rounds repeat (at
  // most five) until a round has seen a 409 conflict: on a fast machine the first may finish before the others land.
  let conflicts = 0;
  for (let round = 0; round < 5 && conflicts === 0; round++) {
    const recorder = recordingFetch();
    const tender = service({ fetch: recorder.fetch });
    const key = `sdk-race-${randomUUID()}`;
    const reference = `sdk-race-${randomUUID().slice(0, 8)}`;
    const body = { type: "vouchers.one_voucher", source: { pin: freshPin() }, external_reference: reference } as const;
    const answers = await Promise.all(Array.from({ length: 8 }, () => tender.redemptions.create(body, { idempotencyKey: key })));
    assert.equal(new Set(answers.map((r) => r.id)).size, 1, "every call has the one redemption");
    assert.equal(answers[0]!.status, "confirmed", "the voucher was redeemed once (a second provider call would find it used)");
    assert.ok(recorder.answers.every((a) => a.key === key));
    conflicts = recorder.answers.filter((a) => a.status === 409 && a.code === "conflict").length;
    assert.ok(recorder.answers.filter((a) => a.status === 201).length >= 8, "each call ended with the answer");
    const made = await tender.redemptions.list({ external_reference: reference }).toArray();
    assert.equal(made.length, 1, "one redemption for the reference");
  }
  assert.ok(conflicts > 0, "a request met 409 conflict while the first ran, and was retried");
});

test("a real webhook delivery verifies over its raw body and comes back as a typed event", async () => {
  const tender = service();
  const deliveries: { body: Buffer; headers: Record<string, string | string[] | undefined> }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      deliveries.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  const endpoint = await tender.webhookEndpoints.create({ url, enabled_events: ["redemption.confirmed"] });
  try {
    assert.ok(endpoint.secret?.startsWith("whsec_"));
    const redemption = await tender.redemptions.create({ type: "vouchers.one_voucher", source: { pin: freshPin() } });
    const events: WebhookEvent[] = [];
    await eventually("the delivery", async () => {
      for (const delivery of deliveries.splice(0)) {
        events.push(await tender.webhooks.verify(delivery.body, delivery.headers, endpoint.secret!));
      }
      return events;
    }, (e) => e.some((event) => event.type === "redemption.confirmed" && event.data.id === redemption.id));
    const event = events.find((e) => e.type === "redemption.confirmed" && e.data.id === redemption.id)!;
    if (event.type !== "redemption.confirmed") assert.fail("narrowed on type");
    assert.equal(event.data.status, "confirmed");
    assert.equal(event.data.type, "vouchers.one_voucher");
    assert.match(event.id, /^evt_/);
  } finally {
    await tender.webhookEndpoints.delete(endpoint.id);
    receiver.close();
  }
});
