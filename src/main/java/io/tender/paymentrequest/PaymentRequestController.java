package io.tender.paymentrequest;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.EmptyRequest;
import io.tender.billing.CustomerContacts;
import io.tender.api.Metadata;
import io.tender.api.CursorList;
import io.tender.api.ProblemResponse;
import io.tender.api.ApiException;
import io.tender.api.IfMatch;
import io.tender.api.Ids;
import io.tender.api.JsonInput;
import io.tender.api.ListPage;
import io.tender.api.ListQuery;
import io.tender.api.Timestamps;
import io.tender.auth.Caller;
import io.tender.idempotency.IdempotentRequests;
import io.tender.qr.QrCodes;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

@ProblemResponse(status = 404, description = "`resource_not_found`")
@RestController
@RequestMapping(value = "/collect/payment_requests", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Payment requests", description = "One payment asked of one customer: a link to Tender's hosted checkout "
        + "(`link.url`), or a push to the customer's banking app.")
record PaymentRequestController(PaymentRequestService service, IdempotentRequests idempotent, QrCodes qrCodes) {

    private static final Pattern ID = Ids.pattern("pr_");
    private static final Pattern CUSTOMER = Ids.pattern("bcus_");
    private static final Set<String> STATUSES = Set.of("active", "paid", "expired", "cancelled", "failed");
    private static final String QR_DESCRIPTION = "A QR code of `link.url` as a PNG (`qr.png`) or a scalable SVG "
            + "(`qr.svg`), for a customer to scan from a screen or a print. Never cached: the link is the only key to "
            + "the request's checkout.";
    private static final String QR_SIZE = "Width and height in pixels (the SVG's default size)";

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a payment request",
            description = "Answers 201 with the request and its `link`, the hosted checkout where the customer pays it "
                    + "(once). `type: push` also sends it to the customer's banking app (Capitec Pay) right after "
                    + "it is made; the answer is the request as made, and its outcome follows as `payment_request.paid` "
                    + "or `payment_request.failed`. With `bill` or `account` the payment rules are checked now, `amount` "
                    + "defaults to what is outstanding, and the payment is applied there. `notify` sends the link by "
                    + "email or SMS to the customer.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = CreateRequest.class))))
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = PaymentRequestView.class)))
    @ProblemResponse(status = 404, description = "No such customer, bill or account")
    @ProblemResponse(status = 422, description = "`operation_not_allowed`: the bill's or account's payment rules "
            + "refuse the amount, or `notify` asks for a channel this service has not configured")
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        NewPaymentRequest command = NewPaymentRequest.parse(body, Timestamps.now());
        return service.create(caller, keyed, command).toEntity();
    }

    @GetMapping
    @CursorList(idPrefix = "pr_")
    @Operation(summary = "List payment requests", description = "Newest first, with cursor pagination.", parameters = {
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"active", "paid", "expired", "cancelled", "failed"})),
            @Parameter(name = "type", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"link", "push"})),
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string")),
            @Parameter(name = "customer", in = ParameterIn.QUERY, schema = @Schema(type = "string", pattern = "^bcus_[a-f0-9]{24}$"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentRequestList.class)))
    ResponseEntity<ListPage<PaymentRequestView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), ID, Set.of("status", "type", "external_reference", "customer"));
        String status = query.oneOf("status", STATUSES);
        String type = query.oneOf("type", Set.of("link", "push"));
        String customer = query.single("customer");
        if (customer != null && !CUSTOMER.matcher(customer).matches()) {
            throw ApiException.badRequest("customer", "must be a customer id (bcus_…)");
        }
        query.throwIfInvalid();
        return service.list(caller, query, status, type, query.single("external_reference"), customer).toResponse();
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a payment request", description = "Its `version` is also the `ETag`.")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentRequestView.class)))
    ResponseEntity<PaymentRequestView> get(Caller caller, @PathVariable String id) {
        return IfMatch.tagged(service.get(caller, id), PaymentRequestView::version);
    }

    @PatchMapping(value = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Update a payment request",
            description = "While `active`: `description`, `external_reference` (null removes either), `expires_at` "
                    + "(the link's too) and `metadata` (keys merge; a null value removes its key). Anything else, such "
                    + "as `amount`, is 400 naming it. A request that is no longer active: 409 "
                    + "`invalid_state_transition`. Sends `payment_request.updated` when something changed.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = UpdateRequest.class))),
            parameters = {
                    @Parameter(name = "If-Match", in = ParameterIn.HEADER, schema = @Schema(type = "string"),
                            description = "The request's `version`, e.g. `2`; a different one is 409 conflict")})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentRequestView.class)))
    @ProblemResponse(status = 409, description = "`invalid_state_transition` (not active) or `conflict` (a stale If-Match)")
    ResponseEntity<byte[]> update(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        PaymentRequestPatch patch = PaymentRequestPatch.parse(body);
        return service.update(caller, keyed, id, IfMatch.version(request, "payment request"), patch).toEntity();
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Cancel a payment request",
            description = "While `active` and no attempt is in flight: `status` `cancelled` (200 with the request, "
                    + "which stays retrievable; `payment_request.cancelled`); its link then says so. Otherwise 409 "
                    + "`invalid_state_transition`. Takes an Idempotency-Key like a POST: it changes state.",
            parameters = {
                    @Parameter(name = IdempotentRequests.HEADER, in = ParameterIn.HEADER,
                            schema = @Schema(type = "string", minLength = 1, maxLength = 200)),
                    @Parameter(name = "If-Match", in = ParameterIn.HEADER, schema = @Schema(type = "string"),
                            description = "The request's `version`, e.g. `2`; a different one is 409 conflict")},
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentRequestView.class)))
    @ProblemResponse(status = 409, description = "`invalid_state_transition` (not active, or an attempt in flight) "
            + "or `conflict` (a stale If-Match)")
    ResponseEntity<byte[]> cancel(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        return service.cancel(caller, idempotent.keyedWithoutBody(request, body), id, IfMatch.version(request, "payment request")).toEntity();
    }

    @GetMapping(value = "/{id}/qr.png", produces = {MediaType.IMAGE_PNG_VALUE, "application/problem+json"})
    @Operation(operationId = "getPaymentRequestQrPng", summary = "QR code of the link as PNG",
            description = QR_DESCRIPTION, parameters = @Parameter(name = "size", in = ParameterIn.QUERY,
            description = QR_SIZE, schema = @Schema(type = "integer", minimum = "128", maximum = "1024", defaultValue = "320")))
    @ApiResponse(responseCode = "200", content = @Content(mediaType = MediaType.IMAGE_PNG_VALUE,
            schema = @Schema(type = "string", format = "binary")))
    @ProblemResponse(status = 400, description = "A `size` out of range")
    ResponseEntity<byte[]> qrPng(Caller caller, @PathVariable String id, HttpServletRequest request) {
        return qrCodes.image(request, "png", () -> service.get(caller, id).link().url());
    }

    @GetMapping(value = "/{id}/qr.svg", produces = {"image/svg+xml", "application/problem+json"})
    @Operation(operationId = "getPaymentRequestQrSvg", summary = "QR code of the link as SVG",
            description = QR_DESCRIPTION, parameters = @Parameter(name = "size", in = ParameterIn.QUERY,
            description = QR_SIZE, schema = @Schema(type = "integer", minimum = "128", maximum = "1024", defaultValue = "320")))
    @ApiResponse(responseCode = "200", content = @Content(mediaType = "image/svg+xml", schema = @Schema(type = "string")))
    @ProblemResponse(status = 400, description = "A `size` out of range")
    ResponseEntity<byte[]> qrSvg(Caller caller, @PathVariable String id, HttpServletRequest request) {
        return qrCodes.image(request, "svg", () -> service.get(caller, id).link().url());
    }

    @Schema(name = "CreatePaymentRequestRequest")
    record CreateRequest(
            @Schema(minimum = "1", maximum = "99999999", description = "Minor units. Optional with `bill` or `account` (defaults to what is outstanding).") Long amount,
            @Schema(minLength = 3, maxLength = 3, example = "ZAR", description = "Optional with `bill` or `account`.") String currency,
            @Schema(allowableValues = {"link", "push"}, defaultValue = "link") String type,
            @Schema(description = "Required for `type: push`, refused otherwise.") PushInput push,
            @Schema(minLength = 1, maxLength = 500, description = "What the payment is for; the checkout's title.") String description,
            @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$") String externalReference,
            @Schema(format = "date-time", description = "A link: 5 minutes to 30 days ahead, default 24 hours. A push: "
                    + "1 to 10 minutes ahead, default 2 minutes.") String expiresAt,
            @Schema(description = "At most 20 keys of 1-40 characters; values at most 500 characters.") Map<String, String> metadata,
            @Schema(description = "A customer id (`bcus_…`), or the customer's details `{name, email, phone}`.",
                    oneOf = {CustomerId.class, CustomerInput.class}) Object customer,
            @Schema(description = "A bill id or external_reference: the payment is applied to it.") String bill,
            @Schema(description = "An account id or external_reference: the payment is applied to its balance.") String account,
            @ArraySchema(schema = @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"}),
                    arraySchema = @Schema(description = "Default: all. A push takes `[\"capitec_pay\"]` only.")) List<String> visiblePaymentMethods,
            @Schema(description = "Send the link to the customer: `email` needs the customer's email and a mail server "
                    + "(`SPRING_MAIL_HOST`); `sms` needs the customer's phone.") @JsonProperty("notify") NotifyInput notifyChannels) {
    }

    @Schema(name = "PaymentRequestNotifyInput", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record NotifyInput(@Schema(defaultValue = "false") Boolean email, @Schema(defaultValue = "false") Boolean sms) {
    }

    @Schema(name = "PaymentRequestCustomerId", type = "string", pattern = "^bcus_[a-f0-9]{24}$")
    record CustomerId() {
    }

    @Schema(name = "PaymentRequestCustomerInput", additionalProperties = Schema.AdditionalPropertiesValue.FALSE)
    record CustomerInput(@Schema(minLength = 1, maxLength = 200) String name,
                         @Schema(format = "email", minLength = 3, maxLength = 254, pattern = CustomerContacts.EMAIL_PATTERN) String email,
                         @Schema(description = "E.164", example = "+27821234567") String phone) {
    }

    @Schema(name = "PaymentRequestPushInput")
    record PushInput(@Schema(allowableValues = "capitec", requiredMode = Schema.RequiredMode.REQUIRED) String provider,
                     @Schema(requiredMode = Schema.RequiredMode.REQUIRED) PaymentRequestView.Capitec capitec) {
    }

    @Schema(name = "UpdatePaymentRequestRequest")
    record UpdateRequest(
            @Schema(minLength = 1, maxLength = 500, nullable = true) String description,
            @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$", nullable = true) String externalReference,
            @Schema(format = "date-time", description = "Within the bounds of the request's type, from now.") String expiresAt,
            @Schema(description = Metadata.PATCH_DESCRIPTION) Map<String, String> metadata) {
    }

    @Schema(name = "PaymentRequestList")
    record PaymentRequestList(List<PaymentRequestView> data, boolean hasMore, String nextCursor) {
    }
}
