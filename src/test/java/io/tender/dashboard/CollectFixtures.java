package io.tender.dashboard;

import com.google.zxing.NotFoundException;
import com.google.zxing.common.BitMatrix;
import io.tender.checkout.Checkout;
import io.tender.qr.QrReading;
import io.tender.support.Api;
import tools.jackson.databind.JsonNode;

import java.awt.image.BufferedImage;
import java.time.YearMonth;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the Collect dashboard tests make through the API and the sandbox: sessions paid by card, a customer, a paid
 * subscription; and the QR code of an SVG read back to its text.
 */
final class CollectFixtures {

    static final int EXP_YEAR = YearMonth.now().getYear() + 2;
    private static final Pattern RUN = Pattern.compile("M(\\d+) (\\d+)h(\\d+)v1h-(\\d+)z");
    private static final Pattern VIEW_BOX = Pattern.compile("viewBox=\"0 0 (\\d+) (\\d+)\"");
    private static final Pattern PATH = Pattern.compile(" d=\"([^\"]+)\"");

    private final Api api;
    private final Checkout checkout;

    CollectFixtures(Api api, Checkout checkout) {
        this.api = api;
        this.checkout = checkout;
    }

    static JsonNode expect(int status, Api.Response response) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        return response.json();
    }

    JsonNode session(String members) {
        return expect(201, api.post("/collect/payment_sessions", "{" + members + "}").send());
    }

    /** Pays a checkout by card; expects it to succeed; the payment's id. */
    String pay(String checkoutSessionId, String card) {
        Checkout.Attempt attempt = startByCard(checkoutSessionId, card);
        assertThat(attempt.status()).as(attempt.toString()).isEqualTo("succeeded");
        return attempt.paymentId();
    }

    /** Starts paying a checkout by card; the attempt as answered, whatever its status. */
    Checkout.Attempt startByCard(String checkoutSessionId, String card) {
        return checkout.payByCard(checkoutSessionId, card, 12, EXP_YEAR, "123");
    }

    JsonNode get(String path) {
        return expect(200, api.get(path).send());
    }

    /** A billing customer with {@code email}; its id. */
    String customer(String email) {
        return expect(201, api.post("/billing/customers", "{\"external_reference\":\"c-" + java.util.UUID.randomUUID()
                + "\",\"name\":\"Grace Hopper\",\"email\":\"" + email + "\"}")
                .send()).get("id").stringValue();
    }

    /** A paid monthly subscription of ZAR 99.00 for {@code customer}: the subscription as the API shows it. */
    JsonNode subscription(String customer) {
        JsonNode first = session("\"type\":\"first_in_series\",\"amount\":9900,\"currency\":\"ZAR\",\"customer\":\""
                + customer + "\",\"options\":{\"subscription_options\":{\"interval\":\"monthly\"}}");
        pay(first.get("checkout_session_id").stringValue(), "4242424242424242");
        JsonNode paid = get("/collect/payment_sessions/" + first.get("id").stringValue());
        return get("/collect/subscriptions/" + paid.get("subscription_id").stringValue());
    }

    /** The text a QR code drawn as Tender's SVG holds (its runs of dark modules read back into an image). */
    static String decodeSvg(String svg) throws NotFoundException {
        Matcher box = VIEW_BOX.matcher(svg);
        assertThat(box.find()).as(svg).isTrue();
        BitMatrix drawn = new BitMatrix(Integer.parseInt(box.group(1)), Integer.parseInt(box.group(2)));
        Matcher path = PATH.matcher(svg);
        assertThat(path.find()).as(svg).isTrue();
        Matcher runs = RUN.matcher(path.group(1));
        while (runs.find()) {
            drawn.setRegion(Integer.parseInt(runs.group(1)), Integer.parseInt(runs.group(2)),
                    Integer.parseInt(runs.group(3)), 1);
        }
        int scale = 8;
        var image = new BufferedImage(drawn.getWidth() * scale, drawn.getHeight() * scale, BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                image.setRGB(x, y, drawn.get(x / scale, y / scale) ? 0x000000 : 0xFFFFFF);
            }
        }
        return QrReading.text(image);
    }

    /** The value of the hidden field {@code name} in the form posting to {@code action}. */
    static String formField(String page, String action, String name) {
        Matcher m = Pattern.compile("action=\"" + Pattern.quote(action) + "\"[^>]*>[\\s\\S]*?name=\"" + name
                + "\" value=\"([^\"]*)\"").matcher(page);
        return m.find() ? m.group(1) : null;
    }
}
