package io.tender.auth;

import io.tender.api.Ids;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Start-up keys. {@code TENDER_BOOTSTRAP_KEYS=acme:sk_test_…,globex:sk_test_…} creates those merchants and keys
 * when missing (for scripts, CI and compose files). Without it, the very first start on an empty database creates
 * the merchant {@code default} with a test key pair and prints the secret key once, with a curl to try it.
 */
@Component
class BootstrapKeys implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(BootstrapKeys.class);
    static final Pattern MERCHANT_NAME = Pattern.compile("^[a-z0-9][a-z0-9_-]{0,62}$");

    record Entry(String merchant, String key) {
    }

    private final Merchants merchants;
    private final ApiKeys keys;
    private final Environment environment;
    private final List<Entry> entries;

    BootstrapKeys(Merchants merchants, ApiKeys keys, Environment environment,
                  AuthSettings settings) {
        this.merchants = merchants;
        this.keys = keys;
        this.environment = environment;
        this.entries = parse(settings.bootstrapKeys());
    }

    /** Fails start-up on a malformed entry, naming its position but never echoing the key. */
    static List<Entry> parse(String spec) {
        List<Entry> entries = new ArrayList<>();
        if (!StringUtils.hasText(spec)) {
            return entries;
        }
        String[] parts = spec.split(",");
        for (int i = 0; i < parts.length; i++) {
            String part = parts[i].trim();
            int colon = part.indexOf(':');
            String merchant = colon < 0 ? "" : part.substring(0, colon).trim();
            String key = colon < 0 ? "" : part.substring(colon + 1).trim();
            String problem = null;
            if (!MERCHANT_NAME.matcher(merchant).matches()) {
                problem = "the merchant name must be lower-case letters, digits, '-' or '_'";
            } else if (KeyKind.of(key).isEmpty()) {
                problem = "the key must start with sk_test_, pk_test_, sk_ or pk_";
            } else if (key.length() - KeyKind.of(key).get().specPrefix().length() < ApiKeys.MIN_SECRET_CHARS
                    || !key.matches("^[A-Za-z0-9_]+$")) {
                problem = "the key needs at least " + ApiKeys.MIN_SECRET_CHARS
                        + " letters, digits or '_' after its prefix";
            }
            if (problem != null) {
                throw new IllegalStateException("TENDER_BOOTSTRAP_KEYS entry " + (i + 1) + " is not merchant:key: " + problem);
            }
            entries.add(new Entry(merchant, key));
        }
        return entries;
    }

    @Override
    public void run(ApplicationArguments args) {
        if (!entries.isEmpty()) {
            for (Entry entry : entries) {
                merchants.createIfAbsent(entry.merchant());
                keys.register(merchants.byName(entry.merchant()).orElseThrow().id(), entry.key());
            }
            log.info("Bootstrap keys registered for merchants {}", entries.stream().map(Entry::merchant).distinct().toList());
            return;
        }
        if (merchants.none() && merchants.createIfAbsent("default")) {
            String merchantId = merchants.byName("default").orElseThrow().id();
            var secret = keys.issue(merchantId, KeyKind.SK_TEST);
            var publicKey = keys.issue(merchantId, KeyKind.PK_TEST);
            printWelcome(secret.plainKey(), publicKey.plainKey());
        }
    }

    private void printWelcome(String secretKey, String publicKey) {
        String port = environment.getProperty("local.server.port", environment.getProperty("server.port", "8080"));
        // A fresh sandbox voucher: 16 digits whose last four choose no special sandbox behaviour.
        String pin = "%015d".formatted(Long.parseUnsignedLong(Ids.randomHex(7), 16) % 1_000_000_000_000_000L) + "7";
        System.out.printf("""

                ==============================================================================
                 Tender created the merchant "default" with a test key pair.
                 Secret test key (shown this once; only its hash is stored):

                     %s

                 Public test key: %s

                 In the terminal you will use (README.md's quick start goes on from here):

                   export KEY=%s

                 Redeem a sandbox voucher:

                   curl -s http://localhost:%s/collect/redemptions \\
                     -H "Authorization: Bearer $KEY" \\
                     -H "Content-Type: application/json" \\
                     -H "Idempotency-Key: try-%s" \\
                     -d '{"type":"vouchers.one_voucher","source":{"pin":"%s"}}'

                 Lost the key? docs/operating.md says how to make a new one.
                ==============================================================================

                """, secretKey, publicKey, secretKey, port, pin.substring(12), pin);
    }
}
