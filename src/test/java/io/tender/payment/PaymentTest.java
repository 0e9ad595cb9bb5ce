package io.tender.payment;

import io.tender.settlement.CallStatus;
import io.tender.auth.Mode;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorOutcome.ActionRequired;
import io.tender.processor.ProcessorOutcome.Approved;
import io.tender.processor.ProcessorOutcome.Declined;
import io.tender.processor.ProcessorOutcome.Unknown;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.tender.payment.CaptureMethod.AUTOMATIC;
import static io.tender.payment.CaptureMethod.MANUAL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The payment aggregate's own rules, as tables: what each processor answer does to a payment in each state (status,
 * amounts, version, events, operations), what may begin from where, when a capture or void is refused, and what the
 * aggregate refuses to do at all. Every state is reached through the aggregate's own transitions.
 */
class PaymentTest {

    private static final Instant NOW = Instant.parse("2026-05-20T08:25:01.014Z");
    private static final Instant LATER = NOW.plusSeconds(30);
    private static final Duration TTL = Duration.ofDays(7);
    private static final long AMOUNT = 10000;
    private static final Map<String, Object> CARD = Map.of("type", "card",
            "card", Map.of("scheme", "visa", "bin", "424242", "last4", "4242"));
    private static final Declined DECLINED = new Declined("card_declined", "insufficient_funds", "Insufficient funds.");
    private static final ActionRequired ACTION = new ActionRequired("three_d_secure", "https://acs.example/3ds/1");

    // ---- fixtures: states, reached through the aggregate's transitions at NOW -----------------------------------

    /** An active session for {@code amount} before any attempt (no options: an attempt does not read them). */
    private static PaymentSession session(long amount) {
        return PaymentSession.opened(new PaymentSession.Terms("ps_0193f1c2a4b5c6d7e8f9a0b1", "mer_1", Mode.TEST,
                "ckt_1", "payment", amount, "ZAR", "ZA", "bcus_1", "ob_1", "https://shop.example/return", "order-1042",
                Map.of("order", "1042"), NOW), null, NOW.plus(Duration.ofHours(1)));
    }

    private static Payment draft(CaptureMethod captureMethod) {
        return Payment.attempt("mer_1", Mode.TEST, session(AMOUNT), PaymentIntent.PAYMENT, captureMethod, CARD,
                "fp_1", NOW);
    }

    private static Payment draftVerification() {
        return Payment.attempt("mer_1", Mode.TEST, session(0), PaymentIntent.PAYMENT_METHOD_VERIFICATION, AUTOMATIC,
                CARD, "fp_1", NOW);
    }

    private static Payment authorizing(Payment p) {
        p.beginAuthorization(NOW);
        return p;
    }

    private static Payment answered(Payment p, ProcessorOutcome outcome) {
        p.settle(outcome, NOW, true, TTL);
        return p;
    }

    private static Payment approved(Payment p) {
        return answered(p, approval(p));
    }

    private static Payment capturing(Payment p, long amount) {
        p.beginCapture(amount, NOW);
        return p;
    }

    private static Payment voiding(Payment p) {
        p.beginVoid(NOW);
        return p;
    }

    /** A payment of {@link #AMOUNT} in the named state (also {@code PaymentStagesTest}'s fixture). */
    static Payment given(String state) {
        return switch (state) {
            case "draft" -> draft(AUTOMATIC);
            case "pending authorization" -> authorizing(draft(AUTOMATIC));
            case "pending manual authorization" -> authorizing(draft(MANUAL));
            case "pending verification" -> authorizing(draftVerification());
            case "waiting for the customer" -> answered(given("pending authorization"), ACTION);
            case "waiting, void pending" -> voiding(given("waiting for the customer"));
            case "succeeded automatic" -> approved(given("pending authorization"));
            case "succeeded by billing" -> Payment.succeeded("mer_1", Mode.TEST, AMOUNT, "ZAR", "ob_1", "bcus_1", NOW);
            case "verified" -> approved(given("pending verification"));
            case "succeeded manual" -> approved(given("pending manual authorization"));
            case "capture pending" -> capturing(given("succeeded manual"), 4000);
            case "full capture pending" -> capturing(given("succeeded manual"), AMOUNT);
            case "partially captured" -> approved(given("capture pending"));
            case "fully captured" -> approved(given("full capture pending"));
            case "void pending" -> voiding(given("succeeded manual"));
            case "void of the rest pending" -> voiding(given("partially captured"));
            case "cancelled" -> approved(given("void pending"));
            case "failed" -> answered(given("pending authorization"), DECLINED);
            case "expired" -> approved(given("waiting, void pending"));
            case "expired draft" -> {
                Payment p = draft(AUTOMATIC);
                p.expireDraft(NOW);
                yield p;
            }
            default -> throw new IllegalArgumentException("no such state: " + state);
        };
    }

    /** The processor approves the pending call for what it asked. */
    private static Approved approval(Payment p) {
        long asked = p.pending().map(PaymentOperation::amount).orElse(AMOUNT);
        return new Approved(asked, "ZAR", null, Map.of("processor_reference", "ch_1"));
    }

