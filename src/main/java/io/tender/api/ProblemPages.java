package io.tender.api;

import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/** The human-readable page behind each problem {@code type} URI. */
@Hidden
@RestController
class ProblemPages {

    @GetMapping(value = "/problems/{code}", produces = MediaType.TEXT_HTML_VALUE)
    ResponseEntity<String> page(@PathVariable String code) {
        ProblemCode problem = ProblemCode.fromCode(code).orElseThrow(() -> ApiException.notFound("problem type"));
        String html = """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>%s · Tender</title></head>
                <body><h1>%s</h1><p><code>%s</code> · HTTP %d</p><p>%s</p>
                <p>Every error response is <code>application/problem+json</code> (RFC 9457) with this code in
                <code>code</code> and a <code>request_id</code> to quote to support.</p></body></html>
                """.formatted(problem.title(), problem.title(), problem.code(), problem.status(),
                HtmlUtils.htmlEscape(problem.description()));
        return ResponseEntity.ok().contentType(MediaType.TEXT_HTML).body(html);
    }
}
