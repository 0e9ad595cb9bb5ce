package io.tender.checkout;

import io.tender.api.ApiException;
import io.tender.ratelimit.RateLimits;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import org.springframework.ui.Model;

import java.util.Optional;

/**
 * The per-address limit on requests of public pages by their id (decisions §12): every request of a hosted checkout
 * or payment page takes a token before its id is looked up, found or not, so that nobody tries ids fast. A refusal
 * is the "too many requests" page, 429 with {@code Retry-After} and the {@code RateLimit} fields, naming nothing the
 * id could have opened.
 */
@Component
public class PageViews {

    static final String TOO_MANY = "checkout/too-many";

    private final RateLimits limits;

    PageViews(RateLimits limits) {
        this.limits = limits;
    }

    /** Takes one request from the client address's bucket; over the limit, the view to render instead. */
    public Optional<String> refuse(HttpServletRequest request, HttpServletResponse response, Model model) {
        try {
            limits.pageView(request);
            return Optional.empty();
        } catch (ApiException refused) {
            CheckoutHeaders.strict(response);
            response.setStatus(refused.status());
            refused.headers().forEach(response::setHeader);
            model.addAttribute("retryAfter", refused.headers().get("Retry-After"));
            return Optional.of(TOO_MANY);
        }
    }

    /** As {@link #refuse}, for a request answered with JSON: the refusal is thrown as the API's 429 problem. */
    void take(HttpServletRequest request) {
        limits.pageView(request);
    }
}
