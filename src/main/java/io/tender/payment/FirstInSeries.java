package io.tender.payment;

import io.tender.auth.Mode;
import io.tender.outbox.Outbox;

import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the success of a {@code first_in_series} session's payment starts (decisions §8): its mandate, and its
 * subscription for {@code subscription_options}. The module owning them implements this; payments call it in the
 * transaction that records the success, after the card was saved with the processor's token, so that everything
 * commits together. Once only: the session completes once.
 */
public interface FirstInSeries {

    /**
     * The first payment: whose it is, the card it saved (the mandate charges it later), the session's terms and the
     * customer's acceptance of them (null when none was recorded), and the session's metadata.
     */
    record FirstPayment(String paymentId, String merchantId, Mode mode, String customerId, String currency,
                        String paymentMethodId, Map<String, Object> paymentMethodDetails, SeriesTerms.Options terms,
                        Acceptance acceptance, Map<String, String> metadata) {
    }

    /**
     * What it started: the mandate (and subscription, or null), the first payment's date in the mandate's zone (it is
     * the mandate's first charge), and their events, each rendered when the payment and its session are written,
     * after theirs.
     */
    record Enrolled(String mandateId, String subscriptionId, LocalDate firstChargeDate,
                    List<Supplier<Outbox.Event>> events) {
    }

    Enrolled enrol(FirstPayment first);
}
