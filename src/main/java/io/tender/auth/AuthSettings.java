package io.tender.auth;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code tender.admin-token} and {@code tender.bootstrap-keys} (start-up checks both: {@code UnsafeSettings},
 * {@link BootstrapKeys#parse}).
 *
 * @param adminToken    enables the operators' admin API with this bearer token; empty: no admin API
 * @param bootstrapKeys {@code merchant:key} pairs, comma-separated, created at start when missing; when set, no
 *                      {@code default} merchant is created
 */
@ConfigurationProperties("tender")
record AuthSettings(@DefaultValue("") String adminToken, @DefaultValue("") String bootstrapKeys) {
}
