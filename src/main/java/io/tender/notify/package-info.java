/**
 * Payment links sent to the payer (decisions §7, {@code notify}): by email through the operator's SMTP server
 * (Spring's mail support, text and HTML) and by SMS through the {@link io.tender.notify.SmsSender} SPI. A message is
 * queued in the {@code notifications} table inside the transaction that creates its subject, and a dispatcher on any
 * number of instances sends it, with retries. The link's secret part (the {@code ckt_} id) never reaches a log line.
 * The dashboard's team invitations go out through the same mail settings ({@link io.tender.notify.TeamInvitationMail}),
 * at once rather than queued: the owner who invites is told whether the email went, and is shown the link.
 */
@ApplicationModule(allowedDependencies = {"api", "auth"})
package io.tender.notify;

import org.springframework.modulith.ApplicationModule;
