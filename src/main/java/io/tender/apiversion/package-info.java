/**
 * Dated API versions (decisions §15): the versions Tender serves, one {@link io.tender.apiversion.VersionChange} class
 * per change with its words and its transformations of requests (read up before validation), answers and event
 * payloads (rendered down), and the web edge that applies them: {@code Tender-Version} or the merchant's pinned
 * version chooses, and nothing else in the code knows a version. Stored objects and events stay in the newest shape.
 * It owns the pins' rules (upgrade, a 72-hour rollback) and the admin API's {@code api_version}; the pin itself is a
 * column of {@code auth}'s merchants. Modules whose objects change implement its SPI where a rendering needs what
 * only they know ({@link io.tender.apiversion.PaymentProgress}).
 */
@ApplicationModule(allowedDependencies = {"api", "auth"})
package io.tender.apiversion;

import org.springframework.modulith.ApplicationModule;
