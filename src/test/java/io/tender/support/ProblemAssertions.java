package io.tender.support;

import tools.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Checks that a response is an RFC 9457 problem as decisions §1 describes it, and reads its parts. */
public final class ProblemAssertions {

    private ProblemAssertions() {
    }

    /** Asserts status, content type, code and the members every problem carries; returns the problem body. */
    public static JsonNode assertProblem(Api.Response response, int status, String code) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.contentType()).as("Content-Type of " + response).startsWith("application/problem+json");
        JsonNode problem = response.json();
        assertThat(problem.get("code").stringValue()).isEqualTo(code);
        assertThat(problem.get("status").intValue()).isEqualTo(status);
        assertThat(problem.get("type").stringValue()).endsWith("/problems/" + code);
        assertThat(problem.get("title").stringValue()).isNotBlank();
        assertThat(problem.get("instance").stringValue()).startsWith("/");
        assertThat(problem.get("request_id").stringValue()).matches("^req_[a-f0-9]{24}$")
                .isEqualTo(response.header("Request-Id"));
        return problem;
    }

    /** A 400 {@code bad_request} whose {@code errors} name exactly the given fields (in any order). */
    public static JsonNode assertBadRequest(Api.Response response, String... fields) {
        JsonNode problem = assertProblem(response, 400, "bad_request");
        assertThat(errorFields(problem)).as(response.toString()).containsExactlyInAnyOrder(fields);
        problem.get("errors").forEach(e -> assertThat(e.get("message").stringValue()).isNotBlank());
        return problem;
    }

    public static List<String> errorFields(JsonNode problem) {
        List<String> fields = new ArrayList<>();
        JsonNode errors = problem.get("errors");
        if (errors != null) {
            errors.forEach(e -> fields.add(e.get("field").stringValue()));
        }
        return fields;
    }
}
