package io.tender.notify;

import io.tender.auth.Mode;

import java.time.Instant;

/**
 * What a payer is sent: who asks ({@code merchantName}), to whom ({@code recipientName}, may be null; {@code email}
 * for {@link Channel#EMAIL}, {@code phone} in E.164 for {@link Channel#SMS}), the link to pay at ({@code url}, whose
 * last path segment is the secret {@code ckt_} id), the amount in minor units, and what it is for ({@code description},
 * may be null) until when ({@code expiresAt}, may be null).
 */
public record PaymentLinkMessage(String merchantName, String recipientName, String email, String phone, String url,
                                 long amount, String currency, String description, Instant expiresAt, Mode mode) {
}
