// What the tests against a running service share: where it is, fresh sandbox vouchers, and paying a hosted checkout
// over HTTP as a browser does (the page's form, with its CSRF token).
import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import Tender, { type ClientOptions } from "@tender/sdk";

export const BASE_URL = process.env.TENDER_BASE_URL ?? "";
export const API_KEY = process.env.TENDER_API_KEY ?? "";

/** The service under test; fails (never skips) without one, so a run without it cannot pass silently. */
export function service(options: Partial<ClientOptions> = {}): Tender {
  assert.ok(BASE_URL && API_KEY.startsWith("sk_test_"),
    "set TENDER_BASE_URL and TENDER_API_KEY (a test secret key, sk_test_…) to a running service (sdk/typescript/README.md)");
  return new Tender({ apiKey: API_KEY, baseUrl: BASE_URL, ...options });
}

/** A one_voucher PIN no run has used: 16 digits, ending in 1 (the sandbox's unused voucher, worth ZAR 100.00). */
export function freshPin(): string {
  return "4" + String(Date.now()).slice(-11) + String(randomInt(1000)).padStart(3, "0") + "1";
}

/** What a browser does with a session's checkout page: loads it, and posts its card form with the page's token. */
export async function payByCard(sessionUrl: string, card = "4242424242424242"): Promise<void> {
  const path = new URL(sessionUrl).pathname;
  const page = await fetch(BASE_URL + path);
  assert.equal(page.status, 200, `the checkout page ${path}`);
  const html = await page.text();
  const token = html.match(/name="_csrf" value="([^"]+)"/)?.[1];
  assert.ok(token, "the checkout page's form has a CSRF token");
  const form = new URLSearchParams({ _csrf: token, method: "card", card_number: card, expiry: "12/34", security_code: "123" });
  const posted = await fetch(`${BASE_URL}${path}/pay`, {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { "Sec-Fetch-Site": "same-origin" },
  });
  assert.equal(posted.status, 302, `the card form was accepted: ${posted.status} ${await posted.text()}`);
}

/** Asks until `done` says yes, at most `seconds`. */
export async function eventually<T>(what: string, ask: () => Promise<T>, done: (value: T) => boolean, seconds = 30): Promise<T> {
  const until = Date.now() + seconds * 1000;
  for (;;) {
    const value = await ask();
    if (done(value)) return value;
    if (Date.now() > until) assert.fail(`${what}: not within ${seconds} s; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A fetch that records each answer's status and problem code, for tests that prove what the client retried. */
export function recordingFetch(): { fetch: typeof fetch; answers: { status: number; code?: string; key?: string }[] } {
  const answers: { status: number; code?: string; key?: string }[] = [];
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const headers = new Headers(init?.headers);
    const code = response.status >= 400 ? (await response.clone().json().catch(() => ({})) as { code?: string }).code : undefined;
    answers.push({ status: response.status, code, key: headers.get("Idempotency-Key") ?? undefined });
    return response;
  };
  return { fetch: recording, answers };
}
