package io.tender;

import org.junit.jupiter.api.Test;
import org.springframework.modulith.core.ApplicationModule;
import org.springframework.modulith.core.ApplicationModuleDependency;
import org.springframework.modulith.core.ApplicationModules;
import org.springframework.modulith.core.NamedInterface;
import org.springframework.modulith.docs.Documenter;
import org.springframework.modulith.docs.Documenter.DiagramOptions;
import org.springframework.modulith.docs.Documenter.DiagramOptions.DiagramStyle;
import org.springframework.modulith.docs.Documenter.DiagramOptions.ElementsWithoutRelationships;
import org.springframework.modulith.docs.Documenter.Options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The module structure (Spring Modulith): every top-level package under {@code io.tender} is a module, its
 * sub-packages are internal unless declared a named interface, and each module's {@code package-info.java} says which
 * modules it may use ({@code @ApplicationModule(allowedDependencies = ...)}). {@code verify()} fails on a cycle between
 * modules, on a use of another module's internals, and on a dependency a module has not declared; so payments,
 * processors and the settlement kernel cannot come to know billing or redemptions.
 * <p>
 * The second test keeps {@code docs/modules/} (the PlantUML component diagram and its Markdown rendering) equal to the
 * code: when they differ it rewrites them and fails, so the build that changes the structure says to commit them.
 */
class ModulesTest {

    private static final Path DOCS = Path.of("docs", "modules");
    private static final Path GENERATED = Path.of("target", "spring-modulith-docs");
    private static final String DIAGRAM = "components.puml";

    private static final ApplicationModules MODULES = ApplicationModules.of(TenderApplication.class);

    @Test
    void modulesHaveNoCyclesUseNoInternalsAndOnlyTheirAllowedDependencies() {
        MODULES.verify();
    }

    /**
     * Payments, refunds and subscriptions (issue 34): refund and subscription build on payment, the hosted checkout
     * too, and payment knows none of them; where it must reach back, it calls an SPI it owns. A use of either from
     * payment would close a cycle that {@code verify()} names only as one among many.
     */
    @Test
    void refundSubscriptionAndCheckoutDependOnPaymentAndPaymentOnNoneOfThem() {
        assertThat(dependencies("refund")).contains("payment").doesNotContain("subscription", "checkout");
        assertThat(dependencies("subscription")).contains("payment").doesNotContain("refund", "checkout");
        assertThat(dependencies("checkout")).contains("payment").doesNotContain("refund", "subscription");
        assertThat(dependencies("payment")).doesNotContain("refund", "subscription", "checkout", "dashboard");
    }

    private static List<String> dependencies(String module) {
        return MODULES.getModuleByName(module).orElseThrow().getDirectDependencies(MODULES).stream()
                .map(dependency -> dependency.getTargetModule().getIdentifier().toString()).distinct().toList();
    }

    @Test
    void docsModulesShowTheModulesAsTheyAre() throws IOException {
        new Documenter(MODULES, Options.defaults().withOutputFolder(GENERATED.toString()))
                .writeModulesAsPlantUml(DiagramOptions.defaults().withStyle(DiagramStyle.UML)
                        .withElementsWithoutRelationships(ElementsWithoutRelationships.VISIBLE));
        Map<String, String> expected = Map.of(
                DIAGRAM, inStableOrder(Files.readString(GENERATED.resolve(DIAGRAM))),
                "README.md", markdown());

        List<String> stale = new ArrayList<>();
        Files.createDirectories(DOCS);
        for (Map.Entry<String, String> file : new TreeMap<>(expected).entrySet()) {
            Path committed = DOCS.resolve(file.getKey());
            if (!Files.exists(committed) || !Files.readString(committed).equals(file.getValue())) {
                Files.writeString(committed, file.getValue());
                stale.add(committed.toString());
            }
        }
        assertThat(stale).as("module docs were stale and have been regenerated; commit them").isEmpty();
    }

    /**
     * The diagram with its component and relationship lines sorted: the Documenter writes them in an order that
     * changes from run to run, which would make the committed file look stale.
     */
    private static String inStableOrder(String puml) {
        StringBuilder sorted = new StringBuilder();
        List<String> run = new ArrayList<>();
        for (String line : puml.split("\n", -1)) {
            if (line.startsWith("  component ") || line.startsWith(TenderApplication.class.getSimpleName() + ".")) {
                run.add(line);
                continue;
            }
            run.stream().sorted().forEach(element -> sorted.append(element).append('\n'));
            run.clear();
            sorted.append(line).append('\n');
        }
        return sorted.substring(0, sorted.length() - 1);
    }

