package io.tender;

import io.tender.listen.Listen;
import io.tender.simulator.ProviderSimulator;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;
import org.springframework.scheduling.annotation.EnableScheduling;

@SpringBootApplication
@ConfigurationPropertiesScan
@EnableScheduling
public class TenderApplication {

    /**
     * Runs the service; or with {@code provider-simulator} as the first argument, the voucher provider simulator;
     * or with {@code listen}, the forwarder of events to a developer's machine (no Spring context).
     */
    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals(Listen.COMMAND)) {
            System.exit(Listen.run(java.util.Arrays.copyOfRange(args, 1, args.length)));
        }
        if (args.length > 0 && args[0].equals(ProviderSimulator.COMMAND)) {
            ProviderSimulator.run(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        SpringApplication.run(TenderApplication.class, args);
    }
}