    private static ProcessorOutcome outcome(String name, Payment p) {
        return switch (name) {
            case "approved" -> approval(p);
            case "declined", "declined on the last attempt" -> DECLINED;
            case "never received" -> Declined.notReceived("No call under this key.");
            case "action required" -> ACTION;
            case "unknown" -> new Unknown("read timed out");
            default -> throw new IllegalArgumentException("no such outcome: " + name);
        };
    }

    /** {@code type:status} of each operation, in order; {@code waiting} for a pending one the customer must act on. */
    private static String operations(Payment p) {
        return p.operations().stream()
                .map(o -> o.type().wire() + ":" + (o.action() != null ? "waiting" : o.status().name().toLowerCase()))
                .collect(Collectors.joining(" "));
    }

    /** Everything a transition may change, to show that a refused one changed nothing. */
    private static List<Object> state(Payment p) {
        return Arrays.asList(p.status(), p.version(), p.authorizedAmount(), p.paidAmount(), p.voidedAmount(),
                p.authorizationExpiresAt(), p.lastPaymentError(), p.paymentMethodDetails(), p.operations(),
                p.updatedAt());
    }

    // ---- creation --------------------------------------------------------------------------------------------

    @Test
    void aNewAttemptIsADraftAtVersionOneWithTheSessionsTermsAndNothingSent() {
        Payment p = draft(MANUAL);

        assertThat(p.id()).matches("^pay_[a-f0-9]{24}$");
        assertThat(p.status()).isEqualTo(PaymentStatus.DRAFT);
        assertThat(p.version()).isEqualTo(1);
        assertThat(p.operations()).isEmpty();
        assertThat(p.pending()).isEmpty();
        assertThat(List.of(p.authorizedAmount(), p.paidAmount(), p.voidedAmount(), p.remaining()))
                .containsOnly(0L);
        assertThat(p.merchantId()).isEqualTo("mer_1");
        assertThat(p.mode()).isEqualTo(Mode.TEST);
        assertThat(p.intent()).isEqualTo(PaymentIntent.PAYMENT);
        assertThat(p.captureMethod()).isEqualTo(MANUAL);
        assertThat(p.amount()).isEqualTo(AMOUNT);
        assertThat(p.currency()).isEqualTo("ZAR");
        assertThat(p.country()).isEqualTo("ZA");
        assertThat(p.paymentSessionId()).isEqualTo("ps_0193f1c2a4b5c6d7e8f9a0b1");
        assertThat(p.externalReference()).isEqualTo("order-1042");
        assertThat(p.metadata()).isEqualTo(Map.of("order", "1042"));
        assertThat(p.customerId()).isEqualTo("bcus_1");
        assertThat(p.obligationId()).isEqualTo("ob_1");
        assertThat(p.paymentMethodDetails()).isEqualTo(CARD);
        assertThat(p.cardFingerprint()).isEqualTo("fp_1");
        assertThat(p.paymentMethodId()).isNull();
        assertThat(p.lastPaymentError()).isNull();
        assertThat(p.authorizationExpiresAt()).isNull();
        assertThat(p.createdAt()).isEqualTo(NOW);
        assertThat(p.updatedAt()).isEqualTo(NOW);
        assertThat(p.revision()).isZero();
        assertThat(draft(MANUAL).id()).isNotEqualTo(p.id());
    }

    @Test
    void billingsSucceededPaymentIsPaidInFullAtVersionTwoWithoutASessionOrAProcessorCall() {
        Payment p = Payment.succeeded("mer_1", Mode.LIVE, 2500, "ZAR", "ob_7", "bcus_7", NOW);

        assertThat(p.id()).matches("^pay_[a-f0-9]{24}$");
        assertThat(p.status()).isEqualTo(PaymentStatus.SUCCEEDED);
        assertThat(p.version()).isEqualTo(2);
        assertThat(p.mode()).isEqualTo(Mode.LIVE);
        assertThat(p.intent()).isEqualTo(PaymentIntent.PAYMENT);
        assertThat(p.captureMethod()).isEqualTo(AUTOMATIC);
        assertThat(p.amount()).isEqualTo(2500);
        assertThat(p.authorizedAmount()).isEqualTo(2500);
        assertThat(p.paidAmount()).isEqualTo(2500);
        assertThat(p.voidedAmount()).isZero();
        assertThat(p.remaining()).isZero();
        assertThat(p.country()).isEqualTo("ZA");
        assertThat(p.obligationId()).isEqualTo("ob_7");
        assertThat(p.customerId()).isEqualTo("bcus_7");
        assertThat(p.operations()).isEmpty();
        assertThat(p.paymentSessionId()).isNull();
        assertThat(p.externalReference()).isNull();
        assertThat(p.cardFingerprint()).isNull();
        assertThat(p.paymentMethodDetails()).isNull();
        assertThat(p.metadata()).isNull();
        assertThat(p.createdAt()).isEqualTo(NOW);
        assertThat(p.updatedAt()).isEqualTo(NOW);
    }

