// The client's own rules, against a local HTTP server that answers what each test scripts: retries and their
// idempotency key, backoff honouring Retry-After, which statuses raise at once, the problem error, the version
// header, pagination. No service needed (service.test.ts covers the real one).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Tender, { API_VERSION, TenderConnectionError, TenderError, type Redemption } from "@tender/sdk";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> } | "drop";

/** A server that answers the scripted answers in order (the last one repeats) and records every request. */
async function scripted(answers: Answer[]): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      if (answer === "drop") {
        req.socket.destroy();
        return;
      }
      const problem = answer.status >= 400;
      res.writeHead(answer.status, {
        "Content-Type": problem ? "application/problem+json" : "application/json",
        ...answer.headers,
      });
      res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const REDEMPTION = { id: "rdm_0193f1c2a4b5c6d7e8f9a0b1", type: "vouchers.one_voucher", status: "confirmed" };
const problem = (status: number, code: string, extra: object = {}) =>
  ({ type: `http://x/problems/${code}`, title: code, status, code, request_id: "req_1", ...extra });

function client(url: string, options: Partial<ConstructorParameters<typeof Tender>[0]> = {}) {
  return new Tender({ apiKey: "sk_test_unit", baseUrl: url, retryDelayMs: 1, maxRetryDelayMs: 50, ...options });
}

