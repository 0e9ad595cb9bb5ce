package io.tender.support;

import com.zaxxer.hikari.HikariDataSource;
import io.tender.TenderApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Another instance of the service on the database of a running one, as a deployment behind a load balancer runs
 * them: it uses the first one's embedded PostgreSQL as an external database, with the same master key (instances
 * sharing a database must share it; start-up refuses an external database without one), a data directory, ports
 * and scheduled jobs of its own. Whatever the instances coordinate, they coordinate through the database alone.
 */
public final class SecondInstance {

    private SecondInstance() {
    }

    /**
     * Starts it; {@code arguments} ({@code --name=value}) are added to, or replace, the defaults (random ports, no
     * bootstrap keys, no admin API).
     */
    public static ConfigurableApplicationContext start(ApplicationContext first, Path dataDir, String... arguments) {
        HikariDataSource database = first.getBean(HikariDataSource.class);
        Path firstDataDir = Path.of(first.getEnvironment().getRequiredProperty("tender.data-dir"));
        String masterKey;
        try {
            masterKey = Files.readString(firstDataDir.resolve("master.key")).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("server.port", "0");
        settings.put("management.server.port", "0");
        settings.put("tender.data-dir", dataDir.toString());
        settings.put("spring.datasource.url", database.getJdbcUrl());
        settings.put("spring.datasource.username", database.getUsername());
        settings.put("spring.datasource.password", database.getPassword() == null ? "" : database.getPassword());
        settings.put("tender.master-key", masterKey);
        settings.put("tender.bootstrap-keys", "");
        settings.put("tender.admin-token", "");
        for (String argument : arguments) {
            int equals = argument.indexOf('=');
            if (!argument.startsWith("--") || equals < 0) {
                throw new IllegalArgumentException("not --name=value: " + argument);
            }
            settings.put(argument.substring(2, equals), argument.substring(equals + 1));
        }
        return new SpringApplicationBuilder(TenderApplication.class)
                .run(settings.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new));
    }

    /** The base URL of a context's API port. */
    public static String baseUrl(ApplicationContext context) {
        return "http://localhost:" + context.getEnvironment().getRequiredProperty("local.server.port");
    }
}
