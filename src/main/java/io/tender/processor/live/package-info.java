/**
 * The live payment processor adapter: Tender's processor protocol (docs/processor-protocol.md) over HTTP, with the
 * voucher adapter's resilience (circuit breaker, bulkhead, money-moving calls sent once, status retried).
 */
package io.tender.processor.live;
