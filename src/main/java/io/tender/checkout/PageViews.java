package io.tender.checkout;

import io.tender.api.ApiException;
import io.tender.ratelimit.RateLimits;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.stereotype.Component;
import org.springframework.ui.Model;

import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The limits on requests of public pages by their id (decisions §12, §13), in the order that keeps a refusal from
 * saying anything about the id: while the client address is over its budget of ids that do not exist, every request
 * from it is refused before its id is looked up; an id that does not exist costs the address a token; a page or
 * checkout that exists is limited per address and id, generously, so that payers behind one address (a mobile
 * network's carrier-grade NAT) all reach it. A refusal is the "too many requests" page, 429 with {@code Retry-After}
 * and the {@code RateLimit} fields, naming nothing the id could have opened.
 */
@Component
public class PageViews {

    static final String TOO_MANY = "checkout/too-many";

    private final RateLimits limits;

    PageViews(RateLimits limits) {
        this.limits = limits;
    }

    /**
     * The view for a request of a public page by its id, rendered as HTML: {@code page} of what {@code find} found,
     * {@code unknown} if it found nothing, or over a limit the too-many page (its status and headers set here).
     */
    public <T> String render(String id, Function<String, Optional<T>> find, HttpServletRequest request,
                             HttpServletResponse response, Model model, Supplier<String> unknown,
                             Function<T, String> page) {
        return look(id, find, request, refused -> {
            CheckoutHeaders.strict(response);
            response.setStatus(refused.status());
            refused.headers().forEach(response::setHeader);
            model.addAttribute("retryAfter", refused.headers().get("Retry-After"));
            return TOO_MANY;
        }, unknown, page);
    }

    /** As {@link #render}, for a request answered with JSON: a refusal is thrown as the API's 429 problem. */
    <T> Optional<T> lookUp(String id, Function<String, Optional<T>> find, HttpServletRequest request) {
        return look(id, find, request, refused -> {
            throw refused;
        }, Optional::empty, Optional::of);
    }

    private <T, R> R look(String id, Function<String, Optional<T>> find, HttpServletRequest request,
                          Function<ApiException, R> tooMany, Supplier<R> unknown, Function<T, R> page) {
        try {
            limits.refuseIfTryingPageIds(request);
        } catch (ApiException refused) {
            return tooMany.apply(refused);
        }
        Optional<T> found = find.apply(id);
        if (found.isEmpty()) {
            limits.unknownPageId(request);
            return unknown.get();
        }
        try {
            limits.pageView(request, id);
        } catch (ApiException refused) {
            return tooMany.apply(refused);
        }
        return page.apply(found.get());
    }
}