    @Test
    void aRestoredPaymentIsTheOneItsRowHolds() {
        var authorize = PaymentOperation.pending("op_1", PaymentOperation.Type.AUTHORIZE, 9000, "pay_1:authorize",
                null, NOW).settled(CallStatus.SUCCEEDED, 9000, Map.of("processor_reference", "ch_1"), null);
        var capture = PaymentOperation.pending("op_2", PaymentOperation.Type.CAPTURE, 3000, "pay_1:capture",
                "pay_1:authorize", LATER).settled(CallStatus.SUCCEEDED, 3000, null, null);
        var error = new PaymentError("card_declined", "do_not_honor", "Declined.", "2026-05-20T08:25:31.014Z");
        var row = new Payment.Snapshot("pay_1",
                new Payment.Terms("mer_2", Mode.LIVE, PaymentIntent.PAYMENT, MANUAL, 9000, "KES", "KE", "bcus_2",
                        "ob_2"),
                new Payment.Attempt("ps_2", "ref-2", "fp_2"), NOW, CARD, Map.of("k", "v"), "pm_2",
                PaymentStatus.SUCCEEDED, 9000, NOW.plus(TTL), 3000, 1000, 700, error, 4, List.of(authorize, capture),
                LATER, 6, SeriesCharge.ofPeriod("mdt_2", java.time.LocalDate.of(2027, 1, 31), "sub_2", 3, 2),
                new ChargeRetry(true, LATER));

        Payment p = Payment.restored(row);

        // Every amount differs, so that any two read into each other's place fail here.
        assertThat(List.of(p.id(), p.merchantId(), p.mode(), p.intent(), p.captureMethod(), p.amount(), p.currency(),
                p.country(), p.customerId(), p.obligationId()))
                .containsExactly("pay_1", "mer_2", Mode.LIVE, PaymentIntent.PAYMENT, MANUAL, 9000L, "KES", "KE",
                        "bcus_2", "ob_2");
        assertThat(List.of(p.paymentSessionId(), p.externalReference(), p.cardFingerprint(), p.paymentMethodId()))
                .containsExactly("ps_2", "ref-2", "fp_2", "pm_2");
        assertThat(p.paymentMethodDetails()).isEqualTo(CARD);
        assertThat(p.metadata()).isEqualTo(Map.of("k", "v"));
        assertThat(p.series()).isEqualTo(SeriesCharge.ofPeriod("mdt_2", java.time.LocalDate.of(2027, 1, 31),
                "sub_2", 3, 2));
        assertThat(p.retry()).isEqualTo(new ChargeRetry(true, LATER));
        assertThat(p.status()).isEqualTo(PaymentStatus.SUCCEEDED);
        assertThat(List.of(p.authorizedAmount(), p.paidAmount(), p.voidedAmount(), p.remaining(), p.refundedAmount()))
                .containsExactly(9000L, 3000L, 1000L, 5000L, 700L);
        assertThat(p.authorizationExpiresAt()).isEqualTo(NOW.plus(TTL));
        assertThat(p.lastPaymentError()).isEqualTo(error);
        assertThat(p.version()).isEqualTo(4);
        assertThat(p.revision()).isEqualTo(6);
        assertThat(p.operations()).containsExactly(authorize, capture);
        assertThat(p.authorization()).contains(authorize);
        assertThat(p.createdAt()).isEqualTo(NOW);
        assertThat(p.updatedAt()).isEqualTo(LATER);
    }

    // ---- beginning a call ------------------------------------------------------------------------------------

    @Test
    void anAuthorizationIsRecordedPendingUnderTheKeyTheProcessorWillReceiveBeforeItIsSent() {
        Payment p = draft(AUTOMATIC);

        PaymentOperation authorize = p.beginAuthorization(LATER);

        assertThat(p.status()).isEqualTo(PaymentStatus.PENDING);
        assertThat(p.version()).as("nothing a client saw changed yet").isEqualTo(1);
        assertThat(p.pending()).contains(authorize);
        assertThat(p.awaitingCustomer()).isEmpty();
        assertThat(p.authorization()).isEmpty();
        assertThat(authorize.id()).matches("^op_[a-f0-9]{24}$");
        assertThat(authorize.type()).isEqualTo(PaymentOperation.Type.AUTHORIZE);
        assertThat(authorize.status()).isEqualTo(CallStatus.PENDING);
        assertThat(authorize.amount()).isEqualTo(AMOUNT);
        assertThat(authorize.processorKey()).isEqualTo(p.id() + ":authorize");
        assertThat(authorize.authorizationKey()).isNull();
        assertThat(authorize.createdAt()).isEqualTo(LATER);
        assertThat(p.updatedAt()).isEqualTo(LATER);
    }

    @Test
    void aCaptureOfPartOfAnAuthorizationLeavesTheRestVoidable() {
        Payment p = given("succeeded manual");

        PaymentOperation capture = p.beginCapture(4000, LATER);
        assertThat(capture.processorKey()).isEqualTo(p.id() + ":capture");
        assertThat(capture.authorizationKey()).isEqualTo(p.id() + ":authorize");
        assertThat(capture.amount()).isEqualTo(4000);
        assertThat(p.settle(approval(p), LATER, true, TTL)).containsExactly(Payment.Transition.CAPTURED);

        assertThat(p.remaining()).isEqualTo(6000);
        assertThat(p.notCapturable(LATER)).isEmpty();
        PaymentOperation release = p.beginVoid(LATER);
        assertThat(release.amount()).isEqualTo(6000);
        assertThat(release.processorKey()).isEqualTo(p.id() + ":void");
        assertThat(release.authorizationKey()).isEqualTo(p.id() + ":authorize");
        assertThat(p.settle(approval(p), LATER, true, TTL)).containsExactly(Payment.Transition.VOIDED);

        assertThat(p.status()).as("something was paid, so it is not cancelled").isEqualTo(PaymentStatus.SUCCEEDED);
        assertThat(List.of(p.authorizedAmount(), p.paidAmount(), p.voidedAmount(), p.remaining()))
                .containsExactly(AMOUNT, 4000L, 6000L, 0L);
    }

