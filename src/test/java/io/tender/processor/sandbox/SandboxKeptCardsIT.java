package io.tender.processor.sandbox;

import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorOutcome.ActionRequired;
import io.tender.processor.ProcessorOutcome.Approved;
import io.tender.processor.ProcessorOutcome.Declined;
import io.tender.processor.ProcessorOutcome.Unknown;
import io.tender.support.LiveProvidersIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sandbox processor's kept cards (decisions §8) through the {@link PaymentProcessor} interface, on the service's
 * database: an authorization that asks to keep the card is approved with a reusable token, and the card charged later
 * by that token, without the customer, behaves as the number of its first payment said. The 3-D Secure card is kept
 * only once the customer approves. The token is a credential: the ledger the simulator shows never carries it.
 */
class SandboxKeptCardsIT extends LiveProvidersIntegrationTest {

    private static final String APPROVES = "4242424242424242";
    private static final String APPROVES_DEBIT = "5555555555554444";
    private static final String DECLINED = "4000000000000002";

    @Autowired
    private SandboxProcessor sandbox;

    @Autowired
    private JdbcClient jdbc;

    private PaymentProcessor processor;

    @BeforeEach
    void processor() {
        processor = sandbox;
    }

    @Test
    void anAuthorizationThatAsksToKeepEachSeriesCardIsApprovedWithANewTokenAndOneThatDoesNotWithNone() {
        List<String> tokens = new ArrayList<>();
        for (String number : List.of(APPROVES, APPROVES_DEBIT, SandboxProcessor.LATER_DECLINED,
                SandboxProcessor.LATER_INSUFFICIENT_FUNDS)) {
            ProcessorOutcome kept = processor.authorize(firstInSeries(paymentKey(), number));
            ProcessorOutcome notKept = processor.authorize(
                    new PaymentProcessor.Authorize(paymentKey(), 9900, "ZAR", card(number), true, null));

            assertThat(kept).as(number).isInstanceOfSatisfying(Approved.class, a -> {
                assertThat(a.amount()).isEqualTo(9900);
                assertThat(a.methodToken()).startsWith("sbxtok_");
                assertThat(a.toString()).doesNotContain(a.methodToken());
                tokens.add(a.methodToken());
            });
            assertThat(notKept).as(number).isInstanceOfSatisfying(Approved.class,
                    a -> assertThat(a.methodToken()).isNull());
        }
        assertThat(tokens).doesNotHaveDuplicates();
    }

    @Test
    void aDeclinedCardIsNotKeptEvenWhenTheAuthorizationAsksTo() {
        long keptBefore = keptCards();

        assertThat(processor.authorize(firstInSeries(paymentKey(), DECLINED)))
                .satisfies(declined("card_declined", "generic_decline"));
        assertThat(keptCards()).isEqualTo(keptBefore);
    }

    @Test
    void aKeptCardIsApprovedEveryTimeItIsChargedWithoutTheCustomerWithTheFundingOfItsFirstPayment() {
        String credit = keep(APPROVES);
        String debit = keep(APPROVES_DEBIT);

        for (int charge = 0; charge < 2; charge++) {
            assertThat(processor.authorize(later(paymentKey(), credit, 4500)))
                    .isInstanceOfSatisfying(Approved.class, a -> {
                        assertThat(a.amount()).isEqualTo(4500);
                        assertThat(a.currency()).isEqualTo("ZAR");
                        assertThat(a.funding()).isEqualTo("CREDIT");
                        assertThat(a.reference()).containsKey("processor_reference");
                        assertThat(a.methodToken()).isNull();
                    });
        }
        assertThat(processor.authorize(later(paymentKey(), debit, 4500)))
                .isInstanceOfSatisfying(Approved.class, a -> assertThat(a.funding()).isEqualTo("DEBIT"));
    }

    @Test
    void aKeptCardsAuthorizationWithoutCaptureIsCapturedLikeAnyOther() {
        String token = keep(APPROVES);
        String authorization = paymentKey();

        assertThat(processor.authorize(new PaymentProcessor.Authorize(authorization, 6000, "ZAR",
                new PaymentMethodInput.Saved(token), false, null))).isInstanceOf(Approved.class);

        assertThat(processor.capture(new PaymentProcessor.Capture(authorization.replace(":authorize", ":capture"),
                authorization, 6000, "ZAR"))).isInstanceOf(Approved.class);
        assertThat(sandbox.ledger()).filteredOn(row -> row.get("operation_key").equals(authorization)).singleElement()
                .satisfies(row -> assertThat(row).containsEntry("kind", "authorize").containsEntry("result", "approved"));
    }

