package io.tender.secrets;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import java.util.ArrayList;
import java.util.List;

/**
 * Refuses to start on settings that would be unsafe in production (decisions §9), naming the variable. It runs as
 * soon as the configuration is known, before the database is started or migrated and before any port is opened
 * (registered in {@code META-INF/spring.factories}):
 * <ul>
 *   <li>{@code TENDER_ADMIN_TOKEN} set but shorter than {@value #MIN_ADMIN_TOKEN} characters;</li>
 *   <li>{@code SPRING_DATASOURCE_URL} (an external database) without {@code TENDER_MASTER_KEY}: the generated key
 *       file would sit on this machine, apart from the database it unlocks, and differ on every instance;</li>
 *   <li>{@code TENDER_MASTER_KEY_PREVIOUS} without {@code TENDER_MASTER_KEY} (a rotation needs the new key).</li>
 * </ul>
 * The embedded default needs none of these and keeps its generated key file.
 */
public final class UnsafeSettings implements ApplicationListener<ApplicationEnvironmentPreparedEvent> {

    static final int MIN_ADMIN_TOKEN = 32;

    /** Start-up was refused; the message names each variable and what to do. */
    public static final class RefusedException extends IllegalStateException {
        RefusedException(String message) {
            super(message);
        }
    }

    @Override
    public void onApplicationEvent(ApplicationEnvironmentPreparedEvent event) {
        List<String> problems = problems(event.getEnvironment());
        if (!problems.isEmpty()) {
            throw new RefusedException("Refusing to start: " + String.join("; ", problems));
        }
    }

    static List<String> problems(Environment environment) {
        List<String> problems = new ArrayList<>();
        String adminToken = environment.getProperty("tender.admin-token", "");
        if (!adminToken.isEmpty() && adminToken.strip().length() < MIN_ADMIN_TOKEN) {
            problems.add("TENDER_ADMIN_TOKEN is shorter than " + MIN_ADMIN_TOKEN + " characters (use a long random "
                    + "secret, for example from `openssl rand -hex 32`, or leave it unset to turn the admin API off)");
        }
        boolean masterKey = StringUtils.hasText(environment.getProperty("tender.master-key"));
        if (StringUtils.hasText(environment.getProperty("spring.datasource.url")) && !masterKey) {
            problems.add("SPRING_DATASOURCE_URL names an external database but TENDER_MASTER_KEY is not set (set it to "
                    + "32 random bytes in base64, for example from `openssl rand -base64 32`, the same on every instance; "
                    + "only the embedded database may keep a generated key file)");
        }
        if (StringUtils.hasText(environment.getProperty("tender.master-key-previous")) && !masterKey) {
            problems.add("TENDER_MASTER_KEY_PREVIOUS is set but TENDER_MASTER_KEY is not (a rotation needs the new key "
                    + "in TENDER_MASTER_KEY)");
        }
        return problems;
    }

    /** Prints the refusal as Spring Boot's "APPLICATION FAILED TO START" report instead of a stack trace. */
    public static final class Analyzer extends AbstractFailureAnalyzer<RefusedException> {
        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, RefusedException cause) {
            return new FailureAnalysis(cause.getMessage(),
                    "Change the named settings (docs/configuration.md) and start again.", cause);
        }
    }
}
