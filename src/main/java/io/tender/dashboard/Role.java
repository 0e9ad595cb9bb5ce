package io.tender.dashboard;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a dashboard user may do (decisions §11): an owner everything (the team and live keys), a developer test keys,
 * webhooks and the money actions, a viewer only reads and never sees a secret. Each role includes the ones after it.
 */
public enum Role {
    OWNER, DEVELOPER, VIEWER;

    public String wire() {
        return name().toLowerCase();
    }

    /** The Spring Security authority the filter chain's rules check ({@code ROLE_OWNER}, ...). */
    String authority() {
        return "ROLE_" + name();
    }

    static Optional<Role> fromWire(String value) {
        return Arrays.stream(values()).filter(r -> r.wire().equals(value)).findFirst();
    }
}
