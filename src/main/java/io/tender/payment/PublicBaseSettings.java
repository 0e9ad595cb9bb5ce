package io.tender.payment;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code tender.public-base-url}.
 *
 * @param publicBaseUrl the service's public URL, which {@code session_url} and {@code page_url} start with; empty:
 *                      {@code http://localhost:<port>}, for a developer's machine
 */
@ConfigurationProperties("tender")
record PublicBaseSettings(@DefaultValue("") String publicBaseUrl) {
}
