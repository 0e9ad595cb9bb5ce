import type { FieldError, ProblemCode } from "./generated/models.js";

export type { ProblemCode };

/**
 * Every failed call raises this: the service's problem (RFC 9457) with its `status`, `code`, `detail`, field
 * `errors` and `request_id` (quote it to support). A body that is not a problem still gives its status.
 */
export class TenderError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly errors: FieldError[];
  readonly requestId: string | undefined;
  readonly type: string | undefined;
  readonly instance: string | undefined;
  /** The answer's headers (`Retry-After`, `Tender-Version`…); empty when there was no answer. */
  readonly headers: Headers;

  constructor(init: { message: string; status: number; code: ProblemCode; title?: string; detail?: string;
    errors?: FieldError[]; requestId?: string; type?: string; instance?: string; headers?: Headers; cause?: unknown }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "TenderError";
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.type = init.type;
    this.instance = init.instance;
    this.headers = init.headers ?? new Headers();
  }

  /** The error of a non-2xx answer already read: its status, headers and body (a problem when it is one). */
  static of(status: number, headers: Headers, text: string): TenderError {
    let problem: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) problem = parsed as Record<string, unknown>;
    } catch {
      // not JSON: a proxy's page, say; the status is all there is
    }
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    const code = str(problem.code) ?? `http_${status}`;
    const detail = str(problem.detail);
    const errors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
    const fields = errors.map((e) => `${e.field}: ${e.message}`).join("; ");
    return new TenderError({
      message: `${status} ${code}${detail ? `: ${detail}` : ""}${fields && !detail?.includes(fields) ? ` (${fields})` : ""}`,
      status: typeof problem.status === "number" ? problem.status : status,
      code,
      title: str(problem.title),
      detail,
      errors,
      requestId: str(problem.request_id) ?? headers.get("Request-Id") ?? undefined,
      type: str(problem.type),
      instance: str(problem.instance),
      headers,
    });
  }
}

/** No answer at all (connection refused or reset, DNS, a timeout) after every retry: `status` 0. */
export class TenderConnectionError extends TenderError {
  constructor(message: string, cause: unknown) {
    super({ message: `${message}: ${cause instanceof Error ? cause.message : String(cause)}`, status: 0, code: "connection_error", cause });
    this.name = "TenderConnectionError";
  }
}

/** A webhook whose signature, timestamp or headers do not verify: never process its body. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}
