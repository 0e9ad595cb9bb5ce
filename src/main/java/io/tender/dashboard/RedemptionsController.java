package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.Keyset;
import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import io.tender.redemption.RedemptionSearch;
import io.tender.redemption.RedemptionView;
import io.tender.webhook.WebhookDeliveryLog;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Redemptions pages (decisions §11): the merchant's redemptions in the URL's mode, filtered and paged in SQL
 * ({@link RedemptionSearch}), and one redemption with its operation history, its change voucher and its events. What
 * a page shows of a redemption is the API's own view with the masking of its reads (decisions §1 "Sensitive values"):
 * voucher PINs and tokens, the change voucher's PIN included, only ever as their last 4 characters. Read-only.
 */
@Hidden
@Controller
record RedemptionsController(RedemptionSearch redemptions, WebhookDeliveryLog deliveries, Merchants merchants,
                             JsonMapper json) {

    static final int PAGE_SIZE = 25;
    private static final List<String> FIELDS = List.of("q", "status");

    @GetMapping("/dashboard/{mode:test|live}/redemptions")
    String list(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                HttpServletRequest request, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "redemptions", csrf, merchants);
        Map<String, String[]> form = request.getParameterMap();
        Map<String, String> errors = new LinkedHashMap<>();
        String search = CustomersController.single(form, "q");
        if (search != null && search.length() > 255) {
            errors.put("q", "must be at most 255 characters");
        }
        String status = CustomersController.single(form, "status");
        if (status != null && !RedemptionSearch.STATUSES.contains(status)) {
            errors.put("status", "must be one of " + String.join(", ", RedemptionSearch.STATUSES));
        }
        Keyset after = CustomersController.cursor(form, "rdm_", errors);
        model.addAttribute("form", new PaymentsController.FormValues(form));
        model.addAttribute("errors", errors);
        model.addAttribute("statuses", RedemptionSearch.STATUSES.stream()
                .map(s -> new CustomersController.Choice(s, status(s).words())).toList());
        model.addAttribute("filtered", search != null || status != null);
        if (!errors.isEmpty()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            model.addAttribute("rows", List.of());
            return "dashboard/redemptions";
        }
        var page = redemptions.page(user.merchantId(), Mode.fromWire(mode), status, search, after, PAGE_SIZE);
        model.addAttribute("rows", page.rows().stream().map(this::shown).toList());
        String list = "/dashboard/" + mode + "/redemptions";
        model.addAttribute("nextUrl", page.nextCursor() == null ? null
                : list + CustomersController.query(form, FIELDS, page.nextCursor()));
        model.addAttribute("firstUrl", after == null ? null : list + CustomersController.query(form, FIELDS, null));
        return "dashboard/redemptions";
    }

    @GetMapping("/dashboard/{mode:test|live}/redemptions/{id}")
    String redemption(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                      CsrfToken csrf, HttpServletResponse response, Model model) {
        Chrome.add(model, user, mode, "redemptions", csrf, merchants);
        Mode inMode = Mode.fromWire(mode);
        var found = redemptions.find(user.merchantId(), inMode, id);
        if (found.isEmpty()) {
            return CollectPages.notFound("redemption", id, "/dashboard/" + mode + "/redemptions", "All redemptions",
                    response, model);
        }
        ShownRedemption redemption = shown(found.get());
        model.addAttribute("redemption", redemption);
        var events = redemptions.events(user.merchantId(), inMode, id);
        Map<String, List<WebhookDeliveryLog.Delivery>> delivered = deliveries.ofEvents(
                Caller.system(user.merchantId(), inMode), events.stream().map(RedemptionSearch.Event::id).toList());
        model.addAttribute("events", events.stream().map(e -> new ShownEvent(HomeSummary.moment(e.at()), e.type(),
                e.id(), delivered.getOrDefault(e.id(), List.of()).stream()
                .map(d -> d.url() + ": " + d.status()
                        + (d.lastResponseStatus() == null ? "" : " (HTTP " + d.lastResponseStatus() + ")"))
                .toList())).toList());
        return "dashboard/redemption";
    }

    /** A redemption status in words, and its badge's tone. */
    static StatusWords status(String status) {
        return switch (status) {
            case "draft" -> new StatusWords(status, "In progress", "pending");
            case "reserved" -> new StatusWords(status, "Reserved", "pending");
            case "confirmed" -> new StatusWords(status, "Confirmed", "succeeded");
            case "failed" -> new StatusWords(status, "Failed", "failed");
            default -> new StatusWords(status, status, "ended");
        };
    }

    /** The provider a redemption type goes to, as people name it. */
    static String provider(String type) {
        return switch (type == null ? "" : type) {
            case "vouchers.one_voucher" -> "OneVoucher";
            case "vouchers.ott" -> "OTT";
            case "vouchers.provider_c" -> "Provider C";
            default -> type == null ? "–" : type;
        };
    }

    /**
     * What the pages show of a redemption, read from the API's JSON of its masked view (the same bytes its GET
     * answers), so a field the API masks cannot reach a page unmasked.
     */
    private ShownRedemption shown(RedemptionView view) {
        JsonNode r = json.valueToTree(view);
        String currency = text(r, "currency");
        List<Field> voucher = fields(r.get("source"));
        List<Field> change = fields(r.get("change_voucher")).stream()
                .map(f -> f.name().equals("amount") ? new Field(f.name(), money(currency, f.value())) : f).toList();
        List<ShownOperation> operations = new ArrayList<>();
        for (JsonNode op : r.path("operations")) {
            JsonNode error = op.get("error");
            operations.add(new ShownOperation(moment(text(op, "created_at")), switch (text(op, "type")) {
                case "reserve" -> "Reserve";
                case "confirm" -> "Confirm";
                case "reverse" -> "Reverse";
                default -> text(op, "type");
            }, "failed".equals(text(op, "status")) ? new StatusWords("failed", "Failed", "failed")
                    : new StatusWords("succeeded", "Succeeded", "succeeded"),
                    HomeSummary.money(currency, op.path("amount").asLong()),
                    error == null ? null : text(error, "error_code") + (error.get("message") == null ? ""
                            : ": " + text(error, "message")),
                    fields(op.get("provider_reference"))));
        }
        JsonNode lastError = r.get("last_error");
        return new ShownRedemption(text(r, "id"), status(text(r, "status")), provider(text(r, "type")),
                text(r, "type"), HomeSummary.money(currency, r.path("amount").asLong()),
                amount(currency, r.get("reserved_amount")), amount(currency, r.get("redeemed_amount")),
                r.path("reversed_amount").asLong() == 0 ? null
                        : HomeSummary.money(currency, r.path("reversed_amount").asLong()),
                voucher.stream().map(f -> f.value()).reduce((a, b) -> a + " · " + b).orElse("–"), voucher, change,
                operations, lastError == null ? null : text(lastError, "error_code")
                        + (lastError.get("message") == null ? "" : ": " + text(lastError, "message")),
                text(r, "external_reference") == null ? "–" : text(r, "external_reference"),
                r.path("version").asInt(), moment(text(r, "created_at")), moment(text(r, "updated_at")));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.isString() ? value.stringValue() : value.toString();
    }

    private static String moment(String timestamp) {
        return timestamp == null ? "–" : HomeSummary.moment(Instant.parse(timestamp));
    }

    private static String amount(String currency, JsonNode minor) {
        return minor == null || minor.isNull() ? null : HomeSummary.money(currency, minor.asLong());
    }

    private static String money(String currency, String minor) {
        try {
            return HomeSummary.money(currency, Long.parseLong(minor));
        } catch (NumberFormatException e) {
            return minor;
        }
    }

    /** An object's members as name and text (nested values as their JSON), for a voucher or a reference. */
    private static List<Field> fields(JsonNode node) {
        List<Field> fields = new ArrayList<>();
        if (node != null && node.isObject()) {
            for (var entry : node.properties()) {
                JsonNode value = entry.getValue();
                if (!value.isNull()) {
                    fields.add(new Field(entry.getKey(), value.isString() ? value.stringValue() : value.toString()));
                }
            }
        }
        return fields;
    }

    /** A member of a voucher, change voucher or provider reference, as the API shows it (secrets masked). */
    public record Field(String name, String value) {
        public String label() {
            String words = name.replace('_', ' ');
            return words.equals("pin") ? "PIN" : Character.toUpperCase(words.charAt(0)) + words.substring(1);
        }
    }

    public record ShownOperation(String at, String type, StatusWords status, String amount,
                                 String error, List<Field> reference) {
    }

    public record ShownEvent(String at, String type, String id, List<String> deliveries) {
    }

    public record ShownRedemption(String id, StatusWords status, String provider, String type,
                                  String amount, String reserved, String redeemed, String reversed, String voucher,
                                  List<Field> voucherFields, List<Field> changeVoucher,
                                  List<ShownOperation> operations, String lastError, String reference, int version,
                                  String created, String updated) {
    }
}
