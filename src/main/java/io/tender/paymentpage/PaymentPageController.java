package io.tender.paymentpage;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import io.tender.api.EmptyRequest;
import io.tender.api.Metadata;
import io.tender.api.CursorList;
import io.tender.api.ProblemResponse;
import io.tender.api.ApiException;
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

@ProblemResponse(status = 404, description = "`resource_not_found`: no such page for this key, or a deleted one")
@RestController
@RequestMapping(value = "/collect/payment_pages", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "Payment pages", description = "A reusable page anyone can pay through (`page_url`): a fixed amount or "
        + "the payer's choice, the payer's details and custom fields. Each visit is a payment session of its own.")
record PaymentPageController(PaymentPageService service, IdempotentRequests idempotent, QrCodes qrCodes) {

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Create a payment page",
            description = "Answers 201 with the page and its `page_url`. Give exactly one of `amount` (fixed) or "
                    + "`amount_options` (the payer chooses). With `account`, every payment is applied to it; the "
                    + "account is checked now (for `amount`, or the least the payer may choose) and at each visit.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = CreateRequest.class))))
    @ApiResponse(responseCode = "201", content = @Content(schema = @Schema(implementation = PaymentPageView.class)))
    @ProblemResponse(status = 400, description = "Validation failed (`products` is not offered)")
    @ProblemResponse(status = 404, description = "No such account")
    @ProblemResponse(status = 422, description = "`operation_not_allowed`: the account cannot take the amount")
    ResponseEntity<byte[]> create(Caller caller, @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        PageInput input = PageInput.create(body, caller.mode(), Timestamps.now());
        return service.create(caller, keyed, input).toEntity();
    }

