package io.tender.database;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Without {@code SPRING_DATASOURCE_URL} the service runs its own PostgreSQL (real binaries from Maven Central) whose
 * data lives in {@code <data-dir>/postgres} and survives restarts; it asks every connection for the superuser's
 * password, kept in {@code <data-dir>/postgres.password} ({@link SuperuserPassword}, {@link AccessRules}). With it,
 * Spring Boot's normal data source is used.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(EmbeddedDatabaseConfiguration.NoDatabaseConfigured.class)
class EmbeddedDatabaseConfiguration {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedDatabaseConfiguration.class);

    /**
     * Generated on a data folder's first start; a database initialised before decisions §12 (which let everyone in)
     * gets one too, but one that asks for a password cannot be opened without the file that holds it.
     */
    @Bean
    SuperuserPassword embeddedPostgresPassword(DataDirectory dataDirectory) throws IOException {
        Path dataDir = dataDirectory.dataDir().toAbsolutePath().normalize();
        Path pgData = dataDir.resolve("postgres");
        Path passwordFile = SuperuserPassword.fileIn(dataDir);
        if (Files.exists(pgData.resolve("postgresql.conf")) && !Files.exists(passwordFile)
                && !AccessRules.trustsAnyone(pgData)) {
            throw new IllegalStateException("The embedded PostgreSQL in " + pgData + " needs the superuser password kept in "
                    + passwordFile + ", which is missing: restore that file, or move " + pgData
                    + " away to start on an empty database");
        }
        return SuperuserPassword.readOrCreate(passwordFile);
    }

    @Bean(destroyMethod = "close")
    EmbeddedPostgres embeddedPostgres(DataDirectory dataDirectory, SuperuserPassword password)
            throws IOException, SQLException {
        Path pgData = dataDirectory.dataDir().toAbsolutePath().normalize().resolve("postgres");
        Files.createDirectories(pgData);
        stopOrphanedServer(pgData);
        var builder = EmbeddedPostgres.builder()
                .setDataDirectory(pgData)
                .setCleanDataDirectory(false)
                // Spring stops it, after everything that uses the database has stopped (not the library's own hook,
                // which would pull it from under the background jobs during shutdown).
                .setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                // The library passes these to initdb as --name=value (it has no other way in), after its own
                // "-A trust", which a later --auth overrides: a new data folder asks every connection for the
                // superuser's password from its first start (decisions §12).
                .setLocaleConfig("locale", "C")
                .setLocaleConfig("auth", "scram-sha-256")
                .setLocaleConfig("pwfile", password.file().toString())
                .setConnectConfig("password", password.value())
                // The library defaults to synchronous_commit=off; a payment service must not lose acknowledged commits.
                .setServerConfig("synchronous_commit", "on")
                .setServerConfig("max_connections", "200");
        log.info("Starting embedded PostgreSQL with data in {}", pgData);
        EmbeddedPostgres postgres = builder.start();
        try {
            if (AccessRules.requirePassword(postgres, pgData, password)) {
                log.warn("The embedded PostgreSQL in {} let every local connection in without a password; it now asks "
                        + "for the one in {}", pgData, password.file());
            }
        } catch (IOException | SQLException | RuntimeException e) {
            postgres.close();
            throw e;
        }
        log.info("Embedded PostgreSQL on 127.0.0.1:{}, database and user postgres, password in {}", postgres.getPort(),
                password.file());
        return postgres;
    }

    @Bean
    @ConfigurationProperties("spring.datasource.hikari")
    HikariDataSource dataSource(EmbeddedPostgres postgres, SuperuserPassword password, DataSourceProperties properties) {
        properties.setUrl(postgres.getJdbcUrl("postgres", "postgres"));
        properties.setUsername("postgres");
        properties.setPassword(password.value());
        return properties.initializeDataSourceBuilder().type(HikariDataSource.class).build();
    }

    /**
     * A service killed with -9 leaves its PostgreSQL running on the data directory. Shut it down so this start can
     * take the directory over; PostgreSQL itself makes the data consistent again.
     */
    private static void stopOrphanedServer(Path pgData) {
        Path pidFile = pgData.resolve("postmaster.pid");
        try {
            if (!Files.exists(pidFile)) {
                return;
            }
            long pid = Long.parseLong(Files.readAllLines(pidFile).getFirst().trim());
            var process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false));
            if (process.isEmpty()) {
                return;
            }
            log.warn("Stopping the PostgreSQL server (pid {}) left running on {} by an earlier run", pid, pgData);
            process.get().destroy();
            process.get().onExit().get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            log.warn("Could not stop an earlier PostgreSQL server on {}: {}", pgData, e.toString());
        }
    }

    static class NoDatabaseConfigured implements Condition {
        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return !StringUtils.hasText(context.getEnvironment().getProperty("spring.datasource.url"));
        }
    }
}
