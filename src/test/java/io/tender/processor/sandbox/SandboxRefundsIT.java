package io.tender.processor.sandbox;

import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorOutcome.Accepted;
import io.tender.processor.ProcessorOutcome.ActionRequired;
import io.tender.processor.ProcessorOutcome.Approved;
import io.tender.processor.ProcessorOutcome.Declined;
import io.tender.processor.ProcessorOutcome.Unknown;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sandbox processor's refunds (decisions §10) through the {@link PaymentProcessor} interface, on the service's
 * database: only captured money, whatever the method; amounts ending in 51, 52 and 53 decline, finish later, and lose
 * their answer. The processor is built on the context's ledger with a short {@code refund-delay}, so the test need
 * not wait the default five seconds (and shares the live-provider tests' context).
 */
class SandboxRefundsIT extends LiveProvidersIntegrationTest {

    private static final Duration REFUND_DELAY = Duration.ofMillis(700);
    private static final PaymentMethodInput CARD = new PaymentMethodInput.Card("4242424242424242", 12, 2040, "123");

    @Autowired
    private SandboxProcessorLedger ledger;

    @Autowired
    private TransactionTemplate tx;

    private SandboxProcessor sandbox;
    private PaymentProcessor processor;

    @BeforeEach
    void processor() {
        // No approval delay: a bank app or mobile money payment is approved as soon as its status is asked.
        sandbox = new SandboxProcessor(ledger, tx, new SandboxProcessorSettings(Duration.ZERO, REFUND_DELAY));
        processor = sandbox;
    }

    @Test
    void refundsPartOfACapturedSaleAndListsItOnTheLedgerAsARefund() {
        String sale = sale(10000);
        String refund = refundKey();

        ProcessorOutcome outcome = processor.refund(new PaymentProcessor.Refund(refund, sale, 4000, "ZAR"));

        assertThat(outcome).isInstanceOfSatisfying(Approved.class, a -> {
            assertThat(a.amount()).isEqualTo(4000);
            assertThat(a.currency()).isEqualTo("ZAR");
        });
        assertThat(processor.status(refund)).isEqualTo(outcome);
        assertThat(sandbox.ledger()).filteredOn(row -> row.get("operation_key").equals(refund)).singleElement()
                .satisfies(row -> assertThat(row).containsEntry("kind", "refund").containsEntry("authorization_key", sale)
                        .containsEntry("amount", 4000L).containsEntry("result", "approved"));
    }

    @Test
    void refundsWhatWasCapturedUnderAnAuthorizationAndNeverMore() {
        String authorization = authorization(10000);

        assertThat(refund(authorization, 1000)).satisfies(declined("invalid_request", "amount_too_large"));
        approve(processor.capture(new PaymentProcessor.Capture(authorization.replace(":authorize", ":capture"),
                authorization, 6000, "ZAR")));
        assertThat(refund(authorization, 6001)).satisfies(declined("invalid_request", "amount_too_large"));
        assertThat(refund(authorization, 4000)).isInstanceOf(Approved.class);
        assertThat(refund(authorization, 2001)).satisfies(declined("invalid_request", "amount_too_large"));
        assertThat(refund(authorization, 2000)).isInstanceOf(Approved.class);
        assertThat(refund(authorization, 1)).satisfies(declined("invalid_request", "amount_too_large"));
    }

    @Test
    void refusesARefundOfAnAuthorizationItNeverMadeOrDeclined() {
        PaymentProcessor.Authorize declinedCard = new PaymentProcessor.Authorize(paymentKey(), 5000, "ZAR",
                new PaymentMethodInput.Card("4000000000000002", 12, 2040, "123"), true, null);
        assertThat(processor.authorize(declinedCard)).isInstanceOf(Declined.class);

        assertThat(refund(paymentKey(), 100)).satisfies(declined("invalid_request", "authorization_not_found"));
        assertThat(refund(declinedCard.operationKey(), 100))
                .satisfies(declined("invalid_request", "authorization_not_found"));
    }

    @Test
    void refusesARefundInAnotherCurrencyThanTheSale() {
        String sale = sale(10000);

        assertThat(processor.refund(new PaymentProcessor.Refund(refundKey(), sale, 100, "USD")))
                .satisfies(declined("invalid_request", "invalid_amount"));
    }

    @Test
    void refundsPayByBankCapitecPayAndMobileMoneyPaymentsLikeCards() {
        String bank = paymentKey();
        assertThat(processor.authorize(new PaymentProcessor.Authorize(bank, 3000, "ZAR",
                new PaymentMethodInput.Bank("capitec"), true, null))).isInstanceOf(ActionRequired.class);
        approve(sandbox.decide(bank, SandboxProcessor.Decision.APPROVE));
        List<String> sales = new ArrayList<>(List.of(bank));
        for (String app : List.of("capitec_pay", "mobile_money")) {
            String key = paymentKey();
            assertThat(processor.authorize(new PaymentProcessor.Authorize(key, 3000, "ZAR",
                    new PaymentMethodInput.Phone(app, "+27821234567"), true, null))).isInstanceOf(ActionRequired.class);
            approve(processor.status(key));
            sales.add(key);
        }

        for (String sale : sales) {
            assertThat(refund(sale, 3000)).as(sale).isInstanceOf(Approved.class);
            assertThat(refund(sale, 1)).as(sale).satisfies(declined("invalid_request", "amount_too_large"));
        }
    }

    @Test
    void declinesARefundWhoseAmountEndsIn51AndLeavesTheCaptureToRefund() {
        String sale = sale(10000);

        assertThat(refund(sale, 5051)).satisfies(declined("refund_declined", "declined"));
        assertThat(refund(sale, 10000)).isInstanceOf(Approved.class);
    }

    @Test
    void acceptsARefundWhoseAmountEndsIn52AndApprovesItByItsStatusAfterTheRefundDelay() {
        String sale = sale(10000);
        String refund = refundKey();
        Instant sent = Instant.now();

        ProcessorOutcome outcome = processor.refund(new PaymentProcessor.Refund(refund, sale, 2052, "ZAR"));

        assertThat(outcome).isInstanceOf(Accepted.class);
        Map<String, Object> reference = ((Accepted) outcome).reference();
        assertThat(reference).containsKey("processor_reference");
        assertThat(processor.status(refund)).isInstanceOf(Accepted.class);
        // On its way, it already counts against what was captured.
        assertThat(refund(sale, 7949)).satisfies(declined("invalid_request", "amount_too_large"));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> processor.status(refund) instanceof Approved);
        assertThat(Duration.between(sent, Instant.now())).isGreaterThanOrEqualTo(REFUND_DELAY);
        assertThat(processor.status(refund)).isEqualTo(new Approved(2052, "ZAR", null, reference));
        assertThat(refund(sale, 7948)).isInstanceOf(Approved.class);
    }

    @Test
    void aRefundWhoseAmountEndsIn53IsUnknownToTheCallerAndApprovedByItsStatus() {
        String sale = sale(10000);
        String refund = refundKey();
        PaymentProcessor.Refund call = new PaymentProcessor.Refund(refund, sale, 3053, "ZAR");

        assertThat(processor.refund(call)).isInstanceOf(Unknown.class);

        assertThat(processor.status(refund)).isInstanceOfSatisfying(Approved.class,
                a -> assertThat(a.amount()).isEqualTo(3053));
        assertThat(refund(sale, 6948)).satisfies(declined("invalid_request", "amount_too_large"));
        assertThat(refund(sale, 6947)).isInstanceOf(Approved.class);
    }

    @Test
    void aStatusQueryForARefundNeverReceivedFencesItsKey() {
        String sale = sale(10000);
        String refund = refundKey();

        assertThat(processor.status(refund)).isInstanceOfSatisfying(Declined.class,
                d -> assertThat(d.neverReceived()).isTrue());

        // The refund arriving late is not acted on: Tender was told nothing moved, and sends it again as ~2.
        assertThat(processor.refund(new PaymentProcessor.Refund(refund, sale, 4000, "ZAR")))
                .isInstanceOfSatisfying(Declined.class, d -> assertThat(d.neverReceived()).isTrue());
        assertThat(processor.refund(new PaymentProcessor.Refund(refund + "~2", sale, 10000, "ZAR")))
                .isInstanceOf(Approved.class);
        assertThat(sandbox.ledger()).filteredOn(row -> row.get("operation_key").equals(refund)).singleElement()
                .satisfies(row -> assertThat(row).containsEntry("kind", "fenced"));
    }

    @Test
    void aRefundKeyIsAnsweredOnceAndGivesMoneyBackOnce() {
        String sale = sale(10000);
        String refund = refundKey();
        ProcessorOutcome first = processor.refund(new PaymentProcessor.Refund(refund, sale, 3000, "ZAR"));

        ProcessorOutcome again = processor.refund(new PaymentProcessor.Refund(refund, sale, 3000, "ZAR"));
        ProcessorOutcome otherAmount = processor.refund(new PaymentProcessor.Refund(refund, sale, 9000, "ZAR"));

        assertThat(first).isInstanceOf(Approved.class);
        assertThat(again).isEqualTo(first);
        assertThat(otherAmount).isEqualTo(first);
        assertThat(refund(sale, 7000)).isInstanceOf(Approved.class);
        assertThat(refund(sale, 1)).satisfies(declined("invalid_request", "amount_too_large"));
    }

    @Test
    void refundsSentAtOnceNeverAddUpToMoreThanWasCaptured() throws Exception {
        String sale = sale(10000);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<ProcessorOutcome>> answers = new ArrayList<>();
        try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
            for (int i = 0; i < 4; i++) {
                answers.add(threads.submit(() -> {
                    start.await();
                    return refund(sale, 4000);
                }));
            }
            start.countDown();
        }

        List<ProcessorOutcome> outcomes = new ArrayList<>();
        for (Future<ProcessorOutcome> answer : answers) {
            outcomes.add(answer.get());
        }
        assertThat(outcomes).filteredOn(Approved.class::isInstance).hasSize(2);
        assertThat(outcomes).filteredOn(Declined.class::isInstance).hasSize(2);
    }

    private ProcessorOutcome refund(String authorizationKey, long amount) {
        return processor.refund(new PaymentProcessor.Refund(refundKey(), authorizationKey, amount, "ZAR"));
    }

    private String sale(long amount) {
        String key = paymentKey();
        approve(processor.authorize(new PaymentProcessor.Authorize(key, amount, "ZAR", CARD, true, null)));
        return key;
    }

    private String authorization(long amount) {
        String key = paymentKey();
        approve(processor.authorize(new PaymentProcessor.Authorize(key, amount, "ZAR", CARD, false, null)));
        return key;
    }

    private static void approve(ProcessorOutcome outcome) {
        assertThat(outcome).isInstanceOf(Approved.class);
    }

    private static java.util.function.Consumer<ProcessorOutcome> declined(String errorCode, String declineCode) {
        return outcome -> assertThat(outcome).isInstanceOfSatisfying(Declined.class, d -> {
            assertThat(d.errorCode()).isEqualTo(errorCode);
            assertThat(d.declineCode()).isEqualTo(declineCode);
        });
    }

    private static String paymentKey() {
        return "pay_" + UUID.randomUUID() + ":authorize";
    }

    private static String refundKey() {
        return "rfd_" + UUID.randomUUID() + ":refund";
    }
}
