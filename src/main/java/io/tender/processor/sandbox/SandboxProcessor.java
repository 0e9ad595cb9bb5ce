package io.tender.processor.sandbox;

import io.tender.api.Ids;
import io.tender.processor.PaymentMethodInput;
import io.tender.processor.PaymentProcessor;
import io.tender.processor.ProcessorOutcome;
import io.tender.processor.ProcessorOutcome.ActionRequired;
import io.tender.processor.ProcessorOutcome.Approved;
import io.tender.processor.ProcessorOutcome.Declined;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * The sandbox processor of decisions §6. Cards: {@code 4242424242424242} approved (VISA, CREDIT),
 * {@code 5555555555554444} approved (MASTERCARD, DEBIT), {@code 4000000000000002} declined {@code card_declined},
 * {@code 4000000000009995} declined {@code insufficient_funds}, {@code 4000000000003220} 3-D Secure (the customer
 * approves or declines on the sandbox page), {@code 4000000000000119} approved but the answer is lost (a timeout:
 * its status says approved); any other card approved. Kept cards charged later: see {@link #chargeKept}. Pay by bank: a sandbox bank page (approve, decline, cancel).
 * Bank app and mobile money: a phone ending {@code 0002} is declined, any other approves by itself
 * {@code approval-delay} later. Refunds of captured money, for every method: see {@link #refund}. A card approved
 * for an authorization that asked to keep it is kept under a reusable token, and charged later without the customer
 * as decisions §8's series cards say: see {@link #chargeKept}. Each call is its own transaction, the way a real
 * processor is a separate system.
 */
@Component
public class SandboxProcessor implements PaymentProcessor {

    public static final String TIMES_OUT_AFTER_APPROVING = "4000000000000119";

    /** A refund whose amount ends in these two digits (minor units) is declined. */
    public static final int REFUND_DECLINED = 51;
    /** … is accepted, and approved {@code refund-delay} later. */
    public static final int REFUND_LATER = 52;
    /** … is approved, but the answer is lost (a timeout: its status says approved). */
    public static final int REFUND_TIMES_OUT_AFTER_APPROVING = 53;

    /** A kept card whose later charges are all declined {@code card_declined} (a hard decline). */
    public static final String LATER_DECLINED = "4000000000000341";
    /** A kept card whose later charges are all declined {@code insufficient_funds} (a soft decline). */
    public static final String LATER_INSUFFICIENT_FUNDS = "4000000000004954";
    /**
     * Ours, for the tours: a kept card whose first later charge is declined {@code insufficient_funds} (a soft decline)
     * and every one after it approved, so a subscription's retry succeeds.
     */
    public static final String LATER_DECLINED_ONCE = "4000000000000267";
    /**
     * Ours, for unknown outcomes without the customer: a kept card whose later charges are approved but whose answers
     * are lost (a timeout: the status query says approved), as a subscription's charge may meet.
     */
    public static final String LATER_ANSWER_LOST = "4000000000000150";
    /** The 3-D Secure card: kept, its later charges need the customer ({@code authentication_required}). */
    public static final String THREE_D_SECURE = "4000000000003220";

    /** How the customer finished a sandbox 3-D Secure or bank page. */
    public enum Decision {
        APPROVE, DECLINE, CANCEL
    }

    private final SandboxProcessorLedger ledger;
    private final TransactionTemplate tx;
    private final Duration approvalDelay;
    private final Duration refundDelay;

    SandboxProcessor(SandboxProcessorLedger ledger, TransactionTemplate tx,
                     SandboxProcessorSettings settings) {
        this.ledger = ledger;
        this.tx = new TransactionTemplate(Objects.requireNonNull(tx.getTransactionManager()));
        this.tx.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
        this.approvalDelay = settings.approvalDelay();
        this.refundDelay = settings.refundDelay();
    }

    @Override
    public ProcessorOutcome authorize(Authorize call) {
        if (call.method() instanceof PaymentMethodInput.Saved kept) {
            // The subscriptions' hot path: the same once-only answer, in two round trips (the ledger's).
            var answerLost = new java.util.concurrent.atomic.AtomicBoolean();
            ProcessorOutcome outcome = ledger.chargeKeptOnce(call.operationKey(), kept.token(), (card, charged) -> {
                answerLost.set(card.isPresent() && card.get().behaviour().equals("approve_answer_lost"));
                // Approved and recorded, but the caller never hears it, nor the status query until approval-delay.
                return entry(call, chargeKept(call, card, charged),
                        answerLost.get() ? Instant.now().plus(approvalDelay) : null, null);
            });
            return answerLost.get() ? new ProcessorOutcome.Unknown("The processor did not answer in time") : outcome;
        }
        ProcessorOutcome outcome = once(call.operationKey(), () -> switch (call.method()) {
            case PaymentMethodInput.Card card -> card(call, card);
            case PaymentMethodInput.Saved kept -> throw new IllegalStateException("answered above");
            case PaymentMethodInput.Bank bank ->
                    answered(call, new ActionRequired("bank_login", null));
            case PaymentMethodInput.Phone phone -> phone.phoneNumber().endsWith("0002")
                    ? answered(call, new Declined("payment_declined", "declined_by_customer",
                    "The customer declined the payment in the app"))
                    : entry(call, new ActionRequired("app_approval", null), Instant.now().plus(approvalDelay), null);
        });
        if (call.method() instanceof PaymentMethodInput.Card card && card.number().equals(TIMES_OUT_AFTER_APPROVING)
                && outcome instanceof Approved) {
            // Approved and recorded, but the caller never hears it.
            return new ProcessorOutcome.Unknown("The processor did not answer in time");
        }
        return outcome;
    }

    private SandboxProcessorLedger.Entry card(Authorize call, PaymentMethodInput.Card card) {
        // How the card behaves when charged later, if the call asked to keep it (decided now: the number is not kept).
        String keeps = !call.storeMethod() ? null : switch (card.number()) {
            case LATER_DECLINED -> "decline_hard";
            case LATER_INSUFFICIENT_FUNDS -> "decline_soft";
            case LATER_DECLINED_ONCE -> "decline_soft_once";
            case LATER_ANSWER_LOST -> "approve_answer_lost";
            case THREE_D_SECURE -> "authenticate";
            default -> "approve";
        };
        return switch (card.number()) {
            case "4000000000000002" -> answered(call, new Declined("card_declined", "generic_decline",
                    "The card was declined"));
            case "4000000000009995" -> answered(call, new Declined("card_declined", "insufficient_funds",
                    "The card has insufficient funds"));
            case THREE_D_SECURE -> entry(call, new ActionRequired("three_d_secure", null), null, "CREDIT")
                    .keeping(keeps);
            default -> {
                String funding = card.number().startsWith("5555") ? "DEBIT" : "CREDIT";
                Approved approved = approved(call.amount(), call.currency(), funding);
                yield entry(call, keeps == null ? approved : kept(approved, keeps, funding), null, funding);
            }
        };
    }

    /** The approval with the token of the card it keeps from now on, charged later as {@code behaviour} says. */
    private Approved kept(Approved approved, String behaviour, String funding) {
        String token = ledger.keepCard(behaviour, funding);
        return new Approved(approved.amount(), approved.currency(), approved.funding(), approved.reference(), token);
    }

    /**
     * A kept card charged without the customer (decisions §8): {@value #LATER_DECLINED} declined {@code card_declined}
     * (hard), {@value #LATER_INSUFFICIENT_FUNDS} declined {@code insufficient_funds} (soft), {@value #THREE_D_SECURE}
     * declined {@code authentication_required} (the customer would have to act, and is not there),
     * {@value #LATER_DECLINED_ONCE} declined {@code insufficient_funds} the first time and approved after,
     * {@value #LATER_ANSWER_LOST} approved with its answer lost, and the status query silent too until
     * {@code approval-delay} later (see {@link #authorize}, {@link #status}); any other approved. A token
     * it never issued is declined {@code invalid_request}.
     */
    private ProcessorOutcome chargeKept(Authorize call, Optional<SandboxProcessorLedger.KeptCard> card,
                                        IntSupplier charged) {
        if (card.isEmpty()) {
            return new Declined("invalid_request", "method_not_found", "No card is kept under this token");
        }
        // Only the card that changes with its charges counts them (a row every charge would queue on).
        int earlier = card.get().behaviour().equals("decline_soft_once") ? charged.getAsInt() : 0;
        return switch (card.get().behaviour()) {
            case "decline_hard" -> new Declined("card_declined", "generic_decline", "The card was declined");
            case "decline_soft" -> new Declined("card_declined", "insufficient_funds", "The card has insufficient funds");
            case "decline_soft_once" -> earlier == 0
                    ? new Declined("card_declined", "insufficient_funds", "The card has insufficient funds")
                    : approved(call.amount(), call.currency(), card.get().funding());
            case "authenticate" -> new Declined("authentication_required", "authentication_required",
                    "The card needs the customer to authenticate this payment");
            default -> approved(call.amount(), call.currency(), card.get().funding());
        };
    }

    /** The call's entry answered at once with {@code outcome}, which moves no money later and has no card funding. */
    private static SandboxProcessorLedger.Entry answered(Authorize call, ProcessorOutcome outcome) {
        return entry(call, outcome, null, null);
    }

    private static SandboxProcessorLedger.Entry entry(Authorize call, ProcessorOutcome outcome, Instant approveAt,
                                                      String funding) {
        return new SandboxProcessorLedger.Entry(call.operationKey(), call.capture() ? "sale" : "authorize", null,
                call.amount(), call.currency(), outcome, approveAt, funding, null);
    }

    private static Approved approved(long amount, String currency, String funding) {
        return new Approved(amount, currency, funding, reference());
    }

    private static Map<String, Object> reference() {
        return Map.of("processor_reference", "sbx_" + Ids.randomHex(12));
    }

    /**
     * Gives back part or all of what was captured under an approved {@code sale}, or an {@code authorize} with
     * captures, whatever the method. Refused ({@code invalid_request}) for an authorization it does not know, in
     * another currency, or beyond what was captured less the refunds that were approved or accepted. By the amount's
     * last two digits: {@value #REFUND_DECLINED} declined, {@value #REFUND_LATER} accepted and approved
     * {@code refund-delay} later, {@value #REFUND_TIMES_OUT_AFTER_APPROVING} approved but the answer is lost; any
     * other approved.
     */
    @Override
    public ProcessorOutcome refund(Refund call) {
        ProcessorOutcome outcome = tx.execute(s -> {
            ledger.lock(call.authorizationKey());
            return answerOnce(call.operationKey(), () -> {
                ProcessorOutcome answer = refundable(call).orElseGet(() -> switch ((int) (call.amount() % 100)) {
                    case REFUND_DECLINED -> new Declined("refund_declined", "declined", "The refund was declined");
                    case REFUND_LATER -> new ProcessorOutcome.Accepted(reference());
                    default -> approved(call.amount(), call.currency(), null);
                });
                Instant approveAt = answer instanceof ProcessorOutcome.Accepted
                        ? Instant.now().plus(refundDelay) : null;
                return SandboxProcessorLedger.Entry.answered(call.operationKey(), "refund", call.authorizationKey(),
                        call.amount(), call.currency(), answer).approvingAt(approveAt);
            });
        });
        if (call.amount() % 100 == REFUND_TIMES_OUT_AFTER_APPROVING && outcome instanceof Approved) {
            // Approved and recorded, but the caller never hears it.
            return new ProcessorOutcome.Unknown("The processor did not answer in time");
        }
        return outcome;
    }

    /** Why the refund cannot be taken at all, if it cannot (inside the lock on its authorization). */
    private java.util.Optional<ProcessorOutcome> refundable(Refund call) {
        var authorization = current(call.authorizationKey());
        if (authorization.isEmpty() || !(authorization.get().outcome() instanceof Approved approved)
                || !(authorization.get().kind().equals("sale") || authorization.get().kind().equals("authorize"))) {
            return java.util.Optional.of(new Declined("invalid_request", "authorization_not_found",
                    "No approved authorization"));
        }
        if (call.amount() <= 0 || !call.currency().equals(approved.currency())) {
            return java.util.Optional.of(new Declined("invalid_request", "invalid_amount",
                    "A refund is a positive amount in the authorization's currency"));
        }
        long captured = authorization.get().kind().equals("sale") ? approved.amount()
                : ledger.captured(call.authorizationKey());
        if (call.amount() > captured - ledger.refunded(call.authorizationKey())) {
            return java.util.Optional.of(new Declined("invalid_request", "amount_too_large",
                    "The refund exceeds what was captured and not yet refunded"));
        }
        return java.util.Optional.empty();
    }

    @Override
    public ProcessorOutcome capture(Capture call) {
        return onAuthorization(call.operationKey(), call.authorizationKey(), authorization -> {
            ProcessorOutcome outcome;
            if (authorization.isEmpty() || !(authorization.get().outcome() instanceof Approved approved)
                    || !authorization.get().kind().equals("authorize")) {
                outcome = new Declined("invalid_request", "authorization_not_found", "No approved authorization");
            } else if (call.amount() > approved.amount() - ledger.used(call.authorizationKey())) {
                outcome = new Declined("invalid_request", "amount_too_large",
                        "The capture exceeds what remains of the authorization");
            } else {
                outcome = approved(call.amount(), call.currency(), null);
            }
            return SandboxProcessorLedger.Entry.answered(call.operationKey(), "capture", call.authorizationKey(),
                    call.amount(), call.currency(), outcome);
        });
    }

    @Override
    public ProcessorOutcome release(Release call) {
        return onAuthorization(call.operationKey(), call.authorizationKey(), authorization -> {
            long released = 0;
            if (authorization.isEmpty()) {
                // Never received: fence it, so that it can never be approved later.
                ledger.record(SandboxProcessorLedger.Entry.fenced(call.authorizationKey(), call.currency(),
                        Declined.notReceived("Cancelled before it arrived")));
            } else if (authorization.get().outcome() instanceof ActionRequired) {
                ledger.settle(call.authorizationKey(), new Declined("payment_cancelled", "cancelled",
                        "The authorization was cancelled before the customer finished"));
            } else if (authorization.get().outcome() instanceof Approved approved
                    && authorization.get().kind().equals("authorize")) {
                released = approved.amount() - ledger.used(call.authorizationKey());
            }
            return SandboxProcessorLedger.Entry.answered(call.operationKey(), "void", call.authorizationKey(),
                    released, call.currency(), approved(released, call.currency(), null));
        });
    }

    @Override
    public ProcessorOutcome status(String operationKey) {
        return tx.execute(s -> {
            ledger.lock(operationKey);
            var entry = current(operationKey);
            if (entry.isPresent() && entry.get().outcome() instanceof Approved && entry.get().approveAt() != null) {
                // A kept card's charge whose answer is lost: the status query does not answer either, until later.
                return new ProcessorOutcome.Unknown("The processor did not answer in time");
            }
            return entry.map(SandboxProcessorLedger.Entry::outcome).orElseGet(() -> {
                ProcessorOutcome fenced = Declined.notReceived("The processor never received this request");
                ledger.record(SandboxProcessorLedger.Entry.fenced(operationKey, "ZAR", fenced));
                return fenced;
            });
        });
    }

    /**
     * The customer's answer on a sandbox 3-D Secure or bank page, for an authorization waiting for it; returns the
     * authorization's outcome afterwards (unchanged if it was not waiting).
     */
    public ProcessorOutcome decide(String operationKey, Decision decision) {
        return tx.execute(s -> {
            ledger.lock(operationKey);
            var entry = current(operationKey);
            if (entry.isEmpty()) {
                return Declined.notReceived("No such authorization");
            }
            if (entry.get().outcome() instanceof ActionRequired) {
                var waiting = entry.get();
                ledger.settle(operationKey, switch (decision) {
                    case APPROVE -> waiting.keeps() == null
                            ? approved(waiting.amount(), waiting.currency(), waiting.funding())
                            : kept(approved(waiting.amount(), waiting.currency(), waiting.funding()), waiting.keeps(),
                            waiting.funding());
                    case DECLINE -> entry.get().funding() != null
                            ? new Declined("card_declined", "authentication_failed",
                            "The customer did not authenticate the payment")
                            : new Declined("payment_declined", "declined_by_customer",
                            "The customer declined the payment at the bank");
                    case CANCEL -> new Declined("payment_cancelled", "cancelled", "The customer cancelled at the bank");
                });
            }
            return current(operationKey).orElseThrow().outcome();
        });
    }

    /**
     * The entry, with an app approval or an accepted refund whose time has come turned into an approval (a refund
     * keeps the reference it was accepted with).
     */
    private Optional<SandboxProcessorLedger.Entry> current(String operationKey) {
        var entry = ledger.find(operationKey);
        if (entry.isPresent() && entry.get().approveAt() != null && !entry.get().approveAt().isAfter(Instant.now())) {
            var e = entry.get();
            switch (e.outcome()) {
                case ActionRequired r -> ledger.settle(operationKey, approved(e.amount(), e.currency(), null));
                case ProcessorOutcome.Accepted a -> ledger.settle(operationKey,
                        new Approved(e.amount(), e.currency(), null, a.reference()));
                case Approved a -> ledger.settle(operationKey, a);
                default -> {
                }
            }
            entry = ledger.find(operationKey);
        }
        return entry;
    }

    /** Answers a call once: the same key again gets the first answer, as at a real processor. */
    private ProcessorOutcome once(String operationKey, Supplier<SandboxProcessorLedger.Entry> work) {
        return tx.execute(s -> answerOnce(operationKey, work));
    }

    /**
     * A call on an authorization (a capture or a void), answered once, under the authorization's lock so that calls
     * on it take their turns: {@code answer} gets the authorization as it stands.
     */
    private ProcessorOutcome onAuthorization(
            String operationKey, String authorizationKey,
            Function<Optional<SandboxProcessorLedger.Entry>, SandboxProcessorLedger.Entry> answer) {
        return tx.execute(s -> {
            ledger.lock(authorizationKey);
            return answerOnce(operationKey, () -> answer.apply(current(authorizationKey)));
        });
    }

    /** {@link #once} inside the caller's sandbox transaction. */
    private ProcessorOutcome answerOnce(String operationKey, Supplier<SandboxProcessorLedger.Entry> work) {
        ledger.lock(operationKey);
        var earlier = ledger.find(operationKey);
        if (earlier.isPresent()) {
            return earlier.get().outcome();
        }
        SandboxProcessorLedger.Entry entry = work.get();
        ledger.record(entry);
        return entry.outcome();
    }

    /** Every answered call (the simulator's ledger shows it). */
    public List<Map<String, Object>> ledger() {
        return ledger.entries().stream().map(e -> {
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            row.put("operation_key", e.operationKey());
            row.put("kind", e.kind());
            if (e.authorizationKey() != null) {
                row.put("authorization_key", e.authorizationKey());
            }
            row.put("amount", e.amount());
            row.put("result", switch (e.outcome()) {
                case Approved a -> "approved";
                case Declined d -> "declined";
                case ActionRequired r -> "action_required";
                case ProcessorOutcome.Accepted a -> "pending";
                case ProcessorOutcome.Unknown u -> "unknown";
            });
            return row;
        }).toList();
    }
}
