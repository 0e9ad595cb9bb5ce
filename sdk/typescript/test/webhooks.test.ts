// Standard Webhooks verification: the specification's published example, the time tolerance, a changed body or
// secret, a rotation's second signature, and the typed event union narrowed on `type`.
import { test } from "node:test";
import assert from "node:assert/strict";
import Tender, { EVENT_TYPES, WebhookVerificationError, signWebhook, type WebhookEvent } from "@tender/sdk";

const tender = new Tender({ apiKey: "sk_test_unit" });
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

test("the signature of the specification's published example is reproduced", async () => {
  const signature = await signWebhook(SECRET, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
  assert.equal(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
});

const EVENT = JSON.stringify({ id: "evt_0193f1c2a4b5c6d7e8f9a0b1", type: "payment.succeeded", created_at: "2026-05-20T08:25:01.014Z",
  data: { id: "pay_0193f1c2a4b5c6d7e8f9a0b1", amount: 15000, currency: "ZAR", status: "succeeded" } });

async function headers(body: string, timestamp = Math.floor(Date.now() / 1000), secret = SECRET) {
  return { "webhook-id": "evt_0193f1c2a4b5c6d7e8f9a0b1", "webhook-timestamp": String(timestamp),
    "webhook-signature": await signWebhook(secret, "evt_0193f1c2a4b5c6d7e8f9a0b1", timestamp, body) };
}

test("a signed delivery verifies over its raw bytes and comes back as a typed event", async () => {
  const event: WebhookEvent = await tender.webhooks.verify(new TextEncoder().encode(EVENT), await headers(EVENT), SECRET);
  assert.equal(event.type, "payment.succeeded");
  if (event.type === "payment.succeeded") {
    const amount: number = event.data.amount;
    assert.equal(amount, 15000);
  }
  assert.ok(EVENT_TYPES.includes("payment.succeeded"));
});

test("Headers objects and mixed-case header names are read alike", async () => {
  const plain = await headers(EVENT);
  const mixed = Object.fromEntries(Object.entries(plain).map(([k, v]) => [k.toUpperCase(), v]));
  assert.equal((await tender.webhooks.verify(EVENT, mixed, SECRET)).id, "evt_0193f1c2a4b5c6d7e8f9a0b1");
  assert.equal((await tender.webhooks.verify(EVENT, new Headers(plain), SECRET)).id, "evt_0193f1c2a4b5c6d7e8f9a0b1");
});

test("a changed body, another secret, a missing header or a stale timestamp is refused", async () => {
  const good = await headers(EVENT);
  const refused = (p: Promise<unknown>) => assert.rejects(p, WebhookVerificationError);
  await refused(tender.webhooks.verify(EVENT.replace("15000", "15001"), good, SECRET));
  await refused(tender.webhooks.verify(JSON.stringify(JSON.parse(EVENT), null, 2), good, SECRET));
  await refused(tender.webhooks.verify(EVENT, good, "whsec_" + btoa("another secret of thirty-two bytes")));
  await refused(tender.webhooks.verify(EVENT, { ...good, "webhook-signature": undefined }, SECRET));
  await refused(tender.webhooks.verify(EVENT, { ...good, "webhook-signature": "v1,é" + good["webhook-signature"].slice(4) }, SECRET));
  const old = Math.floor(Date.now() / 1000) - 301;
  await refused(tender.webhooks.verify(EVENT, await headers(EVENT, old), SECRET));
  const ahead = Math.floor(Date.now() / 1000) + 301;
  await refused(tender.webhooks.verify(EVENT, await headers(EVENT, ahead), SECRET));
  // Within a wider tolerance the old one is accepted.
  assert.ok(await tender.webhooks.verify(EVENT, await headers(EVENT, old), SECRET, { toleranceSeconds: 600 }));
});

test("during a secret rotation either signature verifies", async () => {
  const rotated = "whsec_" + btoa("a new secret of thirty-two bytes");
  const timestamp = Math.floor(Date.now() / 1000);
  const both = `${await signWebhook(rotated, "evt_0193f1c2a4b5c6d7e8f9a0b1", timestamp, EVENT)} ${await signWebhook(SECRET, "evt_0193f1c2a4b5c6d7e8f9a0b1", timestamp, EVENT)}`;
  const h = { "webhook-id": "evt_0193f1c2a4b5c6d7e8f9a0b1", "webhook-timestamp": String(timestamp), "webhook-signature": both };
  assert.ok(await tender.webhooks.verify(EVENT, h, SECRET));
  assert.ok(await tender.webhooks.verify(EVENT, h, rotated));
});

test("an event type the library does not know still verifies and parses", async () => {
  const body = JSON.stringify({ id: "evt_1", type: "a_type.from_the_future", created_at: "2026-05-20T08:25:01.014Z", data: { x: 1 } });
  const event = await tender.webhooks.verify(body, await headers(body), SECRET);
  assert.equal(event.type as string, "a_type.from_the_future");
});
