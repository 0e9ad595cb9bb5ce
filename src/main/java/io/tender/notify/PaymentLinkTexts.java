package io.tender.notify;

import io.tender.api.Currencies;
import io.tender.auth.Mode;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** The words of a payment link, shared by the email and the SMS so that both say the same. */
final class PaymentLinkTexts {

    /** An SMS stays short: a longer description is cut. */
    static final int SMS_DESCRIPTION = 60;

    private static final DateTimeFormatter EXPIRY =
            DateTimeFormatter.ofPattern("d MMMM uuuu, HH:mm 'UTC'", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private PaymentLinkTexts() {
    }

    static String amount(PaymentLinkMessage m) {
        return Currencies.display(m.amount(), m.currency());
    }

    static String expiry(Instant expiresAt) {
        return expiresAt == null ? null : EXPIRY.format(expiresAt);
    }

    static boolean test(PaymentLinkMessage m) {
        return m.mode() == Mode.TEST;
    }

    /** {@code Shop asks you to pay ZAR 150.00}, marked in test mode so nobody takes a sandbox request for real. */
    static String subject(PaymentLinkMessage m) {
        return (test(m) ? "[Test] " : "") + m.merchantName() + " asks you to pay " + amount(m);
    }

    static String emailText(PaymentLinkMessage m) {
        var text = new StringBuilder();
        text.append(m.recipientName() == null ? "Hello," : "Hello " + m.recipientName() + ",").append("\n\n");
        text.append(m.merchantName()).append(" asks you to pay ").append(amount(m)).append(".\n");
        if (m.description() != null) {
            text.append("For: ").append(m.description()).append('\n');
        }
        if (m.expiresAt() != null) {
            text.append("Pay by ").append(expiry(m.expiresAt())).append(".\n");
        }
        text.append("\nPay here: ").append(m.url()).append("\n\n");
        if (test(m)) {
            text.append("This is a test-mode request: paying it moves no real money.\n\n");
        }
        text.append("If you did not expect this request, you can ignore this email.\n");
        return text.toString();
    }

    static String sms(PaymentLinkMessage m) {
        var text = new StringBuilder(test(m) ? "[Test] " : "");
        text.append(m.merchantName()).append(" asks you to pay ").append(amount(m));
        if (m.description() != null) {
            String d = m.description();
            text.append(" for ").append(d.length() > SMS_DESCRIPTION ? d.substring(0, SMS_DESCRIPTION - 1) + "…" : d);
        }
        if (m.expiresAt() != null) {
            text.append(" by ").append(expiry(m.expiresAt()));
        }
        return text.append(": ").append(m.url()).toString();
    }
}
