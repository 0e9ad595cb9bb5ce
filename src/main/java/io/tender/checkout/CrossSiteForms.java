package io.tender.checkout;

import io.tender.payment.PublicBase;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Whether a form post to a public page (the hosted checkout's, a payment page's) came from another site's page: such a
 * post is refused (403) whatever token it carries (decisions §12).
 * <ol>
 *   <li>{@code Sec-Fetch-Site}, which every current browser sends: anything but {@code same-origin} or {@code none}
 *   (typed or bookmarked) is another site.</li>
 *   <li>Without it (an older browser), {@code Origin}: present and not this service's own origin is another site.
 *   The own origin is that of {@code tender.public-base-url} when it is set, never the request's {@code Host}, so a
 *   forged {@code Host} cannot make another site's origin ours. When it is unset (a developer's machine, whose pages
 *   are on {@code http://localhost:<port>}), it is the request's own scheme and {@code Host} as the server sees them:
 *   a browser cannot be made to send another site's {@code Host}, and whoever sends the request themselves can send any
 *   {@code Origin} anyway. {@code Origin: null} counts as absent: it is what a browser sends for a page's own form when
 *   the page has {@code Referrer-Policy: no-referrer}, as every page here has.</li>
 *   <li>Without either (curl, scripts, very old browsers), the post is left to the form's token, which only a page of
 *   this service can have read.</li>
 * </ol>
 */
@Component
public class CrossSiteForms {

    private final Optional<String> ownOrigin;

    @Autowired
    CrossSiteForms(PublicBase publicBase) {
        this(publicBase.configured());
    }

    /** With the configured public base URL, or empty when there is none. */
    CrossSiteForms(Optional<String> publicBaseUrl) {
        this.ownOrigin = publicBaseUrl.flatMap(CrossSiteForms::origin);
    }

    /** Whether the post came from another site's page. */
    public boolean from(HttpServletRequest request) {
        String site = request.getHeader("Sec-Fetch-Site");
        if (site != null) {
            return !site.equals("same-origin") && !site.equals("none");
        }
        String origin = request.getHeader("Origin");
        if (origin == null || origin.equals("null")) {
            return false;
        }
        Optional<String> own = ownOrigin.or(() -> origin(request.getScheme() + "://" + request.getHeader("Host")));
        return !origin(origin).equals(own) || own.isEmpty();
    }

    /** {@code scheme://host[:port]} in lower case, without the scheme's default port; empty for anything else. */
    static Optional<String> origin(String url) {
        try {
            URI uri = new URI(url.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                return Optional.empty();
            }
            int port = uri.getPort();
            boolean defaultPort = port == -1 || (scheme.equals("https") && port == 443)
                    || (scheme.equals("http") && port == 80);
            return Optional.of(scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
