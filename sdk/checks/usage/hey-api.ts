// As an integrator writes it with hey-api's SDK functions: the README's session body, a redemption and a list.
import { client } from "../hey-api/client.gen";
import { createPaymentSession, createRedemption, listRedemptions } from "../hey-api/sdk.gen";
import type { Event, PaymentMethodDetails } from "../hey-api/types.gen";

client.setConfig({ baseUrl: "http://localhost:8080", headers: { Authorization: "Bearer sk_test_x" } });

export async function quickStart(): Promise<string | undefined> {
  const { data } = await createPaymentSession({
    body: { amount: 15000, currency: "ZAR", options: { checkout_options: { return_url: "http://localhost:8080/" } } },
  });
  return data?.session_url;
}

export async function redeem(pin: string): Promise<string | undefined> {
  const { data } = await createRedemption({
    body: { type: "vouchers.one_voucher", source: { pin } },
    headers: { "Idempotency-Key": "try-1" },
  });
  return data?.id;
}

export async function firstPage(): Promise<number> {
  const { data } = await listRedemptions({ query: { limit: 10 } });
  return data ? data.data.length : 0;
}

export function describe(event: Event): string {
  return event.type === "refund.succeeded" ? `${event.data.id} ${event.data.amount}` : event.id;
}

export function last4(details: PaymentMethodDetails): string | undefined {
  return details.type === "card" ? details.card.last4 : undefined;
}
