package io.tender.redemption;

import io.tender.settlement.CallStatus;
import io.tender.auth.Mode;
import io.tender.provider.ChangeVoucher;
import io.tender.provider.ProviderOutcome.Approved;
import io.tender.provider.ProviderOutcome.Declined;
import io.tender.provider.ProviderOutcome.Unknown;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherSource;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The aggregate's own rules: the version rule of decisions §2 (all four rows) and what it refuses to do. */
class RedemptionTest {

    private static final Instant NOW = Instant.parse("2026-05-20T08:25:01.014Z");
    private static final String ID = "rdm_0193f1c2a4b5c6d7e8f9a0b1";

    private static Redemption open(Long amount) {
        var request = new NewRedemption(RedemptionType.ONE_VOUCHER,
                VoucherSource.of(RedemptionType.ONE_VOUCHER, Map.of("pin", "4000123412341237")), amount,
                amount == null ? null : "ZAR", null, List.of(), null, null);
        return Redemption.open(ID, "mer_1", Mode.TEST, request, "ZAR", null, NOW);
    }

    private static Approved approved(long amount, String referenceKey) {
        return new Approved(amount, "ZAR", Map.of(referenceKey, "ref"));
    }

    private static List<String> operations(Redemption r) {
        return r.operations().stream().map(o -> o.type().wire() + ":" + o.status().wire()).toList();
    }

    @Test
    void aNewRedemptionIsADraftAtVersionOne() {
        Redemption r = open(null);
        assertThat(r.status()).isEqualTo(RedemptionStatus.DRAFT);
        assertThat(r.version()).isEqualTo(1);
        assertThat(r.operations()).isEmpty();
        assertThat(r.currency()).isEqualTo("ZAR");
    }

    @Test
    void fullRedeemReserveOkThenConfirmOkIsConfirmedAtVersionThree() {
        Redemption r = open(null);
        r.begin(Operation.Type.RESERVE, 0, NOW);
        assertThat(r.settle(approved(10000, "pin"), NOW.plusMillis(5))).isEqualTo(Redemption.Transition.RESERVED);
        assertThat(r.status()).isEqualTo(RedemptionStatus.RESERVED);
        assertThat(r.version()).isEqualTo(2);
        assertThat(r.amount()).isEqualTo(10000);
        assertThat(r.reservedAmount()).isEqualTo(10000);

        r.begin(Operation.Type.CONFIRM, r.reservedAmount(), NOW.plusMillis(6));
        assertThat(r.settle(approved(10000, "serial_number"), NOW.plusMillis(9))).isEqualTo(Redemption.Transition.CONFIRMED);
        assertThat(r.status()).isEqualTo(RedemptionStatus.CONFIRMED);
        assertThat(r.version()).isEqualTo(3);
        assertThat(r.redeemedAmount()).isEqualTo(10000);
        assertThat(operations(r)).containsExactly("reserve:succeeded", "confirm:succeeded");
        assertThat(r.providerReference()).containsKey("serial_number");
        assertThat(r.lastError()).isNull();
        assertThat(r.updatedAt()).isEqualTo(NOW.plusMillis(9));
    }

    @Test
    void reserveOkThenConfirmRejectedIsFailedAtVersionTwo() {
        Redemption r = open(null);
        r.begin(Operation.Type.RESERVE, 0, NOW);
        r.settle(approved(10000, "pin"), NOW);
        r.begin(Operation.Type.CONFIRM, 10000, NOW);
        assertThat(r.settle(new Declined("BAD_REQUEST", "Voucher has already been used"), NOW))
                .isEqualTo(Redemption.Transition.FAILED);

        assertThat(r.status()).isEqualTo(RedemptionStatus.FAILED);
        assertThat(r.version()).isEqualTo(2);
        assertThat(operations(r)).containsExactly("reserve:succeeded", "confirm:failed");
        assertThat(r.lastError()).isEqualTo(new OperationError("BAD_REQUEST", "Voucher has already been used"));
        assertThat(r.operations().get(1).error()).isEqualTo(r.lastError());
        assertThat(r.redeemedAmount()).isNull();
    }

