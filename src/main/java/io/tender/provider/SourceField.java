package io.tender.provider;

import java.util.regex.Pattern;

/**
 * One credential field of a redemption type's {@code source}: what create and lookup validate, and what Discovery
 * lists as {@code required_fields}. Defined once, on {@link RedemptionType}.
 */
public record SourceField(String name, boolean required, boolean sensitive, int minLength, int maxLength,
                          Pattern pattern, String rule, String description, String example) {

    /** Discovery's {@code type} of the field. */
    public String type() {
        return "string";
    }
}