test("every request carries the key and the API version the library was generated for", async () => {
  const { url, seen, server } = await scripted([{ status: 200, body: REDEMPTION }]);
  try {
    await client(url).redemptions.retrieve("rdm_0193f1c2a4b5c6d7e8f9a0b1");
    assert.equal(seen[0]!.headers.authorization, "Bearer sk_test_unit");
    assert.equal(seen[0]!.headers["tender-version"], API_VERSION);
    assert.match(API_VERSION, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(seen[0]!.headers["idempotency-key"], undefined, "a GET carries no idempotency key");
  } finally {
    server.close();
  }
});

test("a 409 conflict, a 429 and a 5xx are retried under the same idempotency key until the answer comes", async () => {
  const { url, seen, server } = await scripted([
    { status: 409, body: problem(409, "conflict"), headers: { "Retry-After": "0" } },
    { status: 429, body: problem(429, "too_many_requests"), headers: { "Retry-After": "0" } },
    { status: 503, body: problem(503, "service_unavailable") },
    { status: 201, body: REDEMPTION },
  ]);
  try {
    const redemption: Redemption = await client(url).redemptions.create({ type: "vouchers.one_voucher", source: { pin: "4136000000000011" } });
    assert.equal(redemption.id, REDEMPTION.id);
    assert.equal(seen.length, 4);
    const keys = new Set(seen.map((s) => s.headers["idempotency-key"]));
    assert.equal(keys.size, 1, "one key for the call and its retries");
    assert.match([...keys][0] as string, /^[0-9a-f-]{36}$/);
    assert.deepEqual(JSON.parse(seen[3]!.body), { type: "vouchers.one_voucher", source: { pin: "4136000000000011" } });
  } finally {
    server.close();
  }
});

test("a caller's idempotency key is sent as given, and two calls without one get different keys", async () => {
  const { url, seen, server } = await scripted([{ status: 201, body: REDEMPTION }]);
  try {
    const tender = client(url);
    const body = { type: "vouchers.one_voucher", source: { pin: "4136000000000011" } } as const;
    await tender.redemptions.create(body, { idempotencyKey: "order-42" });
    await tender.redemptions.create(body);
    await tender.redemptions.create(body);
    assert.equal(seen[0]!.headers["idempotency-key"], "order-42");
    assert.notEqual(seen[1]!.headers["idempotency-key"], seen[2]!.headers["idempotency-key"]);
  } finally {
    server.close();
  }
});

test("a dropped connection is retried, and after the last retry raises a connection error", async () => {
  const { url, seen, server } = await scripted(["drop", { status: 201, body: REDEMPTION }]);
  try {
    const redemption = await client(url).redemptions.create({ type: "vouchers.one_voucher", source: { pin: "4136000000000011" } });
    assert.equal(redemption.id, REDEMPTION.id);
    assert.equal(seen[0]!.headers["idempotency-key"], seen[1]!.headers["idempotency-key"]);
  } finally {
    server.close();
  }
  const dead = await scripted(["drop"]);
  try {
    await assert.rejects(client(dead.url, { maxRetries: 2 }).redemptions.retrieve("rdm_x"), (e: unknown) => {
      assert.ok(e instanceof TenderConnectionError && e instanceof TenderError);
      assert.equal(e.status, 0);
      return true;
    });
    assert.equal(dead.seen.length, 3, "the first attempt and two retries");
  } finally {
    dead.server.close();
  }
});

test("Retry-After is honoured: the retry waits at least that long", async () => {
  const { url, seen, server } = await scripted([
    { status: 429, body: problem(429, "too_many_requests"), headers: { "Retry-After": "1" } },
    { status: 200, body: REDEMPTION },
  ]);
  try {
    const started = Date.now();
    await client(url, { maxRetryDelayMs: 5000 }).redemptions.retrieve("rdm_x");
    assert.ok(Date.now() - started >= 1000, `waited ${Date.now() - started} ms`);
    assert.equal(seen.length, 2);
  } finally {
    server.close();
  }
});

test("other 4xx raise at once with the problem's status, code, detail, errors and request id", async () => {
  const { url, seen, server } = await scripted([{ status: 400, body: problem(400, "bad_request", {
    detail: "source.pin: must be 16 digits", errors: [{ field: "source.pin", message: "must be 16 digits" }],
  }) }]);
  try {
    await assert.rejects(client(url).redemptions.create({ type: "vouchers.one_voucher", source: { pin: "1" } }), (e: unknown) => {
      assert.ok(e instanceof TenderError);
      assert.equal(e.status, 400);
      assert.equal(e.code, "bad_request");
      assert.equal(e.detail, "source.pin: must be 16 digits");
      assert.deepEqual(e.errors, [{ field: "source.pin", message: "must be 16 digits" }]);
      assert.equal(e.requestId, "req_1");
      return true;
    });
    assert.equal(seen.length, 1, "not retried");
  } finally {
    server.close();
  }
});

test("a 409 other than conflict is not retried, and a code the library does not know still parses", async () => {
  const { url, seen, server } = await scripted([{ status: 409, body: problem(409, "a_code_from_the_future") }]);
  try {
    await assert.rejects(client(url).payments.capture("pay_x"), (e: unknown) => {
      assert.ok(e instanceof TenderError);
      assert.equal(e.code, "a_code_from_the_future");
      return true;
    });
    assert.equal(seen.length, 1);
  } finally {
    server.close();
  }
});

test("an enum value the library does not know parses and type-checks", async () => {
  const { url, server } = await scripted([{ status: 200, body: { ...REDEMPTION, status: "a_status_from_the_future" } }]);
  try {
    const redemption = await client(url).redemptions.retrieve("rdm_x");
    const status: Redemption["status"] = "a_status_from_the_future";
    assert.equal(redemption.status, status);
  } finally {
    server.close();
  }
});

test("a list is walked across pages by its cursor, with its filters on every page", async () => {
  const page = (ids: string[], next: string | null) => ({ status: 200, body: {
    data: ids.map((id) => ({ ...REDEMPTION, id })), has_more: next !== null, next_cursor: next } });
  const { url, seen, server } = await scripted([page(["a", "b"], "b"), page(["c", "d"], "d"), page(["e"], null)]);
  try {
    const ids: string[] = [];
    for await (const redemption of client(url).redemptions.list({ status: "confirmed", limit: 2 })) {
      ids.push(redemption.id);
    }
    assert.deepEqual(ids, ["a", "b", "c", "d", "e"]);
    assert.deepEqual(seen.map((s) => s.url), [
      "/collect/redemptions?status=confirmed&limit=2",
      "/collect/redemptions?status=confirmed&limit=2&cursor=b",
      "/collect/redemptions?status=confirmed&limit=2&cursor=d",
    ]);
    const first = await client(url).redemptions.list({ limit: 2 });
    assert.equal(first.has_more, false, "awaiting a list gives its first page");
  } finally {
    server.close();
  }
});

test("a Retry-After longer than maxRetryDelayMs raises the 429 at once instead of retrying early", async () => {
  const { url, seen, server } = await scripted([
    { status: 429, body: problem(429, "too_many_requests"), headers: { "Retry-After": "60" } },
    { status: 200, body: REDEMPTION },
  ]);
  try {
    await assert.rejects(client(url).redemptions.retrieve("rdm_x"), (e: unknown) => {
      assert.ok(e instanceof TenderError);
      assert.equal(e.status, 429);
      assert.equal(e.headers.get("Retry-After"), "60");
      return true;
    });
    assert.equal(seen.length, 1, "no retry before the service said it would take one");
  } finally {
    server.close();
  }
});

test("toArray(limit) stops at the limit without fetching the page after it", async () => {
  const page = (ids: string[], next: string | null) => ({ status: 200, body: {
    data: ids.map((id) => ({ ...REDEMPTION, id })), has_more: next !== null, next_cursor: next } });
  const { url, seen, server } = await scripted([page(["a", "b"], "b"), page(["c", "d"], null)]);
  try {
    const two = await client(url).redemptions.list({ limit: 2 }).toArray(2);
    assert.deepEqual(two.map((r) => r.id), ["a", "b"]);
    assert.equal(seen.length, 1, "the limit filled by the first page: no second request");
    assert.deepEqual(await client(url).redemptions.list({ limit: 2 }).toArray(0), []);
    assert.equal(seen.length, 1, "a limit of 0 fetches nothing");
  } finally {
    server.close();
  }
});

test("a signal aborted before the call sends nothing", async () => {
  const { url, seen, server } = await scripted([{ status: 201, body: REDEMPTION }]);
  try {
    const aborted = AbortSignal.abort(new Error("the order was cancelled"));
    await assert.rejects(client(url).redemptions.create({ type: "vouchers.one_voucher", source: { pin: "4136000000000011" } },
      { signal: aborted }), /the order was cancelled/);
    assert.equal(seen.length, 0, "no request left");
  } finally {
    server.close();
  }
});

test("an answer whose body breaks off is retried under the same key, not lost", async () => {
  let calls = 0;
  const seenKeys: (string | null)[] = [];
  const flaky: typeof fetch = async (input, init) => {
    calls++;
    seenKeys.push(new Headers(init?.headers).get("Idempotency-Key"));
    if (calls === 1) {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":"rdm_'));
          controller.error(new TypeError("terminated"));
        },
      });
      return new Response(body, { status: 201, headers: { "Content-Type": "application/json" } });
    }
    return new Response(JSON.stringify(REDEMPTION), { status: 201, headers: { "Content-Type": "application/json" } });
  };
  const redemption = await client("http://127.0.0.1:9", { fetch: flaky }).redemptions.create(
    { type: "vouchers.one_voucher", source: { pin: "4136000000000011" } });
  assert.equal(redemption.id, REDEMPTION.id);
  assert.equal(calls, 2);
  assert.equal(seenKeys[0], seenKeys[1], "the retry carries the first attempt's key");
});