    /** The modules as a Mermaid graph (GitHub draws it) and a table, for readers without PlantUML. */
    private static String markdown() throws IOException {
        Map<String, TreeSet<String>> dependsOn = new TreeMap<>();
        Map<String, TreeSet<String>> usedBy = new TreeMap<>();
        for (ApplicationModule module : MODULES) {
            String name = module.getIdentifier().toString();
            dependsOn.put(name, new TreeSet<>());
            usedBy.computeIfAbsent(name, n -> new TreeSet<>());
            module.getDirectDependencies(MODULES).stream().forEach(dependency -> {
                String target = dependency.getTargetModule().getIdentifier().toString();
                dependsOn.get(name).add(target + namedInterface(dependency));
                usedBy.computeIfAbsent(target, n -> new TreeSet<>()).add(name);
            });
        }

        StringBuilder md = new StringBuilder("""
                # Modules

                Generated by `ModulesTest` from the code; do not edit by hand (a build whose code no longer matches \
                this file rewrites it and fails: commit the result). The same graph as a PlantUML component \
                diagram: [`components.puml`](components.puml).

                Each top-level package under `io.tender` is a module (Spring Modulith). Its sub-packages are internal \
                unless marked a named interface (`@NamedInterface`, written `module :: name` below). Each module's \
                `package-info.java` lists the modules it may use in `@ApplicationModule(allowedDependencies = ...)`; \
                `ModulesTest` runs `ApplicationModules.verify()`, which fails on a cycle between modules, on a use of \
                another module's internals, and on a dependency that is not listed. A new dependency is a line in \
                the using module's `package-info.java`, and never one that closes a cycle.

                ```mermaid
                flowchart TD
                """);
        dependsOn.forEach((module, targets) -> targets.stream().map(t -> t.replaceAll(" :: .*", "")).distinct()
                .forEach(target -> md.append("    ").append(module).append(" --> ").append(target).append('\n')));
        md.append("```\n\n| Module | What it is | Depends on | Used by |\n|---|---|---|---|\n");
        for (String name : dependsOn.keySet()) {
            md.append("| `").append(name).append("` | ").append(summary(name)).append(" | ")
                    .append(codes(dependsOn.get(name))).append(" | ").append(codes(usedBy.get(name))).append(" |\n");
        }
        return md.toString();
    }

    private static String namedInterface(ApplicationModuleDependency dependency) {
        return dependency.getTargetModule().getNamedInterfaces()
                .getNamedInterfacesContaining(dependency.getTargetType())
                .filter(NamedInterface::isNamed).map(named -> " :: " + named.getName())
                .findFirst().orElse("");
    }

    private static String codes(TreeSet<String> names) {
        return names.isEmpty() ? "–" : names.stream().map(n -> "`" + n + "`").collect(Collectors.joining(", "));
    }

    private static final Pattern JAVADOC = Pattern.compile("/\\*\\*(.*?)\\*/", Pattern.DOTALL);
    private static final Pattern INLINE_TAG = Pattern.compile("\\{@(?:code|link) (?:[a-z.]+\\.)?([^}]*)}");

    /** The first sentence of the module's package-info.java Javadoc. */
    private static String summary(String module) throws IOException {
        Path packageInfo = Path.of("src/main/java/io/tender", module, "package-info.java");
        Matcher javadoc = JAVADOC.matcher(Files.exists(packageInfo) ? Files.readString(packageInfo) : "");
        if (!javadoc.find()) {
            return "";
        }
        String text = Objects.requireNonNull(javadoc.group(1)).replaceAll("(?m)^\\s*\\*\\s?", "")
                .replaceAll("\\s+", " ").strip();
        text = INLINE_TAG.matcher(text).replaceAll(tag -> Matcher.quoteReplacement("`" + tag.group(1) + "`"));
        int end = text.indexOf(". ");
        return (end < 0 ? text : text.substring(0, end + 1)).replace("|", "\\|");
    }
}
