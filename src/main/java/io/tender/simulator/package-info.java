/**
 * A voucher provider simulator that speaks Tender's provider protocol (docs/provider-protocol.md) with the sandbox's
 * vouchers and behaviours, so a live-mode deployment can run end to end on one machine:
 * {@code java -jar tender.jar provider-simulator}. It is a separate application context, only active under the
 * {@code provider-simulator} profile. That context scans the sandbox packages, {@code secrets} and {@code database},
 * so those are among its allowed dependencies though no class here names them.
 */
@ApplicationModule(allowedDependencies = {"database", "processor", "processor :: sandbox", "provider",
        "provider :: sandbox", "secrets"})
package io.tender.simulator;

import org.springframework.modulith.ApplicationModule;
