package io.tender.checkout;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.JsonInput;
import io.tender.payment.PaymentMethodType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.Set;

/**
 * The checkout's application API as JSON over HTTP, for tests and tooling that drive a packaged service (the crash
 * test): off unless {@code tender.checkout.json-api=true}. The hosted checkout pages (milestone 2) call
 * {@link Checkout} in-process instead. Like the pages it takes no API key: the unguessable {@code ckt_} id is the
 * credential. The card travels in the request body only, which is never logged.
 */
@RestController
@Hidden
@ConditionalOnProperty(name = "tender.checkout.json-api", havingValue = "true")
record CheckoutJsonController(Checkout checkout) {
    @PostMapping(value = "/checkout-api/{checkout}/attempts", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Checkout.Attempt> attempt(@PathVariable String checkout, @RequestBody(required = false) JsonNode body,
                                             jakarta.servlet.http.HttpServletRequest request) {
        JsonInput in = JsonInput.body(body).allow(Set.of("method", "card_number", "exp_month", "exp_year",
                "security_code", "bank", "phone_number"));
        String method = in.string("method", true);
        String number = in.string("card_number", false);
        Long month = in.integer("exp_month", false, 1, 12);
        Long year = in.integer("exp_year", false, 0, 9999);
        String code = in.string("security_code", false);
        String bank = in.string("bank", false);
        String phone = in.string("phone_number", false);
        in.throwIfInvalid();
        PaymentMethodType type = PaymentMethodType.fromWire(method).orElseThrow(() ->
                io.tender.api.ApiException.badRequest("method", "must be one of " + String.join(", ", PaymentMethodType.WIRE)));
        Checkout.Attempt attempt = switch (type) {
            case CARD -> this.checkout.payByCard(checkout, number, month == null ? 0 : month.intValue(),
                    year == null ? 0 : year.intValue(), code,
                    new Checkout.Client(request.getRemoteAddr(), request.getHeader("User-Agent")));
            case PAY_BY_BANK -> this.checkout.payByBank(checkout, bank);
            case CAPITEC_PAY, MOBILE_MONEY -> this.checkout.payByPhone(checkout, type, phone);
        };
        return ResponseEntity.status(HttpStatus.CREATED).body(attempt);
    }

    @GetMapping(value = "/checkout-api/{checkout}/attempt", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Checkout.Attempt> latest(@PathVariable String checkout) {
        return ResponseEntity.of(this.checkout.attempt(checkout));
    }
}
