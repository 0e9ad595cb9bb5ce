package io.tender.database;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.nio.file.Path;

/**
 * {@code tender.data-dir}.
 *
 * @param dataDir where the service keeps its local files: the embedded PostgreSQL's data ({@code postgres/}) and its
 *                superuser's password ({@code postgres.password}), and the generated master key ({@code master.key})
 */
@ConfigurationProperties("tender")
public record DataDirectory(@DefaultValue("./.tender") Path dataDir) {
}
