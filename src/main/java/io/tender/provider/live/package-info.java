/**
 * The live voucher provider adapters: Tender's provider protocol (docs/provider-protocol.md) over HTTP, each call
 * through {@link io.tender.provider.live.GuardedCalls} (circuit breaker, bulkhead, failures classified by what they
 * mean for money) with {@link io.tender.provider.live.LiveProviderSettings.Resilience}'s settings. A named interface of
 * {@code provider}: the live payment processor adapter ({@code processor.live}) shares those two, so both kinds of live
 * call have the same resilience.
 */
@NamedInterface("live")
package io.tender.provider.live;

import org.springframework.modulith.NamedInterface;
