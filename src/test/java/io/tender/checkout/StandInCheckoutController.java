package io.tender.checkout;

import io.tender.checkout.CheckoutSession.PresentationMode;
import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Map;

/**
 * Test-only endpoints standing in for {@code POST /collect/payment_sessions} and {@code …/complete} until Collect's
 * backend lands: they create sessions in {@link StandInCheckoutPayments}. Component scan finds them on the test
 * classpath only.
 */
@Hidden
@RestController
class StandInCheckoutController {

    private final StandInCheckoutPayments payments;

    StandInCheckoutController(StandInCheckoutPayments payments) {
        this.payments = payments;
    }

    record SessionRequest(String merchantName, long amount, String currency, List<String> visibleMethods,
                          String selectedMethod, String presentationMode, Boolean displayPayButton,
                          String paymentMethodSelection, String returnUrl, String phoneNumber, String captureMethod) {
    }

    @PostMapping(value = "/test-only/checkout-sessions", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, String> create(@RequestBody SessionRequest r) {
        var methods = r.visibleMethods() == null ? List.of(PaymentMethodType.values())
                : r.visibleMethods().stream().map(m -> PaymentMethodType.fromWire(m).orElseThrow()).toList();
        var session = payments.create(new StandInCheckoutPayments.Options(
                r.merchantName() == null ? "Acme Coffee" : r.merchantName(), r.amount(),
                r.currency() == null ? "ZAR" : r.currency(), methods,
                r.selectedMethod() == null ? null : PaymentMethodType.fromWire(r.selectedMethod()).orElseThrow(),
                r.presentationMode() == null ? PresentationMode.REDIRECT : PresentationMode.valueOf(r.presentationMode().toUpperCase()),
                r.displayPayButton() == null || r.displayPayButton(), "merchant".equals(r.paymentMethodSelection()),
                r.returnUrl(), r.phoneNumber(), "manual".equals(r.captureMethod())));
        return Map.of("checkout_session_id", session.checkoutSessionId(), "payment_session_id", session.paymentSessionId(),
                "session_url", "/checkout/" + session.checkoutSessionId());
    }

    @PostMapping(value = "/test-only/checkout-sessions/{ps}/complete", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, String> complete(@PathVariable String ps, @RequestBody Map<String, String> body) {
        var session = payments.complete(ps, PaymentMethodType.fromWire(body.get("selected_payment_method")).orElseThrow())
                .orElseThrow();
        return Map.of("state", session.state().name().toLowerCase());
    }
}
