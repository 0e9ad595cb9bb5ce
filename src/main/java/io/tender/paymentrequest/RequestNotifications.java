package io.tender.paymentrequest;

import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.auth.Caller;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

/** TEMPORARY until h-notify is merged: refuses notify. */
@Component
class RequestNotifications {

    void check(Caller caller, PaymentRequest.Customer customer, PaymentRequest.Notify notify) {
        List<FieldError> errors = new ArrayList<>();
        if (notify.email() && (customer == null || customer.email() == null)) {
            errors.add(new FieldError("notify.email", "needs the customer's email (customer.email, or a billing "
                    + "customer with one)"));
        }
        if (notify.sms() && (customer == null || customer.phone() == null)) {
            errors.add(new FieldError("notify.sms", "needs the customer's phone (customer.phone, or a billing "
                    + "customer with one)"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest(errors);
        }
        if (notify.email() || notify.sms()) {
            throw ApiException.notPossible("not yet");
        }
    }

    void enqueue(Caller caller, PaymentRequest request, String link) {
    }
}
