package io.tender.api;

/**
 * One merchant in one mode: what every row belongs to and every query is scoped by (auth's {@code Caller} is one).
 * The kernel names only this, so that {@code api} does not depend on {@code auth}, which depends on it.
 */
public interface Tenant {

    String merchantId();

    /** The mode as stored and answered: {@code test} or {@code live}. */
    String modeWire();
}
