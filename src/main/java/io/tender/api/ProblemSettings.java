package io.tender.api;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code tender.problems-base} and {@code tender.public-base-url}.
 *
 * @param problemsBase  base of problem {@code type} URIs; empty: the public base URL + {@code /problems}
 * @param publicBaseUrl the service's public URL; empty: {@code http://localhost:<port>}. Never the request's
 *                      {@code Host} (decisions §12): a forged header must not reach a client's answer.
 */
@ConfigurationProperties("tender")
record ProblemSettings(@DefaultValue("") String problemsBase, @DefaultValue("") String publicBaseUrl) {
}
