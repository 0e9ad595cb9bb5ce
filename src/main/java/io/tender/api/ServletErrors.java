package io.tender.api;

import io.swagger.v3.oas.annotations.Hidden;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Map;

/**
 * Errors that never reach Spring MVC (the servlet container's own 400s, failures in filters) are forwarded to
 * {@code /error}; answer them as problems too, never with an HTML page.
 */
@Hidden
@RestController
record ServletErrors(Problems problems) implements ErrorController {
    @RequestMapping("/error")
    ResponseEntity<byte[]> error(HttpServletRequest request) {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : 500;
        ApiException problem = switch (status) {
            case 404 -> ApiException.notFound("path");
            case 413 -> BodyLimit.tooLarge();
            default -> status >= 500 ? ApiExceptionHandler.internalError()
                    : new ApiException(ProblemCode.BAD_REQUEST, status, "The request is not valid HTTP.", List.of(), Map.of());
        };
        return problems.response(problem, request);
    }
}
