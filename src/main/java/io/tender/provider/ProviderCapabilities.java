package io.tender.provider;

/**
 * What a provider can do, as Discovery reports it. {@code hold}: create stops at {@code reserved} and the client
 * confirms or reverses later. {@code changeVoucher}: how the remainder of a partial redeem comes back.
 */
public record ProviderCapabilities(String name, String description, String defaultCurrency, boolean hold,
                                   boolean partialRedeem, boolean lookup, boolean reverse,
                                   ChangeVoucherDelivery changeVoucher) {

    public enum ChangeVoucherDelivery { INLINE, SMS, NONE }
}
