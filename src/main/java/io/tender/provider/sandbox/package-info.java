/**
 * The sandbox voucher providers that serve test mode (decisions §3): deterministic by the last four characters of
 * the PIN or token, and backed by their own ledger tables so vouchers stay used across restarts and instances.
 * A named interface of {@code provider}: the provider simulator serves these same providers over HTTP.
 */
@NamedInterface("sandbox")
package io.tender.provider.sandbox;

import org.springframework.modulith.NamedInterface;
