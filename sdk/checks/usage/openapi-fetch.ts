// As an integrator writes it with openapi-typescript's types and openapi-fetch: the README's session body and a
// redemption, whose `source` is typed by its `type`, and an event narrowed by its `type`.
import createClient from "openapi-fetch";
import type { components, paths, webhooks } from "../openapi-typescript/schema";

const tender = createClient<paths>({ baseUrl: "http://localhost:8080", headers: { Authorization: "Bearer sk_test_x" } });

export async function quickStart(): Promise<string | undefined> {
  // The README's quick start, as written there.
  const { data, error } = await tender.POST("/collect/payment_sessions", {
    body: { amount: 15000, currency: "ZAR", options: { checkout_options: { return_url: "http://localhost:8080/" } } },
  });
  if (error) {
    const code: string | undefined = error.code;
    throw new Error(`${error.status} ${code}`);
  }
  return data.session_url;
}

export async function redeem(pin: string): Promise<components["schemas"]["Redemption"] | undefined> {
  const { data } = await tender.POST("/collect/redemptions", {
    body: { type: "vouchers.one_voucher", source: { pin }, metadata: { order: "A-1" } },
    params: { header: { "Idempotency-Key": "try-1" } },
  });
  if (data?.type === "vouchers.one_voucher" && data.change_voucher) {
    const serial: string = data.change_voucher.serial_number;
    console.log(serial);
  }
  return data;
}

export async function everyPage(): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  for (;;) {
    const { data } = await tender.GET("/collect/redemptions", { params: { query: { limit: 100, cursor } } });
    if (!data) {
      return count;
    }
    count += data.data.length;
    if (!data.has_more || data.next_cursor === null) {
      return count;
    }
    cursor = data.next_cursor;
  }
}

export function describe(event: components["schemas"]["Event"]): string {
  switch (event.type) {
    case "redemption.confirmed":
      return `${event.data.id} ${event.data.status}`;
    case "payment.succeeded":
      return `${event.data.id} ${event.data.amount}`;
    case "obligation.amount_applied":
      return `${event.data.id} ${event.data.amount}`;
    default:
      return event.id;
  }
}

export type RedemptionConfirmedDelivery =
  webhooks["redemption.confirmed"]["post"]["requestBody"] extends { content: { "application/json": infer B } } ? B : never;

export function paymentMethod(details: components["schemas"]["PaymentMethodDetails"]): string {
  return details.type === "card" ? details.card.last4 : details.type;
}