    @Test
    void theHardDeclineCardIsDeclinedCardDeclinedOnEveryLaterCharge() {
        String token = keep(SandboxProcessor.LATER_DECLINED);

        for (int charge = 0; charge < 2; charge++) {
            assertThat(processor.authorize(later(paymentKey(), token, 9900)))
                    .satisfies(declined("card_declined", "generic_decline"));
        }
    }

    @Test
    void theSoftDeclineCardIsDeclinedInsufficientFundsOnEveryLaterCharge() {
        String token = keep(SandboxProcessor.LATER_INSUFFICIENT_FUNDS);

        for (int charge = 0; charge < 2; charge++) {
            assertThat(processor.authorize(later(paymentKey(), token, 9900)))
                    .satisfies(declined("card_declined", "insufficient_funds"));
        }
    }

    @Test
    void theThreeDSecureCardIsKeptOnlyWhenTheCustomerApprovesAndItsLaterChargesAreDeclinedAuthenticationRequired() {
        String first = paymentKey();

        assertThat(processor.authorize(firstInSeries(first, SandboxProcessor.THREE_D_SECURE)))
                .isInstanceOf(ActionRequired.class);
        assertThat(processor.status(first)).isInstanceOf(ActionRequired.class);

        ProcessorOutcome approved = sandbox.decide(first, SandboxProcessor.Decision.APPROVE);

        assertThat(approved).isInstanceOfSatisfying(Approved.class, a -> {
            assertThat(a.amount()).isEqualTo(9900);
            assertThat(a.funding()).isEqualTo("CREDIT");
            assertThat(a.methodToken()).startsWith("sbxtok_");
        });
        // The status query gives the same token (Tender asks after a 3-D Secure payment; it never sees decide).
        assertThat(processor.status(first)).isEqualTo(approved);
        String token = ((Approved) approved).methodToken();
        for (int charge = 0; charge < 2; charge++) {
            // Never action_required: nobody is there to authenticate.
            assertThat(processor.authorize(later(paymentKey(), token, 9900)))
                    .satisfies(declined("authentication_required", "authentication_required"));
        }
    }

    @Test
    void aThreeDSecureChallengeTheCustomerDeclinesKeepsNoCard() {
        String first = paymentKey();
        long keptBefore = keptCards();
        assertThat(processor.authorize(firstInSeries(first, SandboxProcessor.THREE_D_SECURE)))
                .isInstanceOf(ActionRequired.class);

        assertThat(sandbox.decide(first, SandboxProcessor.Decision.DECLINE))
                .satisfies(declined("card_declined", "authentication_failed"));

        assertThat(processor.status(first)).satisfies(declined("card_declined", "authentication_failed"));
        // Deciding again changes nothing: the authorization no longer waits.
        assertThat(sandbox.decide(first, SandboxProcessor.Decision.APPROVE))
                .satisfies(declined("card_declined", "authentication_failed"));
        assertThat(keptCards()).isEqualTo(keptBefore);
    }

    @Test
    void aThreeDSecureCardApprovedWithoutAskingToKeepItHasNoToken() {
        String first = paymentKey();
        assertThat(processor.authorize(new PaymentProcessor.Authorize(first, 9900, "ZAR",
                card(SandboxProcessor.THREE_D_SECURE), true, null))).isInstanceOf(ActionRequired.class);

        assertThat(sandbox.decide(first, SandboxProcessor.Decision.APPROVE))
                .isInstanceOfSatisfying(Approved.class, a -> assertThat(a.methodToken()).isNull());
    }

    @Test
    void theSameKeyIsAnsweredWithTheFirstApprovalAndItsTokenAndKeepsOneCard() {
        String first = paymentKey();
        ProcessorOutcome answer = processor.authorize(firstInSeries(first, APPROVES));
        long keptAfterFirst = keptCards();

        // The same key again, even with another card: the first answer, no second card.
        ProcessorOutcome again = processor.authorize(firstInSeries(first, APPROVES));
        ProcessorOutcome otherCard = processor.authorize(firstInSeries(first, SandboxProcessor.LATER_DECLINED));

        assertThat(answer).isInstanceOfSatisfying(Approved.class, a -> assertThat(a.methodToken()).isNotNull());
        assertThat(again).isEqualTo(answer);
        assertThat(otherCard).isEqualTo(answer);
        assertThat(processor.status(first)).isEqualTo(answer);
        assertThat(keptCards()).isEqualTo(keptAfterFirst);
    }

