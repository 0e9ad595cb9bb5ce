package io.tender.simulator;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.ComponentScan;
import org.springframework.context.annotation.Profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The simulator application: the sandbox providers, their ledger on an embedded PostgreSQL of its own
 * ({@code ./.tender-simulator} unless {@code TENDER_DATA_DIR} says otherwise) and the protocol endpoints, on port
 * 9090 ({@code SIMULATOR_PORT}).
 */
@SpringBootConfiguration
// Spring Security is on the class path for the service's dashboard; the simulator has no dashboard and no users, and
// Boot's default security would put every protocol endpoint behind a generated password.
@EnableAutoConfiguration(excludeName = {
        "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterAutoConfiguration",
        "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration"})
@Profile(ProviderSimulator.PROFILE)
@ComponentScan(basePackages = {"io.tender.simulator", "io.tender.provider.sandbox", "io.tender.processor.sandbox",
        "io.tender.secrets",
        "io.tender.database"})
@ConfigurationPropertiesScan(basePackages = {"io.tender.simulator", "io.tender.provider.sandbox",
        "io.tender.processor.sandbox", "io.tender.secrets", "io.tender.database"})
public class ProviderSimulator {

    public static final String PROFILE = "provider-simulator";
    public static final String COMMAND = "provider-simulator";

    public static ConfigurableApplicationContext run(String... args) {
        List<String> arguments = new ArrayList<>(List.of(args));
        // As arguments, so they win over application.yml and the settings records (the service's port and data
        // dir).
        defaultArgument(arguments, "server.port", System.getenv().getOrDefault("SIMULATOR_PORT", "9090"));
        defaultArgument(arguments, "tender.data-dir", System.getenv().getOrDefault("TENDER_DATA_DIR", "./.tender-simulator"));
        // Its own settings under the names docs/provider-protocol.md gives them.
        environmentArgument(arguments, "tender.simulator.delay", "SIMULATOR_DELAY");
        environmentArgument(arguments, "tender.simulator.api-key", "SIMULATOR_API_KEY");
        // Its answers go over HTTP to a service with another database: each is on disk before it is sent.
        defaultArgument(arguments, "tender.providers.sandbox.durable-answers", "true");
        // No actuator: it would take the service's management port (8081) on the same machine.
        defaultArgument(arguments, "management.server.port", "-1");
        return new SpringApplicationBuilder(ProviderSimulator.class)
                .profiles(PROFILE)
                .properties(Map.of("spring.application.name", "tender-provider-simulator"))
                .run(arguments.toArray(String[]::new));
    }

    private static void environmentArgument(List<String> arguments, String name, String variable) {
        String value = System.getenv(variable);
        if (value != null) {
            defaultArgument(arguments, name, value);
        }
    }

    private static void defaultArgument(List<String> arguments, String name, String value) {
        if (arguments.stream().noneMatch(a -> a.startsWith("--" + name + "="))) {
            arguments.add("--" + name + "=" + value);
        }
    }
}
