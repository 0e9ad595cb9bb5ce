// The hand-written part every generated resource method goes through: the HTTP call with its key, version and
// idempotency key, retries with backoff, problem errors, and pagination. Only what every runtime has: fetch,
// AbortController, crypto.randomUUID, setTimeout.
import { API_VERSION } from "./generated/models.js";
import { TenderConnectionError, TenderError } from "./errors.js";

export interface ClientOptions {
  /** A secret key: `sk_test_…` (test mode) or `sk_…` (live mode). */
  apiKey: string;
  /** The service's base URL, without a trailing path. Default: `http://localhost:8080` (what `./tender` serves). */
  baseUrl?: string;
  /** How many times a request is retried after a network error, a `409 conflict`, a 429 or a 5xx. Default: 3. */
  maxRetries?: number;
  /** Per attempt, in milliseconds. Default: 60 000. */
  timeoutMs?: number;
  /** The first retry's pause before jitter, in milliseconds; each retry doubles it, up to `maxRetryDelayMs`. Default: 500. */
  retryDelayMs?: number;
  /** The longest pause between attempts, in milliseconds; a longer `Retry-After` raises at once. Default: 20 000. */
  maxRetryDelayMs?: number;
  /** Another fetch (a test's, a proxy's). Default: the runtime's global fetch. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  /** The `Idempotency-Key` of a POST or PATCH. Default: a random UUID made once per call and reused by its retries. */
  idempotencyKey?: string;
  /** Overrides the client's `maxRetries` for this call. */
  maxRetries?: number;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
  /** Cancels the call, its retries included. */
  signal?: AbortSignal;
  /** More headers for this call. */
  headers?: Record<string, string>;
}

/** `If-Match: <version>` for the operations that take it: acts only on the version you last saw. */
export interface IfMatch {
  ifMatch?: string | number;
}

export interface Call {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  path: string;
  query?: object;
  body?: unknown;
  /** Whether the call carries an Idempotency-Key (every POST and PATCH, and a DELETE whose operation takes one). */
  idempotencyKey: boolean;
  expect: "json" | "text" | "bytes" | "none";
}

