package io.tender.paymentpage;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import tools.jackson.databind.JsonNode;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the payment page tests do again and again: pages made over the API, and a payer's browser as a plain
 * form-posting client (GET the page, read its CSRF token, POST the form, follow the redirect to the checkout), paying
 * through the checkout's application API.
 */
final class Pages {

    static final int EXP_YEAR = YearMonth.now().getYear() + 2;
    private static final Pattern CSRF = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");

    final Api api;
    final Api visitor;
    final Checkout checkout;

    Pages(Api api, Api visitor, Checkout checkout) {
        this.api = api;
        this.visitor = visitor;
        this.checkout = checkout;
    }

    static JsonNode expect(int status, Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        return response.json();
    }

    /** A page of {@code members} (JSON members without braces); expects 201. */
    JsonNode create(String members) {
        return expect(201, api.post("/collect/payment_pages", "{" + members + "}").send());
    }

    /** A ZAR page where the payer chooses 10.00 to 1000.00, presets 50.00 and 100.00, with the payer's details. */
    JsonNode variable(String title, String more) {
        return create("\"title\":\"" + title + "\",\"currency\":\"ZAR\",\"amount_options\":{\"min\":1000,"
                + "\"max\":100000,\"presets\":[5000,10000]}" + (more.isEmpty() ? "" : "," + more));
    }

    JsonNode get(String path) {
        return expect(200, api.get(path).send());
    }

    static String path(JsonNode page) {
        return URI.create(page.get("page_url").stringValue()).getPath();
    }

    /** The page as a browser opens it, and the CSRF token of its form. */
    record Form(String path, String token, Api.Response page) {
    }

    Form open(JsonNode page) {
        return open(visitor, page);
    }

    static Form open(Api visitor, JsonNode page) {
        var response = visitor.get(path(page)).send();
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        Matcher m = CSRF.matcher(response.text());
        assertThat(m.find()).as(response.text()).isTrue();
        return new Form(path(page), m.group(1), response);
    }

    /** Posts the form with these fields (name → value), URL-encoded, as a browser submits it. */
    Api.Response post(Form form, Map<String, String> fields) {
        return post(visitor, form, fields);
    }

    static Api.Response post(Api visitor, Form form, Map<String, String> fields) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("_csrf", form.token());
        all.putAll(fields);
        StringBuilder body = new StringBuilder();
        all.forEach((name, value) -> body.append(body.isEmpty() ? "" : "&").append(encode(name)).append('=')
                .append(encode(value)));
        return visitor.post(form.path(), body.toString()).contentType("application/x-www-form-urlencoded")
                .header("Sec-Fetch-Site", "same-origin").send();
    }

    /** The payer's details a page asks by default. */
    static Map<String, String> payer(String name) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("name", name);
        fields.put("email", name.toLowerCase().replace(' ', '.') + "@example.com");
        fields.put("phone", "082 123 4567");
        return fields;
    }

    /** The checkout session a visit was sent to (a 303 to its session_url). */
    static String checkoutId(Api.Response visit) {
        assertThat(visit.status()).as(visit.toString()).isEqualTo(303);
        String location = visit.header("Location");
        assertThat(location).contains("/checkout/ckt_");
        return location.substring(location.lastIndexOf('/') + 1);
    }

    Checkout.Attempt payByCard(String checkoutSessionId, String number) {
        return checkout.payByCard(checkoutSessionId, number, 12, EXP_YEAR, "123");
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
