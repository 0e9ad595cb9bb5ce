package io.tender.apiversion;

import tools.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Set;

/**
 * One change of the API that an integration written before it would notice, and everything it takes for that
 * integration to keep working: its date, its words, how a request in the version before it is read up into the shape
 * of its own version, and how an answer or event payload of its own version is rendered down into the version before
 * it. Nothing else in the code knows a version (decisions §15).
 * <p>
 * Objects are stored, and events written, in the newest shape. An answer in an older version is rendered down by each
 * change newer than that version, newest first; a request is read up by each of them, oldest first, before the
 * controller validates it. A change works on JSON trees, the way the API writes them; it never sees a type of the
 * modules whose objects it changes, and the answers it renders must read as they did on its version's eve.
 */
public interface VersionChange {

    /** The version that brought the change; integrations pinned to an earlier one see it rendered down. */
    ApiVersion version();

    /** One line: what changed ({@code `code`} in backticks). The changelog's entry and the dashboard's heading. */
    String title();

    /**
     * In sentences, what an integration on an earlier version sends and reads instead, which is what upgrading past
     * this version changes for it ({@code `code`} in backticks).
     */
    List<String> details();

    /** The API paths whose requests or answers it changes: each path and everything under it ({@code /collect/payments}). */
    Set<String> paths();

    /** The event types whose payloads it changes: a type, or a prefix ending in a dot ({@code payment.}). */
    Set<String> eventTypes();

    /** Reads a request body of the version before this one up into this version's shape (only on its {@link #paths}). */
    default void readUp(Route route, ObjectNode body) {
    }

    /**
     * Renders one object of an answer, or the payload of an event, from this version's shape down into the shape of
     * the version before (an object of a list, the payment in a page transaction: each is passed on its own).
     */
    default void renderDown(ObjectNode object, PaymentProgress payments) {
    }

    /** Renders a problem answer (application/problem+json) down into the version before. */
    default void renderProblemDown(ObjectNode problem) {
    }
}
