package io.tender.provider;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.swagger.v3.oas.annotations.media.Schema;

/**
 * A replacement voucher for the remainder of a partial redeem (spec "Change Voucher"), shaped by redemption type.
 * Its PIN is the customer's only way to spend the remainder, so responses carry it in full; events, logs and
 * {@code toString} never do.
 */
@Schema(description = "Replacement voucher for the remainder of a partial redeem; its shape depends on the type.",
        oneOf = {ChangeVoucher.WithAmount.class, ChangeVoucher.WithReference.class})
public sealed interface ChangeVoucher {

    String pin();

    /** The same voucher with its PIN masked, for events. */
    ChangeVoucher masked();

    /** The shape a redemption type's change vouchers take. */
    static Class<? extends ChangeVoucher> shapeOf(RedemptionType type) {
        return type == RedemptionType.PROVIDER_C ? WithReference.class : WithAmount.class;
    }

    /** {@code vouchers.one_voucher}: with the change value. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"pin", "serial_number", "amount", "expires_at", "status"})
    @Schema(name = "ChangeVoucherWithAmount", description = "vouchers.one_voucher",
            additionalProperties = Schema.AdditionalPropertiesValue.FALSE, requiredProperties = {"pin", "serial_number", "status"})
    record WithAmount(String pin, String serialNumber, Long amount, String expiresAt, String status)
            implements ChangeVoucher {
        public WithAmount masked() {
            return new WithAmount(Masking.mask(pin), serialNumber, amount, expiresAt, status);
        }

        @Override
        public String toString() {
            return "ChangeVoucher[serial_number=" + serialNumber + ", amount=" + amount + "]";
        }
    }

    /** {@code vouchers.provider_c}: no amount; the caller looks the balance up with the PIN. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"pin", "serial_number", "reference", "expires_at", "barcode", "product_name",
            "product_instructions", "product_help", "customer_message"})
    @Schema(name = "ChangeVoucherWithReference", description = "vouchers.provider_c",
            additionalProperties = Schema.AdditionalPropertiesValue.FALSE, requiredProperties = {"pin", "serial_number", "reference"})
    record WithReference(String pin, String serialNumber, String reference, String expiresAt, String barcode,
                         String productName, String productInstructions, String productHelp, String customerMessage)
            implements ChangeVoucher {
        public WithReference masked() {
            return new WithReference(Masking.mask(pin), serialNumber, reference, expiresAt, barcode, productName,
                    productInstructions, productHelp, customerMessage);
        }

        @Override
        public String toString() {
            return "ChangeVoucher[serial_number=" + serialNumber + ", reference=" + reference + "]";
        }
    }
}
