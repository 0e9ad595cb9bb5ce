package io.tender.checkout;

import io.tender.api.ApiException;
import io.tender.api.FieldError;
import io.tender.api.ProblemCode;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

import java.util.ArrayList;
import java.util.List;

import static io.tender.api.ApiException.invalidState;

/** The checkout's web edge: the problem each {@link CheckoutRejection} answers (its JSON API's answer). */
@Component
class CheckoutProblems implements RejectionProblems<CheckoutRejection> {

    @Override
    public ApiException problem(CheckoutRejection rejection) {
        return switch (rejection) {
            case CheckoutRejection.CheckoutNotFound r ->
                    new ApiException(ProblemCode.RESOURCE_NOT_FOUND, "No such checkout.");
            case CheckoutRejection.CardDetailsInvalid r -> ApiException.badRequest(cardErrors(r));
            case CheckoutRejection.BankNotChosen r -> ApiException.badRequest("bank", "choose your bank");
            case CheckoutRejection.NotPhoneMethod r ->
                    ApiException.badRequest("payment_method", "is not a phone-approved method");
            case CheckoutRejection.PhoneNotOfCountry r -> ApiException.badRequest("phone_number",
                    "must be a phone number of " + r.country() + " in international format, such as +27821234567");
            case CheckoutRejection.MethodNotOffered r ->
                    ApiException.badRequest("payment_method", "is not offered by this payment session");
            case CheckoutRejection.NotWaitingForPage r -> invalidState("The payment is not waiting for this page.");
        };
    }

    private static List<FieldError> cardErrors(CheckoutRejection.CardDetailsInvalid r) {
        List<FieldError> errors = new ArrayList<>();
        if (r.number()) {
            errors.add(new FieldError("card_number", "is not a valid card number"));
        }
        if (r.expiry()) {
            errors.add(new FieldError("expiry_date", "must be a month in the future"));
        }
        if (r.securityCode()) {
            errors.add(new FieldError("security_code", "must be 3 or 4 digits"));
        }
        return errors;
    }
}
