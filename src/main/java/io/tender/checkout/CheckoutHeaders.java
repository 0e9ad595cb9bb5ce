package io.tender.checkout;


import jakarta.servlet.http.HttpServletResponse;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * The protection headers of every checkout page (decisions §6): nothing cached, no referrer, and a
 * Content-Security-Policy that allows only this origin's own script and style. Redirect-mode pages may not be framed
 * at all; an embedded session may be framed only by the origin of its {@code return_url}, the merchant page that
 * mounts it (and the page posts its outcome to that origin only).
 */
public final class CheckoutHeaders {

    private static final String BASE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; ";

    private CheckoutHeaders() {
    }

    /**
     * Headers for a page with no session behind it (an unknown id, a payment page): nothing may frame it, and its
     * forms post only to this origin.
     */
    public static void strict(HttpServletResponse response) {
        common(response);
        response.setHeader("Content-Security-Policy", BASE_POLICY + "form-action 'self'; frame-ancestors 'none'");
        response.setHeader("X-Frame-Options", "DENY");
    }

    static void forSession(HttpServletResponse response, CheckoutPage session) {
        common(response);
        Optional<String> merchant = origin(session.returnUrl());
        // A form's redirect counts against form-action: merchant selection sends the customer to return_url after a post.
        // In live mode the pay form's redirect chain ends on the processor's 3-D Secure or bank page, whose origin is
        // known only from its answer (an https URL, checked by the adapter).
        String formAction = "form-action 'self'" + (session.testMode() ? "" : " https:")
                + merchant.map(o -> " " + o).orElse("");
        if (session.presentationMode().embedded() && merchant.isPresent()) {
            response.setHeader("Content-Security-Policy",
                    BASE_POLICY + formAction + "; frame-ancestors " + merchant.get());
        } else {
            response.setHeader("Content-Security-Policy", BASE_POLICY + formAction + "; frame-ancestors 'none'");
            response.setHeader("X-Frame-Options", "DENY");
        }
    }

    private static void common(HttpServletResponse response) {
        response.setHeader("Cache-Control", "no-store");
        response.setHeader("Referrer-Policy", "no-referrer");
        response.setHeader("X-Content-Type-Options", "nosniff");
    }

    /** The origin ({@code scheme://host[:port]}) of an absolute http(s) URL, or empty. */
    static Optional<String> origin(String url) {
        if (url == null) {
            return Optional.empty();
        }
        try {
            URI uri = URI.create(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                return Optional.empty();
            }
            return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT)
                    + (uri.getPort() == -1 ? "" : ":" + uri.getPort()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
