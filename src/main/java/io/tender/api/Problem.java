package io.tender.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/** RFC 9457 problem details with the API's {@code code}, the {@code request_id} and, for validation, {@code errors}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"type", "title", "status", "detail", "instance", "code", "request_id", "errors"})
@Schema(name = "ProblemDetail", description = "RFC 9457 problem details (application/problem+json)")
public record Problem(
        @Schema(description = "URI of the problem type, `{problems_base}/<code>`", example = "http://localhost:8080/problems/bad_request") String type,
        @Schema(example = "Bad request") String title,
        @Schema(example = "400") int status,
        @Schema(example = "amount: must be at least 1") String detail,
        @Schema(description = "Request path", example = "/collect/redemptions") String instance,
        // An open string listing ProblemCode's values: DocumentShape writes its schema.
        String code,
        @Schema(example = "req_0193f1c2a4b5c6d7e8f9a0b1") String requestId,
        List<FieldError> errors) {
}
