package io.tender.api;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code tender.problems-base}.
 *
 * @param problemsBase base of problem {@code type} URIs; empty: the request's own base URL + {@code /problems}
 */
@ConfigurationProperties("tender")
record ProblemSettings(@DefaultValue("") String problemsBase) {
}
