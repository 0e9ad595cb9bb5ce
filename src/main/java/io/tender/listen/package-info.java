/**
 * {@code tender listen --forward-to URL} (issue 27): a developer's webhooks on their own machine. It follows the
 * merchant's event log over the API ({@code GET /events}) and posts each event to a local URL signed as a webhook
 * delivery is (Standard Webhooks, with a {@code whsec_} secret of its own), at least once and in order, resuming after
 * a restart from a small state file. Events come in the merchant's pinned API version, as its webhooks do, unless
 * {@code --api-version} names another. No Spring context: it runs in the launcher's JVM with the JDK's HTTP client, as
 * {@code provider-simulator} is a mode of the same launcher. The service's webhooks keep refusing loopback targets;
 * this is the way to receive them locally without turning that off.
 */
@ApplicationModule(allowedDependencies = {"apiversion", "event", "webhook"})
package io.tender.listen;

import org.springframework.modulith.ApplicationModule;
