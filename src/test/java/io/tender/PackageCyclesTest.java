package io.tender;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/** The module structure: feature packages form no cycle, and payments never depend on billing (billing -> payment). */
class PackageCyclesTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tender");

    /**
     * {@code api} and {@code auth} are one shared kernel today ({@code ListSql.ownedBy(Caller)} one way, errors and ids
     * the other); that pre-existing pair is the only exception.
     */
    @Test
    void featurePackagesAreFreeOfCycles() {
        slices().matching("io.tender.(*)..").should().beFreeOfCycles()
                .ignoreDependency(resideInAPackage("io.tender.api.."), resideInAPackage("io.tender.auth.."))
                .check(CLASSES);
    }

    @Test
    void paymentsProcessorsAndTheKernelDoNotKnowBillingOrRedemptions() {
        noClasses().that().resideInAnyPackage("io.tender.payment..", "io.tender.processor..", "io.tender.settlement..")
                .should().dependOnClassesThat().resideInAnyPackage("io.tender.billing..", "io.tender.redemption..")
                .check(CLASSES);
    }
}
