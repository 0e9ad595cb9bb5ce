package io.tender.billing;

import io.tender.api.NotFound;
import io.tender.api.Ids;
import io.tender.api.JsonInput;
import io.tender.api.Rejected;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The three billing resources, with their id prefix and the rules of their {@code external_reference} (decisions §4):
 * required, at most 255 characters, unique per merchant and mode, never starting with a reserved prefix. References
 * also name resources in paths, so they are limited to characters that need no escaping in a path segment.
 */
enum BillingResource {
    CUSTOMER("bcus_", "customer", List.of("bcus_"), Pattern.compile("^[A-Za-z0-9._:@+-]+$"),
            "must contain only letters, digits and . _ : @ + -"),
    ACCOUNT("bacc_", "account", List.of("bacc_"), Pattern.compile("^[A-Za-z0-9._:@+-]+$"),
            "must contain only letters, digits and . _ : @ + -"),
    BILL("bill_", "bill", List.of("bcus_", "bill_"), Pattern.compile("^[a-zA-Z0-9_-]+$"),
            "must match ^[a-zA-Z0-9_-]+$");

    private final String idPrefix;
    private final String noun;
    private final List<String> reservedPrefixes;
    private final Pattern referencePattern;
    private final String patternWords;
    private final Pattern idPattern;

    BillingResource(String idPrefix, String noun, List<String> reservedPrefixes, Pattern referencePattern,
                    String patternWords) {
        this.idPrefix = idPrefix;
        this.noun = noun;
        this.reservedPrefixes = reservedPrefixes;
        this.referencePattern = referencePattern;
        this.patternWords = patternWords;
        this.idPattern = Ids.pattern(idPrefix);
    }

    String newId() {
        // Ordered: lists are newest first, and two objects made in one millisecond must keep the order they were made in.
        return Ids.newOrderedId(idPrefix);
    }

    Pattern idPattern() {
        return idPattern;
    }

    String noun() {
        return noun;
    }

    /** A path value or body reference names the resource by id when it has the id prefix, else by reference. */
    boolean namesId(String value) {
        return value.startsWith(idPrefix);
    }

    String referenceColumn(String value) {
        return namesId(value) ? "id" : "external_reference";
    }

    /** Reads a new resource's {@code external_reference} field. */
    String readReference(JsonInput in) {
        String value = in.string("external_reference", true, 1, 255, referencePattern, patternWords);
        if (value != null) {
            for (String prefix : reservedPrefixes) {
                if (!in.check(!value.startsWith(prefix), "external_reference",
                        "must not start with the reserved prefix " + prefix)) {
                    return null;
                }
            }
        }
        return value;
    }

    Rejected notFound() {
        return new NotFound(noun).thrown();
    }

    Rejected duplicateReference() {
        return new BillingRejection.DuplicateReference(noun).thrown();
    }
}
