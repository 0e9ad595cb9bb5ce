package io.tender.paymentrequest;

import io.tender.api.Currencies;
import io.tender.api.JsonInput;
import io.tender.billing.CustomerContacts;
import io.tender.payment.CollectSessions;
import io.tender.payment.PaymentMethodType;
import io.tender.payment.PaymentObligations;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A validated {@code POST /collect/payment_requests} body (decisions §7). Every rule a body alone can break is checked
 * here, all at once (one 400 naming each field); what needs the database (the customer, the bill or account, whether
 * mail is configured) is checked when the request is made.
 *
 * @param customerId     billing's customer ({@code bcus_}), or null
 * @param inlineCustomer the customer's details given inline, or null
 * @param target         bill or account, or null; {@code targetReference} its id or external_reference
 * @param visible        the methods offered (wire names), or null for all
 */
record NewPaymentRequest(PaymentRequest.Type type, Long amount, String currency, String description,
                         String externalReference, Instant expiresAt, Map<String, String> metadata, String customerId,
                         PaymentRequest.Customer inlineCustomer, PaymentObligations.Kind target,
                         String targetReference, List<String> visible, String pushPhoneNumber,
                         PaymentRequest.Notify notifyChannels, Instant requestedAt) {

    static final long MAX_AMOUNT = 99_999_999L;
    static final String COUNTRY = "ZA";
    static final Pattern EXTERNAL_REFERENCE = Pattern.compile("^[a-zA-Z0-9_-]+$");
    private static final Pattern CUSTOMER_ID = Pattern.compile("^bcus_[a-f0-9]{24}$");
    private static final Set<String> FIELDS = Set.of("amount", "currency", "type", "push", "description",
            "external_reference", "expires_at", "metadata", "customer", "bill", "account", "visible_payment_methods",
            "notify");

    /**
     * How long a request may live, by type: a link from 5 minutes (a QR code at a till) to 30 days (an invoice),
     * 24 hours by default; a push from 1 to 10 minutes (the customer answers in the app at once), 2 minutes by
     * default.
     */
    enum Lifetime {
        LINK(Duration.ofMinutes(5), Duration.ofDays(30), Duration.ofHours(24), "5 minutes to 30 days"),
        PUSH(Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofMinutes(2), "1 to 10 minutes");

        final Duration min;
        final Duration max;
        final Duration fallback;
        final String words;

        Lifetime(Duration min, Duration max, Duration fallback, String words) {
            this.min = min;
            this.max = max;
            this.fallback = fallback;
            this.words = words;
        }

        static Lifetime of(PaymentRequest.Type type) {
            return type == PaymentRequest.Type.PUSH ? PUSH : LINK;
        }

        boolean allows(Instant expiresAt, Instant now) {
            return !expiresAt.isBefore(now.plus(min)) && !expiresAt.isAfter(now.plus(max));
        }

        String rule() {
            return "must be " + words + " from now for a " + name().toLowerCase() + " request";
        }
    }

    static NewPaymentRequest parse(JsonNode body, Instant now) {
        JsonInput in = JsonInput.body(body).allow(FIELDS);
        String typeWire = in.string("type", false);
        PaymentRequest.Type type = typeWire == null || typeWire.equals("link") ? PaymentRequest.Type.LINK
                : typeWire.equals("push") ? PaymentRequest.Type.PUSH : null;
        in.check(type != null, "type", "must be link or push");
        if (type == null) {
            type = PaymentRequest.Type.LINK;
        }
        PaymentObligations.Named obligation = PaymentObligations.Named.read(in, "account");
        boolean forObligation = obligation != null;
        Long amount = in.integer("amount", !forObligation, 1, MAX_AMOUNT);
        String currency = Currencies.read(in, "currency", !forObligation);
        String description = in.line("description", false, 1, 500);
        String externalReference = in.string("external_reference", false, 1, 255, EXTERNAL_REFERENCE,
                "must match ^[a-zA-Z0-9_-]+$");
        Map<String, String> metadata = in.metadata("metadata");
        Lifetime lifetime = Lifetime.of(type);
        Instant expiresAt = in.timestamp("expires_at", false);
        in.check(expiresAt == null || lifetime.allows(expiresAt, now), "expires_at", lifetime.rule());
        if (expiresAt == null) {
            expiresAt = now.plus(lifetime.fallback);
        }
        String pushPhone = push(in, type);
        List<String> visible = PaymentMethodType.readList(in, "visible_payment_methods");
        if (type == PaymentRequest.Type.PUSH) {
            in.check(visible == null || visible.equals(List.of(PaymentMethodType.CAPITEC_PAY.wire())),
                    "visible_payment_methods", "must be [\"capitec_pay\"] (or absent) for a push request");
            visible = List.of(PaymentMethodType.CAPITEC_PAY.wire());
        }
        String customerId = null;
        PaymentRequest.Customer inline = null;
        if (body != null && body.path("customer").isObject()) {
            inline = inlineCustomer(in, in.object("customer", false));
        } else {
            customerId = in.string("customer", false, 1, 40, CUSTOMER_ID,
                    "must be a customer id (bcus_…) or an object {name, email, phone}");
        }
        PaymentRequest.Notify notify = notify(in);
        in.throwIfInvalid();
        return new NewPaymentRequest(type, amount, currency, description, externalReference, expiresAt, metadata,
                customerId, inline, forObligation ? obligation.kind() : null,
                forObligation ? obligation.reference() : null, visible, pushPhone, notify, now);
    }

    /** {@code push: {provider: "capitec", capitec: {phone_number}}}: required for a push, refused for a link. */
    private static String push(JsonInput in, PaymentRequest.Type type) {
        if (type != PaymentRequest.Type.PUSH) {
            in.check(!in.has("push"), "push", "belongs to a push request (type push)");
            return null;
        }
        JsonInput push = in.object("push", true);
        if (push == null) {
            return null;
        }
        push.allow(Set.of("provider", "capitec"));
        String provider = push.string("provider", true);
        push.check(provider == null || provider.equals("capitec"), "provider", "must be capitec");
        JsonInput capitec = push.object("capitec", true);
        if (capitec == null) {
            return null;
        }
        capitec.allow(Set.of("phone_number"));
        String phone = capitec.line("phone_number", true, 1, 16);
        capitec.check(phone == null || CollectSessions.phoneOfCountry(phone, COUNTRY), "phone_number",
                "must be a South African number in E.164 format, such as +27821234567");
        return phone;
    }

    private static PaymentRequest.Customer inlineCustomer(JsonInput in, JsonInput customer) {
        customer.allow(Set.of("name", "email", "phone"));
        String name = customer.line("name", false, 1, 200);
        String email = CustomerContacts.email(customer, false);
        String phone = CustomerContacts.phone(customer);
        in.check(customer.has("name") || customer.has("email") || customer.has("phone"), "customer",
                "give the customer's name, email or phone");
        return new PaymentRequest.Customer(null, name, email, phone);
    }

    private static PaymentRequest.Notify notify(JsonInput in) {
        JsonInput notify = in.object("notify", false);
        if (notify == null) {
            return PaymentRequest.Notify.NONE;
        }
        notify.allow(Set.of("email", "sms"));
        Boolean email = notify.bool("email", false);
        Boolean sms = notify.bool("sms", false);
        return new PaymentRequest.Notify(Boolean.TRUE.equals(email), Boolean.TRUE.equals(sms));
    }
}
