package io.tender.paymentpage;

import io.tender.api.ApiException;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

/** The payment page module's web edge: the problem each {@link PaymentPageRejection} answers. */
@Component
class PaymentPageProblems implements RejectionProblems<PaymentPageRejection> {

    @Override
    public ApiException problem(PaymentPageRejection rejection) {
        return switch (rejection) {
            case PaymentPageRejection.ExpiryFixed r -> ApiException.invalidState(
                    "The payment page is " + r.status() + "; expires_at can change only while it is active.");
        };
    }
}
