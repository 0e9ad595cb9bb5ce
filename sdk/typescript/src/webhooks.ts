// Standard Webhooks verification with the platform's Web Crypto (crypto.subtle), so it runs on Node 20+, Deno, Bun,
// browsers and edge runtimes without a dependency: HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>"
// under the base64 key after `whsec_`, compared with each `v1,<base64>` of `webhook-signature`.
import type { WebhookEvent } from "./generated/models.js";
import { WebhookVerificationError } from "./errors.js";

/** Headers as a `Headers`, or a plain object of lower- or mixed-case names (Node's `req.headers`, a framework's). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far `webhook-timestamp` may be from now, in seconds, either way. Default: 300 (Standard Webhooks). */
  toleranceSeconds?: number;
  /** "Now" in Unix seconds; for tests. */
  now?: number;
}

const encoder = new TextEncoder();

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") {
    return (headers as Headers).get(name) ?? undefined;
  }
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Equal strings in a time that does not depend on where they differ. */
function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

function toBytes(body: string | ArrayBuffer | ArrayBufferView): Uint8Array {
  if (typeof body === "string") return encoder.encode(body);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
}

/** The `v1,<base64>` signature of a message under a `whsec_` secret (what the service sends). */
export async function sign(secret: string, id: string, timestamp: number | string, body: string | ArrayBuffer | ArrayBufferView): Promise<string> {
  const key = await crypto.subtle.importKey("raw", base64ToBytes(secret.replace(/^whsec_/, "")),
    { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const raw = toBytes(body);
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const message = new Uint8Array(prefix.length + raw.length);
  message.set(prefix);
  message.set(raw, prefix.length);
  return `v1,${bytesToBase64(new Uint8Array(await crypto.subtle.sign("HMAC", key, message)))}`;
}

/**
 * Checks a delivery's Standard Webhooks signature over the raw body, exactly as received (not re-serialized JSON),
 * and that its timestamp is within the tolerance; then parses it. Throws `WebhookVerificationError` otherwise.
 * An event type this library does not know still comes back, with its `type` and `data` as sent.
 */
export async function verify(rawBody: string | ArrayBuffer | ArrayBufferView, headers: WebhookHeaders, secret: string,
                             options: VerifyOptions = {}): Promise<WebhookEvent> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature header");
  }
  if (!/^\d+$/.test(timestamp)) {
    throw new WebhookVerificationError("webhook-timestamp is not Unix seconds");
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) {
    throw new WebhookVerificationError(`webhook-timestamp is more than ${tolerance} s from now: a replay, or a wrong clock`);
  }
  if (!secret.startsWith("whsec_")) {
    throw new WebhookVerificationError("the secret is the endpoint's whsec_… signing secret");
  }
  const expected = await sign(secret, id, timestamp, rawBody);
  const matches = signatures.split(" ").filter((s) => s.startsWith("v1,")).some((s) => constantTimeEqual(s, expected));
  if (!matches) {
    throw new WebhookVerificationError("no signature matches: wrong secret, or the body was changed (verify the raw bytes)");
  }
  const text = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(toBytes(rawBody));
  return JSON.parse(text) as WebhookEvent;
}

/** `tender.webhooks`: verification needs no key, so it is the same for every client. */
export class Webhooks {
  verify(rawBody: string | ArrayBuffer | ArrayBufferView, headers: WebhookHeaders, secret: string,
         options?: VerifyOptions): Promise<WebhookEvent> {
    return verify(rawBody, headers, secret, options);
  }

  sign(secret: string, id: string, timestamp: number | string, body: string | ArrayBuffer | ArrayBufferView): Promise<string> {
    return sign(secret, id, timestamp, body);
  }
}
