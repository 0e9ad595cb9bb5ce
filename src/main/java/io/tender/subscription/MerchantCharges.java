package io.tender.subscription;

import io.tender.auth.Caller;
import io.tender.payment.MandateRules;
import org.springframework.stereotype.Component;

import java.time.Clock;
import java.time.LocalDate;
import java.util.function.Predicate;

/**
 * The rules a merchant's charge of a mandate ({@code next_in_series}, decisions §8) is held to, as payments asks them
 * ({@link MandateRules}) before it records or sends anything: the mandate the charge names, locked; its customer's;
 * not a subscription's (which only its subscription charges); then every rule of {@link Mandate#refuseCharge} on
 * today's date in the mandate's zone, over what its charges that did not fail took, those in flight included; and a
 * card that can be charged again. Charges of one mandate queue on its row, so concurrent ones each count the others.
 */
@Component
record MerchantCharges(Mandates mandates, Clock clock) implements MandateRules {

    @Override
    public Allowed allow(Caller caller, Charge charge, Predicate<String> chargeable) {
        Mandate mandate = mandateOf(caller, charge);
        if (!mandate.fixed().customerId().equals(charge.customerId())) {
            throw new SeriesRejection.MethodOfAnotherCustomer(charge.customerId()).thrown();
        }
        if (mandate.fixed().subscriptionId() != null) {
            throw new SeriesRejection.MandateOfSubscription(mandate.id(), mandate.fixed().subscriptionId()).thrown();
        }
        LocalDate today = LocalDate.ofInstant(clock.instant(), mandate.terms().timeZone());
        mandate.refuseCharge(charge.amount(), charge.currency(), today, mandates.taken(mandate, today))
                .ifPresent(r -> {
                    throw r.thrown();
                });
        String paymentMethodId = mandate.fixed().paymentMethodId();
        if (!chargeable.test(paymentMethodId)) {
            throw new SeriesRejection.NoActiveMandate(paymentMethodId).thrown();
        }
        return new Allowed(mandate.id(), paymentMethodId, today);
    }

    /**
     * The mandate the charge names, locked: by {@code mandate_id}, or the active one of {@code payment_method_id}
     * (whose customer must be the charge's). Both given must agree.
     */
    private Mandate mandateOf(Caller caller, Charge charge) {
        String paymentMethodId = charge.paymentMethodId();
        if (paymentMethodId != null && (charge.methodCustomerId() == null
                || !charge.methodCustomerId().equals(charge.customerId()))) {
            throw new SeriesRejection.MethodOfAnotherCustomer(charge.customerId()).thrown();
        }
        if (charge.mandateId() == null) {
            return mandates.lockActiveOf(caller, paymentMethodId)
                    .orElseThrow(() -> new SeriesRejection.NoActiveMandate(paymentMethodId).thrown());
        }
        Mandate mandate = mandates.get(caller, charge.mandateId(), true);
        if (paymentMethodId != null && !paymentMethodId.equals(mandate.fixed().paymentMethodId())) {
            throw new SeriesRejection.MandateOfAnotherMethod(mandate.id(), paymentMethodId).thrown();
        }
        return mandate;
    }
}
