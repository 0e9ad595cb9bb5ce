// Tender's client: one per key, its resources by name (generated from the OpenAPI document), webhooks verification.
import { HttpClient, type ClientOptions } from "./core.js";
import { resources } from "./generated/resources.js";
import { Webhooks } from "./webhooks.js";

export { API_VERSION, EVENT_TYPES } from "./generated/models.js";
export type * from "./generated/models.js";
export type { components, operations, paths, webhooks as webhookOperations } from "./generated/schema.js";
export { OPERATIONS } from "./generated/resources.js";
export { ListPage, retryAfterMs, type ClientOptions, type RequestOptions, type IfMatch, type ListEnvelope } from "./core.js";
export { TenderError, TenderConnectionError, WebhookVerificationError, type ProblemCode } from "./errors.js";
export { verify as verifyWebhook, sign as signWebhook, type WebhookHeaders, type VerifyOptions } from "./webhooks.js";

type Resources = ReturnType<typeof resources>;

/** Declaration merging: the generated resources are members of every client. */
export interface Tender extends Resources {}

export class Tender {
  /** Standard Webhooks verification of a delivery: `await tender.webhooks.verify(rawBody, headers, secret)`. */
  readonly webhooks = new Webhooks();
  readonly baseUrl: string;

  constructor(options: ClientOptions) {
    const http = new HttpClient(options);
    this.baseUrl = http.baseUrl;
    Object.assign(this, resources(http));
  }
}

export default Tender;