    @GetMapping
    @CursorList(idPrefix = "pp_", cursorPattern = "^pp_([a-f0-9]{32}|[a-f0-9]{24})$")
    @Operation(summary = "List payment pages", description = "Newest first (by `created_at`, then `id`), with cursor "
            + "pagination; deleted pages are not listed.", parameters = {
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"active", "inactive", "expired"})),
            @Parameter(name = "external_reference", in = ParameterIn.QUERY, schema = @Schema(type = "string"))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PageList.class)))
    ResponseEntity<ListPage<PaymentPageView>> list(Caller caller, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), Ids.publicPattern("pp_"), Set.of("status", "external_reference"));
        String status = query.oneOf("status", Set.of("active", "inactive", "expired"));
        query.throwIfInvalid();
        return service.list(caller, query, status, query.single("external_reference")).toResponse();
    }

    @GetMapping("/{id}")
    @Operation(summary = "Retrieve a payment page")
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentPageView.class)))
    PaymentPageView get(Caller caller, @PathVariable String id) {
        return service.get(caller, id);
    }

    @PatchMapping(value = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Update a payment page",
            description = "Changes what the page shows, in any status; payments already made keep what they were "
                    + "made with. `amount` makes the amount fixed and `amount_options` the payer's choice; a null "
                    + "`description`, `return_url`, `external_reference` or `expires_at` removes it; `custom_fields` "
                    + "replaces the list; `metadata` merges (a null value removes a key). `currency` and `account` "
                    + "cannot change. `expires_at` changes only while the page is active (409 otherwise).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true,
                    content = @Content(schema = @Schema(implementation = UpdateRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentPageView.class)))
    @ProblemResponse(status = 409, description = "`invalid_state_transition`: `expires_at` of an inactive or "
            + "expired page")
    ResponseEntity<byte[]> update(Caller caller, @PathVariable String id, @RequestBody(required = false) JsonNode body,
                                  HttpServletRequest request) {
        var keyed = idempotent.keyed(request, body);
        PageInput input = PageInput.patch(body, caller.mode(), Timestamps.now());
        return service.update(caller, keyed, id, input).toEntity();
    }

    @PatchMapping("/{id}/inactive")
    @Operation(summary = "Stop a payment page taking payments",
            description = "The page becomes `inactive` for good: visitors see that it is closed. Sessions visitors "
                    + "opened before may still be paid until they expire. An inactive page answers as it is (200).",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = false,
                    content = @Content(schema = @Schema(implementation = EmptyRequest.class))))
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = PaymentPageView.class)))
    ResponseEntity<byte[]> deactivate(Caller caller, @PathVariable String id,
                                      @RequestBody(required = false) JsonNode body, HttpServletRequest request) {
        return service.deactivate(caller, idempotent.keyedWithoutBody(request, body), id).toEntity();
    }

    // A 204 has no body to negotiate: whatever the client accepts (application/problem+json, as the document's
    // error answers say), it never fails with 406 (decisions §12).
    @DeleteMapping(value = "/{id}", produces = MediaType.ALL_VALUE)
    @Operation(summary = "Delete a payment page",
            description = "Answers 204; later reads of the page and its transactions are 404. Its payments stay "
                    + "retrievable (`GET /collect/payments/{id}`), and sessions visitors opened before may still be "
                    + "paid until they expire.")
    @ApiResponse(responseCode = "204", description = "Deleted")
    ResponseEntity<Void> delete(Caller caller, @PathVariable String id) {
        service.delete(caller, id);
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/{id}/transactions")
    @CursorList(cursorPattern = "^(prev_)?pt_[a-f0-9]{24}$")
    @Operation(operationId = "listPaymentPageTransactions", summary = "List a payment page's transactions",
            description = "Every attempt through the page that ended, newest first. `next_cursor` (`Next-Cursor`) "
                    + "goes to older transactions, `prev_cursor` (`Prev-Cursor`) back to newer ones; send either as "
                    + "`cursor`.", parameters = {
            @Parameter(name = "status", in = ParameterIn.QUERY, schema = @Schema(type = "string", allowableValues = {"succeeded", "failed"}))})
    @ApiResponse(responseCode = "200", content = @Content(schema = @Schema(implementation = TransactionList.class)))
    ResponseEntity<TransactionList> transactions(Caller caller, @PathVariable String id, HttpServletRequest request) {
        var query = new ListQuery(request.getParameterMap(), TransactionList.CURSOR, Set.of("status"));
        String status = query.oneOf("status", Set.of("succeeded", "failed"));
        query.throwIfInvalid();
        return service.transactions(caller, id, query, status).toResponse();
    }

    @GetMapping(value = "/{id}/qr.png", produces = {MediaType.IMAGE_PNG_VALUE, "application/problem+json"})
    @Operation(operationId = "getPaymentPageQrPng", summary = "The page's QR code as PNG", description = "A QR code of `page_url` to print; `size` in "
            + "pixels, 128 to 1024 (default 320).", parameters = @Parameter(name = "size", in = ParameterIn.QUERY,
            schema = @Schema(type = "integer", minimum = "128", maximum = "1024", defaultValue = "320")))
    @ApiResponse(responseCode = "200", content = @Content(mediaType = MediaType.IMAGE_PNG_VALUE,
            schema = @Schema(type = "string", format = "binary")))
    ResponseEntity<byte[]> qrPng(Caller caller, @PathVariable String id, HttpServletRequest request) {
        return qrCodes.image(request, "png", () -> service.get(caller, id).pageUrl());
    }

    @GetMapping(value = "/{id}/qr.svg", produces = {"image/svg+xml", "application/problem+json"})
    @Operation(operationId = "getPaymentPageQrSvg", summary = "The page's QR code as SVG", description = "A QR code of `page_url` that scales to any size; "
            + "`size` sets its default width and height in pixels.", parameters = @Parameter(name = "size",
            in = ParameterIn.QUERY, schema = @Schema(type = "integer", minimum = "128", maximum = "1024", defaultValue = "320")))
    @ApiResponse(responseCode = "200", content = @Content(mediaType = "image/svg+xml",
            schema = @Schema(type = "string")))
    ResponseEntity<byte[]> qrSvg(Caller caller, @PathVariable String id, HttpServletRequest request) {
        return qrCodes.image(request, "svg", () -> service.get(caller, id).pageUrl());
    }

    @Schema(name = "PaymentPageList")
    record PageList(List<PaymentPageView> data, boolean hasMore, String nextCursor) {
    }

    @Schema(name = "CreatePaymentPageRequest")
    record CreateRequest(
            @Schema(minLength = 1, maxLength = 200, requiredMode = Schema.RequiredMode.REQUIRED) String title,
            @Schema(minLength = 1, maxLength = 1000) String description,
            @Schema(minLength = 3, maxLength = 3, example = "ZAR", requiredMode = Schema.RequiredMode.REQUIRED) String currency,
            @Schema(minimum = "1", maximum = "99999999", description = "Minor units of a fixed amount; or give amount_options.") Long amount,
            PaymentPageView.AmountOptionsBody amountOptions,
            @Schema(format = "uri", maxLength = 500, description = "https (http on localhost in test mode): the page's back link, and where the checkout returns the payer.") String returnUrl,
            @Schema(defaultValue = "true", description = "Ask the payer's name, email and phone.") Boolean requiresCustomerDetails,
            @Schema(defaultValue = "false", description = "Ask a delivery address.") Boolean requiresDeliveryDetails,
            @ArraySchema(maxItems = 10) List<PaymentPageView.CustomFieldBody> customFields,
            @Schema(description = "An account id or external_reference: each payment is applied to its balance.") String account,
            @ArraySchema(maxItems = 4, schema = @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"}),
                    arraySchema = @Schema(description = "Default: every method.")) List<String> visiblePaymentMethods,
            @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$") String externalReference,
            @Schema(description = "At most 20 keys of 1-40 characters; values at most 500 characters.") Map<String, String> metadata,
            @Schema(format = "date-time", description = "When the page stops taking payments (`expired`); at most 5 years ahead.") String expiresAt) {
    }

    @Schema(name = "UpdatePaymentPageRequest")
    record UpdateRequest(
            @Schema(minLength = 1, maxLength = 200) String title,
            @Schema(minLength = 1, maxLength = 1000, nullable = true) String description,
            @Schema(minimum = "1", maximum = "99999999") Long amount,
            PaymentPageView.AmountOptionsBody amountOptions,
            @Schema(format = "uri", maxLength = 500, nullable = true) String returnUrl,
            Boolean requiresCustomerDetails,
            Boolean requiresDeliveryDetails,
            @ArraySchema(maxItems = 10) List<PaymentPageView.CustomFieldBody> customFields,
            @ArraySchema(maxItems = 4, schema = @Schema(allowableValues = {"card", "pay_by_bank", "capitec_pay", "mobile_money"})) List<String> visiblePaymentMethods,
            @Schema(maxLength = 255, pattern = "^[a-zA-Z0-9_-]+$", nullable = true) String externalReference,
            @Schema(description = Metadata.PATCH_DESCRIPTION) Map<String, String> metadata,
            @Schema(format = "date-time", nullable = true) String expiresAt) {
    }
}