    @Test
    void eachCaptureGoesUnderItsOwnKeyAndPaysWhatWasApproved() {
        Payment p = given("partially captured");

        PaymentOperation second = p.beginCapture(2500, LATER);
        assertThat(second.processorKey()).isEqualTo(p.id() + ":capture:2");
        p.settle(approval(p), LATER, true, TTL);

        assertThat(p.paidAmount()).isEqualTo(6500);
        assertThat(p.remaining()).isEqualTo(3500);
        assertThat(p.version()).isEqualTo(4);
        assertThat(operations(p)).isEqualTo("authorize:succeeded capture:succeeded capture:succeeded");
    }

    @Test
    void theVoidOfAnAuthorizationWaitingForTheCustomerGoesOutBesideItAndIsTheCallToSettle() {
        Payment p = given("waiting for the customer");
        PaymentOperation waiting = p.awaitingCustomer().orElseThrow();

        PaymentOperation release = p.beginVoid(LATER);

        assertThat(release.authorizationKey()).isEqualTo(waiting.processorKey());
        assertThat(release.amount()).as("nothing was authorized yet").isZero();
        assertThat(p.pending()).contains(release);
        assertThat(p.awaitingCustomer()).contains(waiting);
        assertThat(p.status()).isEqualTo(PaymentStatus.PENDING);
    }

    // ---- the processor's answers -----------------------------------------------------------------------------

