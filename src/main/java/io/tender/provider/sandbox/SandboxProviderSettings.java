package io.tender.provider.sandbox;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.util.List;

/**
 * {@code tender.providers.sandbox.*}.
 *
 * @param holdTypes      redemption types whose sandbox provider offers holds (reserve now, confirm later), such as
 *                       {@code vouchers.one_voucher}; empty: none does
 * @param durableAnswers Internal: set by the provider simulator, not by operators: whether a call's answer is on disk
 *                       before the caller gets it ({@link SandboxVoucherLedger})
 */
@ConfigurationProperties("tender.providers.sandbox")
record SandboxProviderSettings(@DefaultValue List<String> holdTypes, @DefaultValue("false") boolean durableAnswers) {
}
