package io.tender.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PATCH semantics of metadata (decisions §4, and every object with metadata since): keys merge, a null value removes
 * a key, and the limits still hold.
 */
public final class Metadata {

    public static final int MAX_KEYS = 20;

    /**
     * The description of {@code metadata} in a PATCH body. {@link ApiConventions} types the values of a property
     * described so as string or null, since null is how a key is removed.
     */
    public static final String PATCH_DESCRIPTION = "Merged into the stored metadata; a null value removes that key.";

    private Metadata() {
    }

    public static Map<String, String> merge(Map<String, String> current, Map<String, String> patch) {
        if (patch == null) {
            return current;
        }
        Map<String, String> merged = new LinkedHashMap<>(current == null ? Map.of() : current);
        patch.forEach((key, value) -> {
            if (value == null) {
                merged.remove(key);
            } else {
                merged.put(key, value);
            }
        });
        if (merged.size() > MAX_KEYS) {
            throw ApiException.badRequest("metadata", "would have more than " + MAX_KEYS + " keys after this update");
        }
        return merged.isEmpty() ? null : merged;
    }
}