    /**
     * Each pending call answered each definite way. Amounts are {@code authorized_amount}, {@code paid_amount},
     * {@code voided_amount} and what remains; events are the ones the answer causes; {@code error} is the
     * {@code decline_code} of {@code last_payment_error}.
     */
    @ParameterizedTest(name = "{0}, {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # pending call                | answer                       | status    | authorized | paid  | voided | remaining | version | events                          | operations                                           | error
            pending authorization         | approved                     | succeeded | 10000      | 10000 | 0      | 0         | 2       | payment.succeeded               | authorize:succeeded                                  | none
            pending authorization         | declined                     | failed    | 0          | 0     | 0      | 0         | 2       | payment.attempt_failed          | authorize:failed                                     | insufficient_funds
            pending authorization         | declined on the last attempt | failed    | 0          | 0     | 0      | 0         | 2       | payment.failed                  | authorize:failed                                     | insufficient_funds
            pending authorization         | never received               | failed    | 0          | 0     | 0      | 0         | 2       | payment.attempt_failed          | authorize:failed                                     | not_received
            pending authorization         | action required              | pending   | 0          | 0     | 0      | 0         | 1       | none                            | authorize:waiting                                    | none
            pending manual authorization  | approved                     | succeeded | 10000      | 0     | 0      | 10000     | 2       | payment.succeeded               | authorize:succeeded                                  | none
            pending manual authorization  | declined                     | failed    | 0          | 0     | 0      | 0         | 2       | payment.attempt_failed          | authorize:failed                                     | insufficient_funds
            pending manual authorization  | never received               | failed    | 0          | 0     | 0      | 0         | 2       | payment.attempt_failed          | authorize:failed                                     | not_received
            pending manual authorization  | action required              | pending   | 0          | 0     | 0      | 0         | 1       | none                            | authorize:waiting                                    | none
            pending verification          | approved                     | succeeded | 0          | 0     | 0      | 0         | 2       | payment.succeeded               | authorize:succeeded                                  | none
            pending verification          | declined                     | failed    | 0          | 0     | 0      | 0         | 2       | payment.attempt_failed          | authorize:failed                                     | insufficient_funds
            pending verification          | declined on the last attempt | failed    | 0          | 0     | 0      | 0         | 2       | payment.failed                  | authorize:failed                                     | insufficient_funds
            waiting for the customer      | approved                     | succeeded | 10000      | 10000 | 0      | 0         | 2       | payment.succeeded               | authorize:succeeded                                  | none
            waiting for the customer      | declined                     | failed    | 0          | 0     | 0      | 0         | 2       | payment.attempt_failed          | authorize:failed                                     | insufficient_funds
            waiting for the customer      | declined on the last attempt | failed    | 0          | 0     | 0      | 0         | 2       | payment.failed                  | authorize:failed                                     | insufficient_funds
            waiting for the customer      | never received               | failed    | 0          | 0     | 0      | 0         | 2       | payment.attempt_failed          | authorize:failed                                     | not_received
            waiting for the customer      | action required              | pending   | 0          | 0     | 0      | 0         | 1       | none                            | authorize:waiting                                    | none
            capture pending               | approved                     | succeeded | 10000      | 4000  | 0      | 6000      | 3       | payment.captured                | authorize:succeeded capture:succeeded                | none
            capture pending               | declined                     | succeeded | 10000      | 0     | 0      | 10000     | 3       | none                            | authorize:succeeded capture:failed                   | insufficient_funds
            capture pending               | declined on the last attempt | succeeded | 10000      | 0     | 0      | 10000     | 3       | none                            | authorize:succeeded capture:failed                   | insufficient_funds
            capture pending               | never received               | succeeded | 10000      | 0     | 0      | 10000     | 3       | none                            | authorize:succeeded capture:failed                   | not_received
            capture pending               | action required              | succeeded | 10000      | 0     | 0      | 10000     | 2       | none                            | authorize:succeeded capture:waiting                  | none
            full capture pending          | approved                     | succeeded | 10000      | 10000 | 0      | 0         | 3       | payment.captured                | authorize:succeeded capture:succeeded                | none
            full capture pending          | declined                     | succeeded | 10000      | 0     | 0      | 10000     | 3       | none                            | authorize:succeeded capture:failed                   | insufficient_funds
            void pending                  | approved                     | cancelled | 10000      | 0     | 10000  | 0         | 3       | payment.voided payment.cancelled | authorize:succeeded void:succeeded                  | none
            void pending                  | declined                     | succeeded | 10000      | 0     | 0      | 10000     | 3       | none                            | authorize:succeeded void:failed                      | insufficient_funds
            void pending                  | never received               | succeeded | 10000      | 0     | 0      | 10000     | 3       | none                            | authorize:succeeded void:failed                      | not_received
            void pending                  | action required              | succeeded | 10000      | 0     | 0      | 10000     | 2       | none                            | authorize:succeeded void:waiting                     | none
            void of the rest pending      | approved                     | succeeded | 10000      | 4000  | 6000   | 0         | 4       | payment.voided                  | authorize:succeeded capture:succeeded void:succeeded | none
            void of the rest pending      | declined                     | succeeded | 10000      | 4000  | 0      | 6000      | 4       | none                            | authorize:succeeded capture:succeeded void:failed    | insufficient_funds
            waiting, void pending         | approved                     | expired   | 0          | 0     | 0      | 0         | 2       | payment.expired                 | authorize:failed void:succeeded                      | none
            waiting, void pending         | declined                     | pending   | 0          | 0     | 0      | 0         | 2       | none                            | authorize:waiting void:failed                        | insufficient_funds
            waiting, void pending         | never received               | pending   | 0          | 0     | 0      | 0         | 2       | none                            | authorize:waiting void:failed                        | not_received
            waiting, void pending         | action required              | pending   | 0          | 0     | 0      | 0         | 1       | none                            | authorize:waiting void:waiting                       | none
            """)
    void eachDefiniteAnswerMovesThePendingCallAndThePaymentAsTheTableSays(
            String from, String answer, String status, long authorized, long paid, long voided, long remaining,
            int version, String events, String operations, String error) {
        Payment p = given(from);

        List<Payment.Transition> transitions = p.settle(outcome(answer, p), LATER,
                !answer.equals("declined on the last attempt"), TTL);

        assertThat(p.status().wire()).isEqualTo(status);
        assertThat(List.of(p.authorizedAmount(), p.paidAmount(), p.voidedAmount(), p.remaining()))
                .containsExactly(authorized, paid, voided, remaining);
        assertThat(p.paidAmount() + p.voidedAmount()).as("never more than was authorized")
                .isLessThanOrEqualTo(p.authorizedAmount());
        assertThat(p.version()).isEqualTo(version);
        assertThat(transitions.isEmpty() ? "none"
                : transitions.stream().map(Payment.Transition::eventType).collect(Collectors.joining(" ")))
                .isEqualTo(events);
        assertThat(operations(p)).isEqualTo(operations);
        assertThat(p.lastPaymentError() == null ? "none" : p.lastPaymentError().declineCode()).isEqualTo(error);
        assertThat(p.updatedAt()).isEqualTo(LATER);
    }

    @Test
    void anApprovedManualAuthorizationExpiresOneTtlAfterItsApprovalAndAnAutomaticOneNever() {
        Payment manual = given("pending manual authorization");
        manual.settle(approval(manual), LATER, true, TTL);
        Payment automatic = given("pending authorization");
        automatic.settle(approval(automatic), LATER, true, TTL);

        assertThat(manual.authorizationExpiresAt()).isEqualTo(LATER.plus(TTL));
        assertThat(automatic.authorizationExpiresAt()).isNull();
    }

    @Test
    void aSettledCallKeepsTheProcessorsReferenceOrItsErrorAndForgetsTheCustomersAction() {
        Payment approvedOne = given("waiting for the customer");
        approvedOne.settle(approval(approvedOne), LATER, true, TTL);
        PaymentOperation authorize = approvedOne.operations().getFirst();
        assertThat(authorize.reference()).isEqualTo(Map.of("processor_reference", "ch_1"));
        assertThat(authorize.action()).isNull();
        assertThat(authorize.redirectUrl()).isNull();
        assertThat(authorize.error()).isNull();
        assertThat(approvedOne.authorization()).contains(authorize);
        assertThat(approvedOne.awaitingCustomer()).isEmpty();

        Payment declinedOne = given("pending authorization");
        declinedOne.settle(DECLINED, LATER, true, TTL);
        PaymentError error = declinedOne.lastPaymentError();
        assertThat(error).isEqualTo(new PaymentError("card_declined", "insufficient_funds", "Insufficient funds.",
                "2026-05-20T08:25:31.014Z"));
        assertThat(declinedOne.operations().getFirst().error()).isEqualTo(error);
        assertThat(declinedOne.operations().getFirst().reference()).isNull();
    }

    @Test
    void anAuthorizationWaitingForTheCustomerShowsWhatTheyMustDoAndWhere() {
        Payment p = given("pending authorization");

        p.settle(ACTION, LATER, true, TTL);

        PaymentOperation waiting = p.awaitingCustomer().orElseThrow();
        assertThat(waiting.action()).isEqualTo("three_d_secure");
        assertThat(waiting.redirectUrl()).isEqualTo("https://acs.example/3ds/1");
        assertThat(waiting.status()).isEqualTo(CallStatus.PENDING);
        assertThat(p.pending()).contains(waiting);
    }

    /** The session ended while the customer was at 3-D Secure, and they finished it before the void arrived. */
    @Test
    void anAuthorizationApprovedAfterItsVoidWasDeclinedSucceedsAndClearsTheVoidsError() {
        Payment p = given("waiting, void pending");
        p.settle(DECLINED, NOW, true, TTL);
        assertThat(p.lastPaymentError()).isNotNull();
        assertThat(p.pending()).isEqualTo(p.awaitingCustomer());

        assertThat(p.settle(approval(p), LATER, true, TTL)).containsExactly(Payment.Transition.SUCCEEDED);

        assertThat(p.status()).isEqualTo(PaymentStatus.SUCCEEDED);
        assertThat(p.paidAmount()).isEqualTo(AMOUNT);
        assertThat(p.lastPaymentError()).isNull();
        assertThat(p.version()).isEqualTo(3);
        assertThat(operations(p)).isEqualTo("authorize:succeeded void:failed");
    }

    @Test
    void anApprovedCardAuthorizationRecordsTheCardsFundingAndLeavesOtherMethodsAlone() {
        Payment card = given("pending authorization");
        card.settle(new Approved(AMOUNT, "ZAR", "DEBIT", Map.of()), LATER, true, TTL);
        assertThat(card.paymentMethodDetails()).isEqualTo(Map.of("type", "card",
                "card", Map.of("scheme", "visa", "bin", "424242", "last4", "4242", "type", "DEBIT")));
        assertThat(CARD.get("card")).as("the details it was created with are not changed in place")
                .isEqualTo(Map.of("scheme", "visa", "bin", "424242", "last4", "4242"));

        Map<String, Object> bank = Map.of("type", "pay_by_bank", "pay_by_bank", Map.of("bank", "absa"));
        Payment payByBank = Payment.attempt("mer_1", Mode.TEST, session(AMOUNT), PaymentIntent.PAYMENT, AUTOMATIC,
                bank, null, NOW);
        payByBank.beginAuthorization(NOW);
        payByBank.settle(new Approved(AMOUNT, "ZAR", "DEBIT", Map.of()), LATER, true, TTL);
        assertThat(payByBank.paymentMethodDetails()).isEqualTo(bank);

        Payment noFunding = given("pending authorization");
        noFunding.settle(approval(noFunding), LATER, true, TTL);
        assertThat(noFunding.paymentMethodDetails()).isEqualTo(CARD);
    }

    /** An unknown answer may have moved money: it is resolved by asking, never recorded (settlement kernel). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pending authorization", "pending manual authorization", "pending verification",
            "waiting for the customer", "capture pending", "void pending", "void of the rest pending",
            "waiting, void pending"})
    void anUnknownAnswerIsNotRecordedAndTheCallStaysPending(String from) {
        Payment p = given(from);
        List<Object> before = state(p);
        PaymentOperation pending = p.pending().orElseThrow();

        assertThatThrownBy(() -> p.settle(new Unknown("read timed out"), LATER, true, TTL))
                .isInstanceOf(IllegalStateException.class);

        assertThat(state(p)).isEqualTo(before);
        assertThat(p.pending()).contains(pending);
        // Once the answer is known it is recorded.
        p.settle(DECLINED, LATER, true, TTL);
        assertThat(p.operations()).filteredOn(o -> o.id().equals(pending.id()))
                .extracting(PaymentOperation::status).containsExactly(CallStatus.FAILED);
    }

    /**
     * A call that went out without a definite answer is marked unknown (money may have moved): the payment's status
     * and amounts stay as they were, the call is still the one pending (nothing else may begin beside it), and the
     * processor's later answer settles it like any other; an answer that the customer must act makes it pending again.
     */
    @ParameterizedTest(name = "{0}, then {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # from                        | later answer    | status     | paid | voided | operation
            pending authorization         | approved        | succeeded  | 10000| 0      | SUCCEEDED
            pending authorization         | declined        | failed     | 0    | 0      | FAILED
            pending authorization         | action required | pending    | 0    | 0      | PENDING
            pending manual authorization  | approved        | succeeded  | 0    | 0      | SUCCEEDED
            capture pending               | approved        | succeeded  | 4000 | 0      | SUCCEEDED
            capture pending               | declined        | succeeded  | 0    | 0      | FAILED
            void pending                  | approved        | cancelled  | 0    | 10000  | SUCCEEDED
            """)
    void aCallMarkedUnknownStaysPendingUntilTheProcessorsAnswerSettlesIt(String from, String answer, String status,
                                                                        long paid, long voided, String operation) {
        Payment p = given(from);
        PaymentStatus statusBefore = p.status();
        String id = p.pending().orElseThrow().id();

        p.markUnknown(LATER);

        assertThat(p.pending()).map(PaymentOperation::status).contains(CallStatus.UNKNOWN);
        assertThat(p.pending()).map(PaymentOperation::id).contains(id);
        assertThat(p.status()).isEqualTo(statusBefore);
        assertThat(p.notCapturable(LATER)).as("nothing begins beside an unknown call").isPresent();
        p.settle(outcome(answer, p), LATER, true, TTL);
        assertThat(p.status().wire()).isEqualTo(status);
        assertThat(p.paidAmount()).isEqualTo(paid);
        assertThat(p.voidedAmount()).isEqualTo(voided);
        assertThat(p.operations()).filteredOn(o -> o.id().equals(id)).extracting(o -> o.status().name())
                .containsExactly(operation);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"draft", "succeeded automatic", "succeeded manual", "cancelled", "failed"})
    void onlyAPendingCallCanBeMarkedUnknown(String from) {
        Payment p = given(from);
        List<Object> before = state(p);

        assertThatThrownBy(() -> p.markUnknown(LATER)).isInstanceOf(IllegalStateException.class);
        assertThat(state(p)).isEqualTo(before);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"draft", "succeeded automatic", "succeeded by billing", "verified", "succeeded manual",
            "partially captured", "fully captured", "cancelled", "failed", "expired", "expired draft"})
    void nothingIsSettledWhenNoCallIsPending(String from) {
        Payment p = given(from);
        List<Object> before = state(p);

        for (String answer : List.of("approved", "declined", "never received", "action required", "unknown")) {
            assertThatThrownBy(() -> p.settle(outcome(answer, p), LATER, true, TTL))
                    .as(answer).isInstanceOf(IllegalStateException.class);
        }
        assertThat(state(p)).isEqualTo(before);
    }

    // ---- what may begin from where -----------------------------------------------------------------------------

    /**
     * Calls the aggregate refuses to begin, whatever its caller checked: one call at a time (but for the void of an
     * authorization waiting for the customer), captures only of what remains of an unexpired authorization, voids only
     * of what remains or of an authorization waiting for the customer, authorizations and draft expiry only of a draft.
     */
    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # from                        | call
            draft                         | capture 1000
            draft                         | void
            pending authorization         | authorize
            pending authorization         | capture 1000
            pending authorization         | void
            pending authorization         | expire draft
            waiting for the customer      | authorize
            waiting for the customer      | capture 1000
            waiting, void pending         | void
            waiting, void pending         | capture 1000
            succeeded automatic           | capture 1000
            succeeded automatic           | void
            succeeded automatic           | expire draft
            succeeded by billing          | capture 1000
            succeeded by billing          | void
            verified                      | capture 1000
            verified                      | void
            succeeded manual              | authorize
            succeeded manual              | capture 10001
            succeeded manual              | capture 0
            succeeded manual              | capture 1000 at expiry
            succeeded manual              | expire draft
            capture pending               | capture 1000
            capture pending               | void
            void pending                  | capture 1000
            void pending                  | void
            partially captured            | capture 6001
            fully captured                | capture 1000
            fully captured                | void
            cancelled                     | capture 1000
            cancelled                     | void
            failed                        | authorize
            failed                        | capture 1000
            failed                        | void
            failed                        | expire draft
            expired                       | void
            expired                       | expire draft
            """)
    void aCallThatMayNotBeginThrowsAndChangesNothing(String from, String call) {
        Payment p = given(from);
        List<Object> before = state(p);

        assertThatThrownBy(() -> {
            switch (call) {
                case "authorize" -> p.beginAuthorization(LATER);
                case "capture 0" -> p.beginCapture(0, LATER);
                case "capture 1000" -> p.beginCapture(1000, LATER);
                case "capture 6001" -> p.beginCapture(6001, LATER);
                case "capture 10001" -> p.beginCapture(10001, LATER);
                case "capture 1000 at expiry" -> p.beginCapture(1000, NOW.plus(TTL));
                case "void" -> p.beginVoid(LATER);
                case "expire draft" -> p.expireDraft(LATER);
                default -> throw new IllegalArgumentException("no such call: " + call);
            }
        }).isInstanceOf(IllegalStateException.class);

        assertThat(state(p)).isEqualTo(before);
    }

    @Test
    void aDraftWhoseSessionEndsExpiresWithoutAnyCall() {
        Payment p = draft(AUTOMATIC);

        assertThat(p.expireDraft(LATER)).containsExactly(Payment.Transition.EXPIRED);

        assertThat(p.status()).isEqualTo(PaymentStatus.EXPIRED);
        assertThat(p.version()).isEqualTo(2);
        assertThat(p.operations()).isEmpty();
        assertThat(p.updatedAt()).isEqualTo(LATER);
        assertThat(Payment.Transition.EXPIRED.eventType()).isEqualTo("payment.expired");
    }

    // ---- when a capture or void is refused ---------------------------------------------------------------------

    /** {@code notCapturable}: the live product's reasons; the authorization expires one TTL after its approval. */
    @ParameterizedTest(name = "{0} at {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # payment                     | at                        | refusal
            succeeded manual              | once authorized           | none
            succeeded manual              | a moment before expiry    | none
            succeeded manual              | expiry                    | authorisation has expired
            succeeded manual              | after expiry              | authorisation has expired
            partially captured            | once authorized           | none
            partially captured            | expiry                    | authorisation has expired
            fully captured                | once authorized           | none
            succeeded automatic           | once authorized           | not in an authorised state
            succeeded by billing          | once authorized           | not in an authorised state
            verified                      | once authorized           | not in an authorised state
            draft                         | once authorized           | not in an authorised state
            pending manual authorization  | once authorized           | not in an authorised state
            waiting for the customer      | once authorized           | not in an authorised state
            capture pending               | once authorized           | not in an authorised state
            capture pending               | after expiry              | not in an authorised state
            void pending                  | once authorized           | not in an authorised state
            cancelled                     | once authorized           | not in an authorised state
            cancelled                     | after expiry              | not in an authorised state
            failed                        | once authorized           | not in an authorised state
            expired                       | once authorized           | not in an authorised state
            """)
    void aCaptureOrVoidIsRefusedForTheReasonTheTableGives(String payment, String at, String refusal) {
        Payment p = given(payment);
        Instant when = switch (at) {
            case "once authorized" -> NOW;
            case "a moment before expiry" -> NOW.plus(TTL).minusMillis(1);
            case "expiry" -> NOW.plus(TTL);
            case "after expiry" -> NOW.plus(TTL).plusSeconds(1);
            default -> throw new IllegalArgumentException("no such time: " + at);
        };

        assertThat(p.notCapturable(when).orElse("none")).isEqualTo(refusal);
    }

    /**
     * {@code capturable}: what a capture or a void may take now, the one rule the API's captures and the dashboard's
     * forms ask: all the authorization still holds while {@code notCapturable} allows either, else nothing (so the
     * dashboard offers no capture of an automatic payment, an expired authorization or one with a call in flight).
     */
    @ParameterizedTest(name = "{0} at {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            # payment                     | at                        | capturable
            succeeded manual              | once authorized           | 10000
            succeeded manual              | a moment before expiry    | 10000
            succeeded manual              | expiry                    | 0
            partially captured            | once authorized           | 6000
            partially captured            | after expiry              | 0
            fully captured                | once authorized           | 0
            succeeded automatic           | once authorized           | 0
            succeeded by billing          | once authorized           | 0
            verified                      | once authorized           | 0
            pending manual authorization  | once authorized           | 0
            capture pending               | once authorized           | 0
            void pending                  | once authorized           | 0
            cancelled                     | once authorized           | 0
            failed                        | once authorized           | 0
            """)
    void whatACaptureOrVoidMayTakeIsWhatTheAuthorizationHoldsWhileOneIsAllowed(String payment, String at,
                                                                              long capturable) {
        Payment p = given(payment);
        Instant when = switch (at) {
            case "once authorized" -> NOW;
            case "a moment before expiry" -> NOW.plus(TTL).minusMillis(1);
            case "expiry" -> NOW.plus(TTL);
            case "after expiry" -> NOW.plus(TTL).plusSeconds(1);
            default -> throw new IllegalArgumentException("no such time: " + at);
        };

        assertThat(p.capturable(when)).isEqualTo(capturable);
    }

    // ---- a call that never arrived -----------------------------------------------------------------------------

    /** A fenced key is never used again: the pending call goes out under a fresh one, the rest of it unchanged. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            # pending call                | key before     | key after
            pending authorization         | :authorize     | :authorize~2
            waiting for the customer      | :authorize     | :authorize~2
            capture pending               | :capture       | :capture~2
            void pending                  | :void          | :void~2
            waiting, void pending         | :void          | :void~2
            """)
    void aPendingCallNeverReceivedGoesAgainUnderAFreshKey(String from, String before, String after) {
        Payment p = given(from);
        PaymentOperation pending = p.pending().orElseThrow();
        int version = p.version();
        int operations = p.operations().size();
        assertThat(pending.processorKey()).isEqualTo(p.id() + before);

        p.reissuePending(LATER);

        PaymentOperation reissued = p.pending().orElseThrow();
        assertThat(reissued.processorKey()).isEqualTo(p.id() + after);
        assertThat(reissued).isEqualTo(pending.rekeyed(p.id() + after));
        assertThat(p.operations()).hasSize(operations);
        assertThat(p.version()).isEqualTo(version);
        assertThat(p.updatedAt()).isEqualTo(LATER);
    }

    @Test
    void aKeyReissuedAgainIsFreshAgain() {
        Payment p = given("capture pending");
        Set<String> keys = new HashSet<>();
        keys.add(p.pending().orElseThrow().processorKey());

        for (int i = 0; i < 3; i++) {
            p.reissuePending(LATER);
            assertThat(keys.add(p.pending().orElseThrow().processorKey())).as("a key not used before").isTrue();
        }
        assertThat(p.operations()).hasSize(2);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"draft", "succeeded manual", "failed", "cancelled"})
    void nothingIsReissuedWhenNoCallIsPending(String from) {
        Payment p = given(from);
        List<Object> before = state(p);

        assertThatThrownBy(() -> p.reissuePending(LATER)).isInstanceOf(IllegalStateException.class);
        assertThat(state(p)).isEqualTo(before);
    }
}
