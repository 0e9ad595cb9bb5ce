package io.tender.api;

import java.util.List;
import java.util.Map;

/**
 * A failure the client caused or must react to, rendered as an RFC 9457 problem. Messages are written for the
 * client and never carry request values, so a voucher PIN cannot leak through them.
 */
public class ApiException extends RuntimeException {

    private final ProblemCode code;
    private final int status;
    private final List<FieldError> errors;
    private final Map<String, String> headers;

    public ApiException(ProblemCode code, String detail) {
        this(code, code.status(), detail, List.of(), Map.of());
    }

    public ApiException(ProblemCode code, int status, String detail, List<FieldError> errors, Map<String, String> headers) {
        super(detail, null, false, false);
        this.code = code;
        this.status = status;
        this.errors = List.copyOf(errors);
        this.headers = Map.copyOf(headers);
    }

    public static ApiException badRequest(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.getFirst().field() + ": " + errors.getFirst().message()
                : "The request has " + errors.size() + " invalid fields.";
        return new ApiException(ProblemCode.BAD_REQUEST, 400, detail, errors, Map.of());
    }

    public static ApiException badRequest(String field, String message) {
        return badRequest(List.of(new FieldError(field, message)));
    }

    public static ApiException notFound(String what) {
        return new ApiException(ProblemCode.RESOURCE_NOT_FOUND, "No such " + what + ".");
    }

    /** A change the object's state does not allow (now, or any more): 409 {@code invalid_state_transition}. */
    public static ApiException invalidState(String detail) {
        return new ApiException(ProblemCode.INVALID_STATE_TRANSITION, detail);
    }

    /** A resource or provider that cannot do what was asked: 422, as decisions §1 fixes for this code. */
    public static ApiException notPossible(String detail) {
        return new ApiException(ProblemCode.OPERATION_NOT_ALLOWED, 422, detail, List.of(), Map.of());
    }

    public ProblemCode code() {
        return code;
    }

    public int status() {
        return status;
    }

    public List<FieldError> errors() {
        return errors;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
