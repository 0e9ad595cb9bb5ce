package io.tender.checkout;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The service's own root page, {@code /}. A developer trying the checkout often gives a {@code return_url} on Tender
 * itself ({@code http://localhost:8080/}); the customer who paid then lands here and reads the outcome the checkout
 * added to the URL, instead of a 404 that looks like a failed payment. The page says that this outcome is only what
 * the URL claims: anyone can edit it, so a shop confirms it through the API or a webhook. Only a well-formed session
 * id and a known outcome are shown back; anything else is ignored.
 */
@Hidden
@Controller
class ReturnLandingController {

    private static final Pattern SESSION_ID = Pattern.compile("ps_[0-9a-f]{24,32}");
    /** What {@code outcome} the checkout adds to {@code return_url}, in words. */
    private static final Map<String, String> OUTCOMES = Map.of(
            "paid", "The payment succeeded.",
            "reserved", "The payment was authorised: the money is reserved until it is captured or voided.",
            "failed", "The payment did not go through.",
            "cancelled", "The customer cancelled the payment.",
            "expired", "The payment session expired before it was paid.",
            "pending", "The payment is still being confirmed.",
            "not_started", "No payment was made.");

    @GetMapping(value = "/", produces = MediaType.TEXT_HTML_VALUE)
    String landing(@RequestParam(name = "payment_session", required = false) String paymentSession,
                   @RequestParam(required = false) String outcome, Model model, HttpServletResponse response) {
        CheckoutHeaders.strict(response);
        boolean returned = paymentSession != null && SESSION_ID.matcher(paymentSession).matches()
                && outcome != null && OUTCOMES.containsKey(outcome);
        model.addAttribute("returned", returned);
        if (returned) {
            model.addAttribute("paymentSession", paymentSession);
            model.addAttribute("outcome", outcome);
            model.addAttribute("outcomeText", OUTCOMES.get(outcome));
        }
        return "checkout/landing";
    }
}
