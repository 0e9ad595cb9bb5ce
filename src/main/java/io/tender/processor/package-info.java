/**
 * The payment processor SPI, beside the voucher provider SPI ({@code io.tender.provider}): one interface for every
 * payment method (authorize, capture, void, refund, status) whose outcomes are approved, declined, unknown, action
 * required or (a refund only) accepted for later. Test mode uses the DB-backed sandbox processor ({@code sandbox},
 * decisions §6's sandbox table and §10's refunds); live mode speaks Tender's processor protocol over HTTP
 * ({@code live}, docs/processor-protocol.md). Card numbers and security codes pass through here to the processor and
 * nowhere else.
 */
@ApplicationModule(allowedDependencies = {"api", "auth", "database", "provider :: live"})
package io.tender.processor;

import org.springframework.modulith.ApplicationModule;