    @Test
    void theSameKeyChargingAKeptCardIsAnsweredWithTheFirstAnswer() {
        String token = keep(APPROVES);
        String charge = paymentKey();
        ProcessorOutcome first = processor.authorize(later(charge, token, 4500));

        assertThat(processor.authorize(later(charge, token, 4500))).isEqualTo(first);
        assertThat(processor.authorize(later(charge, token, 7000))).isEqualTo(first);
        assertThat(processor.authorize(later(charge, "sbxtok_unknown", 4500))).isEqualTo(first);
        assertThat(first).isInstanceOfSatisfying(Approved.class, a -> assertThat(a.amount()).isEqualTo(4500));
        assertThat(sandbox.ledger()).filteredOn(row -> row.get("operation_key").equals(charge)).hasSize(1);
    }

    @Test
    void aCardKeptByAnApprovalWhoseAnswerWasLostIsFoundWithItsTokenByTheStatusQuery() {
        String first = paymentKey();

        assertThat(processor.authorize(firstInSeries(first, SandboxProcessor.TIMES_OUT_AFTER_APPROVING)))
                .isInstanceOf(Unknown.class);

        ProcessorOutcome status = processor.status(first);
        assertThat(status).isInstanceOfSatisfying(Approved.class, a -> assertThat(a.methodToken()).startsWith("sbxtok_"));
        assertThat(processor.authorize(later(paymentKey(), ((Approved) status).methodToken(), 9900)))
                .isInstanceOf(Approved.class);
    }

    @Test
    void aTokenTheProcessorNeverIssuedIsDeclinedMethodNotFound() {
        String charge = paymentKey();

        assertThat(processor.authorize(later(charge, "sbxtok_" + UUID.randomUUID().toString().replace("-", ""), 9900)))
                .satisfies(declined("invalid_request", "method_not_found"));
        assertThat(processor.status(charge)).satisfies(declined("invalid_request", "method_not_found"));
    }

    @Test
    void theLedgerListsKeptCardsCallsButNeverTheirTokens() {
        String first = paymentKey();
        String charge = paymentKey();
        String token = keep(first, APPROVES);
        assertThat(processor.authorize(later(charge, token, 4500))).isInstanceOf(Approved.class);

        var rows = sandbox.ledger().stream()
                .filter(row -> row.get("operation_key").equals(first) || row.get("operation_key").equals(charge))
                .toList();

        assertThat(rows).hasSize(2).allSatisfy(row -> {
            assertThat(row).containsEntry("kind", "sale").containsEntry("result", "approved");
            assertThat(row.values()).noneSatisfy(value -> assertThat(String.valueOf(value)).contains("sbxtok_"));
        });
    }

    /** A first_in_series sale of this card that keeps it; returns the token. */
    private String keep(String number) {
        return keep(paymentKey(), number);
    }

    private String keep(String key, String number) {
        ProcessorOutcome outcome = processor.authorize(firstInSeries(key, number));
        assertThat(outcome).isInstanceOf(Approved.class);
        return ((Approved) outcome).methodToken();
    }

    private long keptCards() {
        return jdbc.sql("select count(*) from sandbox_processor_methods").query(Long.class).single();
    }

    private static PaymentProcessor.Authorize firstInSeries(String key, String number) {
        return new PaymentProcessor.Authorize(key, 9900, "ZAR", card(number), true, null, true);
    }

    private static PaymentProcessor.Authorize later(String key, String token, long amount) {
        PaymentProcessor.Authorize call = new PaymentProcessor.Authorize(key, amount, "ZAR",
                new PaymentMethodInput.Saved(token), true, null);
        assertThat(call.offSession()).isTrue();
        return call;
    }

    private static PaymentMethodInput.Card card(String number) {
        return new PaymentMethodInput.Card(number, 12, 2040, "123");
    }

    private static Consumer<ProcessorOutcome> declined(String errorCode, String declineCode) {
        return outcome -> assertThat(outcome).isInstanceOfSatisfying(Declined.class, d -> {
            assertThat(d.errorCode()).isEqualTo(errorCode);
            assertThat(d.declineCode()).isEqualTo(declineCode);
        });
    }

    private static String paymentKey() {
        return "pay_" + UUID.randomUUID() + ":authorize";
    }
}