    @Test
    void reserveRejectedIsFailedAtVersionTwo() {
        Redemption r = open(null);
        r.begin(Operation.Type.RESERVE, 0, NOW);
        assertThat(r.settle(new Declined("one_voucher.2402", "Voucher could not be found"), NOW))
                .isEqualTo(Redemption.Transition.FAILED);

        assertThat(r.status()).isEqualTo(RedemptionStatus.FAILED);
        // 1 + no succeeded operation would be 1; a final redemption is at least 2.
        assertThat(r.version()).isEqualTo(2);
        assertThat(operations(r)).containsExactly("reserve:failed");
        assertThat(r.reservedAmount()).isNull();
        assertThat(r.lastError().errorCode()).isEqualTo("one_voucher.2402");
    }

    @Test
    void partialRedeemConfirmOnlyIsConfirmedAtVersionTwoWithItsChangeVoucher() {
        Redemption r = open(2500L);
        r.begin(Operation.Type.CONFIRM, 2500, NOW);
        var change = new ChangeVoucher.WithAmount("4000999988887777", "123456789012", 7500L, "2027-05-20 00:00:00", "ACTIVE");
        assertThat(r.settle(new Approved(2500, "ZAR", Map.of("serial_number", "1"), change), NOW))
                .isEqualTo(Redemption.Transition.CONFIRMED);

        assertThat(r.status()).isEqualTo(RedemptionStatus.CONFIRMED);
        assertThat(r.version()).isEqualTo(2);
        assertThat(operations(r)).containsExactly("confirm:succeeded");
        assertThat(r.amount()).isEqualTo(2500);
        assertThat(r.redeemedAmount()).isEqualTo(2500);
        assertThat(r.reservedAmount()).isNull();
        assertThat(r.changeVoucher()).isEqualTo(change);
    }

    @Test
    void anUnknownOutcomeIsNotRecordedAndLeavesTheOperationPending() {
        Redemption r = open(null);
        Operation pending = r.begin(Operation.Type.RESERVE, 0, NOW);

        assertThatThrownBy(() -> r.settle(new Unknown("one_voucher.transport_error", "timeout"), NOW))
                .isInstanceOf(IllegalStateException.class);

        assertThat(r.status()).isEqualTo(RedemptionStatus.DRAFT);
        assertThat(r.version()).isEqualTo(1);
        assertThat(r.pending()).contains(pending);
        assertThat(r.lastError()).isNull();
        // Once the answer is known it can still be recorded.
        assertThat(r.settle(approved(10000, "pin"), NOW)).isEqualTo(Redemption.Transition.RESERVED);
    }

    @Test
    void aSecondOperationCannotBeginWhileOneIsPending() {
        Redemption r = open(null);
        r.begin(Operation.Type.RESERVE, 0, NOW);

        assertThatThrownBy(() -> r.begin(Operation.Type.CONFIRM, 10000, NOW)).isInstanceOf(IllegalStateException.class);
        assertThat(r.operations()).hasSize(1);
    }

    @Test
    void nothingCanBeginOnAFinalRedemption() {
        Redemption r = open(null);
        r.begin(Operation.Type.RESERVE, 0, NOW);
        r.settle(new Declined("one_voucher.expired", "Voucher has expired"), NOW);

        assertThatThrownBy(() -> r.begin(Operation.Type.CONFIRM, 10000, NOW)).isInstanceOf(IllegalStateException.class);
        assertThat(r.version()).isEqualTo(2);
    }

    @Test
    void nothingCanBeSettledWithoutAPendingOperation() {
        Redemption r = open(null);
        assertThatThrownBy(() -> r.settle(approved(10000, "pin"), NOW)).isInstanceOf(IllegalStateException.class);
        assertThat(r.version()).isEqualTo(1);
    }

    @Test
    void eachOperationCarriesAProviderKeyThatIsTheSameOnEveryRetry() {
        Redemption r = open(null);
        Operation reserve = r.begin(Operation.Type.RESERVE, 0, NOW);
        assertThat(reserve.id()).matches("^op_[a-f0-9]{24}$");
        assertThat(reserve.providerKey()).isEqualTo(ID + ":reserve");
        assertThat(reserve.status()).isEqualTo(CallStatus.PENDING);
        r.settle(approved(10000, "pin"), NOW);
        assertThat(r.begin(Operation.Type.CONFIRM, 10000, NOW).providerKey()).isEqualTo(ID + ":confirm");
    }
}
