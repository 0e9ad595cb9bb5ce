package io.tender;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The "Configuration" table (docs/configuration.md) is the operator's list of settings: it names every {@code tender.*} setting the
 * code has (as its environment variable, {@code TENDER_...}), with the default the code has, and nothing that does
 * not exist. The code's side is the metadata {@code spring-boot-configuration-processor} writes from the
 * {@code @ConfigurationProperties} records at compile time (their {@code @DefaultValue}s), plus the
 * {@code ${VARIABLE:default}} placeholders application.yml gives Spring's own keys.
 * <p>
 * Not in the table, each for a reason the code states:
 * <ul>
 *   <li>a setting whose description (the record's {@code @param}) starts with "Test only", "Internal" (set by the
 *   provider simulator) or "Simulator only" (the simulator's own, documented in docs/provider-protocol.md);</li>
 *   <li>the live adapters' tuning ({@code tender.providers.live.*}, {@code tender.processor.live.*} beyond their
 *   {@code base-url} and {@code api-key}): the table points to the protocol documents, which must name each.</li>
 * </ul>
 */
class ConfigurationTableTest {

    private static final List<String> UNDOCUMENTED_MARKS = List.of("Test only", "Internal", "Simulator only");
    private static final Map<String, String> DELEGATED = Map.of(
            "tender.providers.live.", "docs/provider-protocol.md",
            "tender.processor.live.", "docs/processor-protocol.md");
    private static final Set<String> IN_TABLE_THOUGH_DELEGATED = Set.of("base-url", "api-key");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*):([^}]*)}");
    private static final Pattern CODE = Pattern.compile("`([^`]*)`");

    /** tender.* property → its default as the metadata gives it (null when it has none). */
    private static final Map<String, JsonNode> properties = new TreeMap<>();
    private static final Map<String, String> types = new TreeMap<>();
    private static final Map<String, String> skipped = new TreeMap<>();
    /** Environment variable (both forms Spring binds) → property, or the variable itself for application.yml's. */
    private static final Map<String, String> byVariable = new LinkedHashMap<>();
    /** Property or application.yml variable → its default, as text ("" when none). */
    private static final Map<String, String> defaults = new TreeMap<>();
    /** docs/configuration.md variable → the default cell's value for it (null when the cell is prose). */
    private static final Map<String, String> table = new LinkedHashMap<>();

    @BeforeAll
    static void read() throws IOException {
        JsonMapper json = JsonMapper.builder().build();
        List<URL> sources = Collections.list(ConfigurationTableTest.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"));
        for (URL source : sources) {
            try (InputStream in = source.openStream()) {
                for (JsonNode property : json.readTree(in).path("properties")) {
                    String name = property.path("name").asString();
                    if (name.startsWith("tender.")) {
                        record(name, property);
                    }
                }
            }
        }
        String yml = Files.readString(Path.of("src/main/resources/application.yml"));
        Matcher placeholder = PLACEHOLDER.matcher(yml);
        while (placeholder.find()) {
            byVariable.put(placeholder.group(1), placeholder.group(1));
            defaults.put(placeholder.group(1), placeholder.group(2));
        }
        readTable(Files.readString(Path.of("docs/configuration.md")));
    }

    private static void record(String name, JsonNode property) {
        String description = property.path("description").asString("");
        UNDOCUMENTED_MARKS.stream().filter(description::startsWith).findFirst()
                .ifPresent(mark -> skipped.put(name, mark));
        properties.put(name, property.get("defaultValue"));
        types.put(name, property.path("type").asString(""));
        JsonNode value = property.get("defaultValue");
        defaults.put(name, value == null || value.isNull() ? "" : value.isArray()
                ? String.join(",", value.valueStream().map(JsonNode::asString).toList())
                : value.asString().matches("^\\[.*]$")
                ? value.asString().substring(1, value.asString().length() - 1).replace(", ", ",") : value.asString());
        String variable = name.toUpperCase().replace('.', '_');
        byVariable.put(variable.replace("-", ""), name);
        byVariable.put(variable.replace('-', '_'), name);
    }

    /** The table's rows: {@code | `A`, `_B` | `1`, `2` | ... |}; {@code _B} is A's sibling B. */
    private static void readTable(String section) {
        for (String line : section.lines().filter(l -> l.startsWith("| `")).toList()) {
            String[] cells = line.split("\\|");
            List<String> names = codes(cells[1]);
            List<String> values = codes(cells[2]);
            String first = names.getFirst();
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i).startsWith("_") ? sibling(first, names.get(i)) : names.get(i);
                boolean literal = values.size() == names.size() && cells[2].strip().startsWith("`");
                table.put(name, literal ? values.get(i) : null);
            }
        }
    }

    private static String sibling(String first, String suffix) {
        String property = byVariable.get(first);
        if (property == null || !property.startsWith("tender.")) {
            return first.substring(0, first.indexOf('_')) + suffix;   // SPRING_DATASOURCE_URL, _USERNAME: not ours
        }
        String parent = property.substring(0, property.lastIndexOf('.'));
        return parent.toUpperCase().replace('.', '_').replace('-', '_') + suffix;
    }

    private static List<String> codes(String cell) {
        List<String> codes = new ArrayList<>();
        Matcher code = CODE.matcher(cell);
        while (code.find()) {
            codes.add(code.group(1));
        }
        return codes;
    }

    private static boolean documentedElsewhere(String property) {
        return DELEGATED.keySet().stream().anyMatch(prefix -> property.startsWith(prefix)
                && !IN_TABLE_THOUGH_DELEGATED.contains(property.substring(prefix.length())));
    }

    @Test
    void the_code_has_settings_and_the_records_are_read() {
        assertThat(properties).containsKeys("tender.payments.lease", "tender.webhooks.retry-schedule",
                "tender.data-dir", "tender.providers.live.base-url");
        assertThat(skipped).containsKeys("tender.checkout.json-api", "tender.providers.sandbox.durable-answers",
                "tender.simulator.delay");
        assertThat(table).containsKeys("TENDER_PAYMENTS_AUTHORIZATION_TTL", "TENDER_RATE_LIMITS_PER_KEY_BURST");
    }

    @Test
    void the_table_lists_every_setting() {
        Set<String> listed = new TreeSet<>();
        table.keySet().forEach(variable -> listed.add(byVariable.getOrDefault(variable, variable)));
        Set<String> missing = new TreeSet<>(defaults.keySet());
        missing.removeAll(listed);
        missing.removeIf(p -> skipped.containsKey(p) || documentedElsewhere(p));
        assertThat(missing).as("settings docs/configuration.md does not list").isEmpty();
    }

    @Test
    void the_table_lists_no_setting_that_does_not_exist() {
        List<String> unknown = table.keySet().stream()
                .filter(v -> v.startsWith("TENDER_") && !byVariable.containsKey(v)).toList();
        assertThat(unknown).as("docs/configuration.md variables no record or application.yml binds").isEmpty();
        List<String> undocumented = table.keySet().stream().map(byVariable::get)
                .filter(p -> p != null && skipped.containsKey(p)).toList();
        assertThat(undocumented).as("docs/configuration.md lists settings the code marks as not for operators").isEmpty();
    }

    @Test
    void the_table_gives_the_codes_defaults() {
        Map<String, String> wrong = new TreeMap<>();
        table.forEach((variable, shown) -> {
            String setting = byVariable.get(variable);
            if (setting == null) {
                return;
            }
            String actual = defaults.get(setting);
            if (actual.isEmpty()) {
                // No default: the cell says "unset" or what the code computes instead, never a value of its own.
                if (shown != null && setting.startsWith("tender.") && !types.get(setting).equals("java.lang.String")) {
                    wrong.put(variable, "docs `" + shown + "`, code none");
                }
                return;
            }
            if (shown == null || !same(setting, shown, actual)) {
                wrong.put(variable, "docs " + (shown == null ? "no value" : "`" + shown + "`") + ", code " + actual);
            }
        });
        assertThat(wrong).as("defaults docs/configuration.md gives differently from the code").isEmpty();
    }

    @Test
    void the_protocol_documents_name_the_live_adapters_tuning() throws IOException {
        Map<String, String> missing = new TreeMap<>();
        for (String property : properties.keySet()) {
            if (!documentedElsewhere(property)) {
                continue;
            }
            String prefix = DELEGATED.keySet().stream().filter(property::startsWith).findFirst().orElseThrow();
            String doc = Files.readString(Path.of(DELEGATED.get(prefix)));
            String leaf = property.substring(property.lastIndexOf('.') + 1);
            String group = property.substring(0, property.lastIndexOf('.')) + ".*`";   // "same settings as ..."
            if (!doc.contains("`" + leaf + "`") && !doc.contains("." + leaf + "`") && !doc.contains("." + leaf + ",")
                    && !doc.contains("`" + group)) {
                missing.put(property, DELEGATED.get(prefix));
            }
        }
        assertThat(missing).as("live adapter settings their protocol document does not name").isEmpty();
    }

    private static boolean same(String setting, String shown, String actual) {
        String type = setting.startsWith("tender.") ? types.get(setting) : "";
        if (type.equals("java.time.Duration") || type.equals("java.util.List<java.time.Duration>")) {
            return Arrays.stream(shown.split(",")).map(s -> DurationStyle.detectAndParse(s.strip())).toList()
                    .equals(Arrays.stream(actual.split(",")).map(DurationStyle::detectAndParse).toList());
        }
        return shown.equals(actual);
    }
}
