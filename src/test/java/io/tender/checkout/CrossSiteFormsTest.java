package io.tender.checkout;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Which form posts count as another site's (decisions §12), header by header. */
class CrossSiteFormsTest {

    private static final CrossSiteForms CONFIGURED = new CrossSiteForms(Optional.of("https://pay.example.com"));
    private static final CrossSiteForms UNSET = new CrossSiteForms(Optional.empty());

    /** A post to {@code http://<host>/…} (as the server sees it) with these headers, name then value. */
    private static MockHttpServletRequest post(String host, String... headers) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/checkout/ckt_x/pay");
        request.setScheme("http");
        request.addHeader("Host", host);
        for (int i = 0; i < headers.length; i += 2) {
            request.addHeader(headers[i], headers[i + 1]);
        }
        return request;
    }

    @Test
    void secFetchSiteDecidesWhenABrowserSendsIt() {
        assertThat(CONFIGURED.from(post("pay.example.com", "Sec-Fetch-Site", "cross-site"))).isTrue();
        assertThat(CONFIGURED.from(post("pay.example.com", "Sec-Fetch-Site", "same-site"))).isTrue();
        assertThat(CONFIGURED.from(post("pay.example.com", "Sec-Fetch-Site", "same-origin"))).isFalse();
        assertThat(CONFIGURED.from(post("pay.example.com", "Sec-Fetch-Site", "none"))).isFalse();
        assertThat(UNSET.from(post("localhost:8080", "Sec-Fetch-Site", "cross-site",
                "Origin", "http://localhost:8080"))).isTrue();
    }

    @Test
    void withoutSecFetchSiteAnOriginOtherThanThePublicBaseUrlsIsAnotherSite() {
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "https://pay.example.com"))).isFalse();
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "https://PAY.example.com:443"))).isFalse();
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "https://evil.example"))).isTrue();
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "http://pay.example.com"))).isTrue();
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "https://pay.example.com:8443"))).isTrue();
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "https://pay.example.com.evil.example"))).isTrue();
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "not an origin"))).isTrue();
        // The request's Host is never our origin while a public base URL is set: a forged one changes nothing.
        assertThat(CONFIGURED.from(post("evil.example", "Origin", "http://evil.example"))).isTrue();
    }

    @Test
    void withoutAPublicBaseUrlTheOwnOriginIsTheRequestsSchemeAndHost() {
        assertThat(UNSET.from(post("localhost:8080", "Origin", "http://localhost:8080"))).isFalse();
        assertThat(UNSET.from(post("localhost:8080", "Origin", "http://127.0.0.1:8080"))).isTrue();
        assertThat(UNSET.from(post("localhost:8080", "Origin", "https://localhost:8080"))).isTrue();
        assertThat(UNSET.from(post("localhost:8080", "Origin", "https://evil.example"))).isTrue();
    }

    @Test
    void withNeitherHeaderOrWithOriginNullThePostIsLeftToTheFormsToken() {
        // Origin: null is what a browser sends for a page's own form under Referrer-Policy: no-referrer.
        assertThat(CONFIGURED.from(post("pay.example.com"))).isFalse();
        assertThat(CONFIGURED.from(post("pay.example.com", "Origin", "null"))).isFalse();
        assertThat(UNSET.from(post("localhost:8080"))).isFalse();
    }
}