/** Statuses retried whatever the method: the request did not run, or its key is free again (decisions §1). */
function retryable(status: number, code: string | undefined): boolean {
  return (status === 409 && code === "conflict") || status === 429 || status >= 500;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export class HttpClient {
  readonly baseUrl: string;
  readonly maxRetries: number;
  private readonly apiKey: string;
  private readonly timeoutMs: number;
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ClientOptions) {
    if (!options || typeof options.apiKey !== "string" || options.apiKey.length === 0) {
      throw new Error("Tender needs an apiKey (sk_test_… or sk_…)");
    }
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl ?? "http://localhost:8080").replace(/\/+$/, "");
    this.maxRetries = options.maxRetries ?? 3;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 20_000;
    this.fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /**
   * The pause before retry number `retry` (1-based): exponential, with full jitter over its upper half, never below
   * `Retry-After` (which `send` has kept within maxRetryDelayMs).
   */
  private backoff(retry: number, retryAfter: number | undefined): number {
    const exponential = Math.min(this.maxRetryDelayMs, this.retryDelayMs * 2 ** (retry - 1));
    const jittered = exponential / 2 + Math.random() * (exponential / 2);
    return Math.min(this.maxRetryDelayMs, Math.max(jittered, retryAfter ?? 0));
  }

  url(path: string, query?: object): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined || value === null) continue;
      for (const one of Array.isArray(value) ? value : [value]) {
        url.searchParams.append(name, one instanceof Date ? one.toISOString() : String(one));
      }
    }
    return url.toString();
  }

  async send<T>(call: Call, options: RequestOptions & IfMatch = {}): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.apiKey}`,
      "Tender-Version": API_VERSION,
      Accept: call.expect === "json" ? "application/json, application/problem+json" : "*/*",
      ...options.headers,
    };
    if (call.body !== undefined) headers["Content-Type"] = "application/json";
    if (call.idempotencyKey) headers["Idempotency-Key"] = options.idempotencyKey ?? crypto.randomUUID();
    if (options.ifMatch !== undefined) headers["If-Match"] = String(options.ifMatch);
    const url = this.url(call.path, call.query);
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    const maxRetries = options.maxRetries ?? this.maxRetries;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      let answer: Uint8Array;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new Error("timed out")), options.timeoutMs ?? this.timeoutMs);
      const onAbort = () => timeout.abort(options.signal?.reason);
      options.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        // A signal aborted before this attempt sends nothing (its abort event has fired already).
        options.signal?.throwIfAborted();
        response = await this.fetchImpl(url, { method: call.method, headers, body, signal: timeout.signal });
        // The body is part of the answer: a stall or reset while it streams is no answer, retried under the same key.
        answer = new Uint8Array(await response.arrayBuffer());
      } catch (cause) {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        if (options.signal?.aborted) throw cause;
        if (attempt < maxRetries) {
          await sleep(this.backoff(attempt + 1, undefined), options.signal);
          continue;
        }
        throw new TenderConnectionError(`${call.method} ${call.path}: no answer after ${attempt + 1} attempts`, cause);
      }
      try {
        if (response.ok) {
          return decode(answer, call.expect) as T;
        }
        const error = TenderError.of(response.status, response.headers, new TextDecoder().decode(answer));
        const retryAfter = retryAfterMs(response.headers.get("Retry-After"));
        // A wait longer than maxRetryDelayMs surfaces as the error (a long rate-limit wait is the caller's to know
        // of), never as a retry sent before the service said it would take one.
        if (retryable(error.status, error.code) && attempt < maxRetries && (retryAfter ?? 0) <= this.maxRetryDelayMs) {
          await sleep(this.backoff(attempt + 1, retryAfter), options.signal);
          continue;
        }
        throw error;
      } finally {
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
      }
    }
  }
}

function decode(answer: Uint8Array, expect: Call["expect"]): unknown {
  switch (expect) {
    case "json": {
      const text = new TextDecoder().decode(answer);
      return text.length === 0 ? undefined : JSON.parse(text);
    }
    case "text":
      return new TextDecoder().decode(answer);
    case "bytes":
      return answer;
    case "none":
      return undefined;
  }
}

/** A list page as the API answers it. */
export interface ListEnvelope<T> {
  data: T[];
  has_more: boolean;
  next_cursor?: string | null;
}

/**
 * What a list method returns: `await` it for the first page, or iterate it (`for await`) for every item of every
 * page, fetched one page at a time as the loop reaches it.
 */
export class ListPage<T, L extends ListEnvelope<T> = ListEnvelope<T>> implements PromiseLike<L>, AsyncIterable<T> {
  private first?: Promise<L>;

  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<L>) {}

  private firstPage(): Promise<L> {
    this.first ??= this.fetchPage(undefined);
    return this.first;
  }

  then<R1 = L, R2 = never>(onFulfilled?: ((value: L) => R1 | PromiseLike<R1>) | null,
                           onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null): Promise<R1 | R2> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  /** Every page, in order: the first, then each `next_cursor`'s, until `has_more` is false. */
  async *pages(): AsyncGenerator<L> {
    let page = await this.firstPage();
    for (;;) {
      yield page;
      if (!page.has_more || !page.next_cursor) return;
      page = await this.fetchPage(page.next_cursor);
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) {
      yield* page.data;
    }
  }

  /** Every item into an array, at most `limit` of them (stops fetching pages once it has them). */
  async toArray(limit = Infinity): Promise<T[]> {
    const items: T[] = [];
    if (limit <= 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}

/** What every generated resource extends. */
export class Resource {
  constructor(protected readonly client: HttpClient) {}

  protected request<T>(call: Call, options: RequestOptions & IfMatch): Promise<T> {
    return this.client.send<T>(call, options);
  }

  protected paginate<T, L extends ListEnvelope<T>>(path: string, params: object, options: RequestOptions): ListPage<T, L> {
    return new ListPage<T, L>((cursor) => this.client.send<L>({
      method: "GET",
      path,
      query: cursor === undefined ? params : { ...params, cursor },
      idempotencyKey: false,
      expect: "json",
    }, options));
  }
}
