package io.tender.dashboard;

import org.springframework.web.util.HtmlUtils;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.InetAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A browser-like HTTP client of the dashboard for the tests: it keeps its cookies, follows no redirect, remembers the
 * CSRF token of the last page it was shown (the hidden {@code _csrf} field of its forms), and can connect from
 * another loopback address (127.0.0.x) so the service sees another client.
 */
final class DashboardClient {

    record Page(int status, String body, HttpResponse<String> raw) {
        String header(String name) {
            return raw.headers().firstValue(name).orElse(null);
        }

        List<String> headers(String name) {
            return raw.headers().allValues(name);
        }

        String location() {
            return header("Location");
        }

        /** The words of the page's alert (its {@code role="alert"} box) as a reader sees them; null without one. */
        String alert() {
            Matcher alert = ALERT.matcher(body);
            return alert.find() ? HtmlUtils.htmlUnescape(alert.group(1).replaceAll("<[^>]*>", " "))
                    .replaceAll("\\s+", " ").strip() : null;
        }
    }

    private static final Pattern ALERT = Pattern.compile("role=\"alert\"[^>]*>(.*?)</div>", Pattern.DOTALL);

    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\"\\s+value=\"([^\"]+)\"|value=\"([^\"]+)\"\\s+name=\"_csrf\"");

    private final String base;
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http;
    private final Map<String, String> everyRequest = new LinkedHashMap<>();
    private String csrf;

    DashboardClient(String base) {
        this(base, null);
    }

    DashboardClient(String base, String localAddress) {
        this.base = base;
        HttpClient.Builder builder = HttpClient.newBuilder().cookieHandler(cookies)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5));
        if (localAddress != null) {
            try {
                builder.localAddress(InetAddress.getByName(localAddress));
            } catch (IOException e) {
                throw new IllegalArgumentException(e);
            }
        }
        this.http = builder.build();
    }

    /**
     * A new {@code role} of {@code merchant}, made through the admin API, signed in from {@code localAddress} (each
     * test its own address, so the per-address sign-in limit of one never refuses another's) with a password set.
     */
    static DashboardClient member(String base, io.tender.support.Merchants merchants,
                                  io.tender.support.Merchants.Merchant merchant, String role, String localAddress) {
        String email = role + "-" + java.util.UUID.randomUUID().toString().substring(0, 8) + "@example.com";
        var created = merchants.admin().post("/admin/merchants/" + merchant.name() + "/users",
                "{\"email\":\"" + email + "\",\"role\":\"" + role + "\"}").send();
        DashboardClient browser = new DashboardClient(base, localAddress);
        Page accepted = browser.acceptLink(created.json().get("sign_in_url").stringValue(), DashboardSignInIT.PASSWORD);
        if (accepted.status() != 302) {
            throw new IllegalStateException("the sign-in link answered " + accepted.status());
        }
        return browser;
    }

    /**
     * A header sent with every request from now on: {@code X-Forwarded-For} makes the client another address for a
     * service that trusts this loopback proxy ({@code server.forward-headers-strategy=native}), an IPv6 one too.
     */
    DashboardClient always(String header, String value) {
        everyRequest.put(header, value);
        return this;
    }

    Page get(String path, String... headers) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET(), headers);
    }

    /** A form post with the CSRF token of the last page shown, as a browser would send it. */
    Page post(String path, Map<String, String> fields) {
        Map<String, String> withToken = new LinkedHashMap<>(fields);
        if (csrf != null) {
            withToken.put("_csrf", csrf);
        }
        return postExactly(path, withToken);
    }

    /** A form post of exactly these fields: no CSRF token unless one is among them. */
    Page postExactly(String path, Map<String, String> fields, String... headers) {
        String body = fields.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)), headers);
    }

    String csrf() {
        return csrf;
    }

    /** The dashboard session cookie's value, if the client has one. */
    Optional<String> sessionCookie() {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("tender_dashboard"))
                .map(java.net.HttpCookie::getValue).findFirst();
    }

    /** Opens a sign-in link and sets the password on it: the client is then signed in. */
    Page acceptLink(String signInUrl, String password) {
        String path = URI.create(signInUrl).getPath();
        Page form = get(path);
        if (form.status() != 200) {
            throw new IllegalStateException("the link's page answered " + form.status());
        }
        return post(path, Map.of("password", password, "confirmation", password));
    }

    Page signIn(String email, String password) {
        get("/dashboard/sign-in");
        return post("/dashboard/sign-in", Map.of("email", email, "password", password));
    }

    private Page send(HttpRequest.Builder request, String... headers) {
        everyRequest.forEach(request::header);
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            Matcher token = CSRF.matcher(response.body());
            if (token.find()) {
                csrf = token.group(1) != null ? token.group(1) : token.group(2);
            }
            return new Page(response.statusCode(), response.body(), response);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
