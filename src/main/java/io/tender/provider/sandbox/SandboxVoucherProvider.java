package io.tender.provider.sandbox;

import io.tender.api.Ids;
import io.tender.provider.ChangeVoucher;
import io.tender.provider.Masking;
import io.tender.provider.ProviderCapabilities;
import io.tender.provider.ProviderCapabilities.ChangeVoucherDelivery;
import io.tender.provider.ProviderOutcome;
import io.tender.provider.ProviderOutcome.Approved;
import io.tender.provider.ProviderOutcome.Declined;
import io.tender.provider.RedemptionType;
import io.tender.provider.VoucherProvider;
import io.tender.provider.VoucherSource;
import io.tender.provider.sandbox.SandboxVoucherLedger.Answer;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One sandbox provider (decisions §3). The last four characters of the PIN or token choose the behaviour:
 * {@code 0002} not found, {@code 0003} already used, {@code 0004} expired, {@code 0005} unreachable, {@code 0006} the
 * confirm times out after the provider redeemed (its status says so afterwards); anything else is
 * an unused voucher of the type's default value in ZAR. A voucher is single use: a redeem, full or partial, uses it,
 * and a partial redeem issues a change voucher for the remainder (in the response for INLINE types, by "SMS" else).
 * Each call runs in its own transaction on the sandbox's own tables, the way a real provider is a separate system
 * ({@link SandboxVoucherLedger#once}). A record: what it is made with is all it holds, and {@code type} and
 * {@code capabilities} answer the SPI as they are.
 */
record SandboxVoucherProvider(RedemptionType type, ProviderCapabilities capabilities, long defaultValue,
                              SandboxVoucherLedger ledger) implements VoucherProvider {

    private static final String CURRENCY = "ZAR";

    @Override
    public ProviderOutcome reserve(Reserve call) {
        return once(call.operationKey(), "reserve", call.source(), null, books -> {
            var voucher = books.voucher();
            Optional<Declined> refused = refusal(call.source(), call.currency(), call.amount(), voucher.balance());
            if (refused.isPresent()) {
                return new Answer(voucher.key(), call.amount() == null ? 0 : call.amount(), refused.get());
            }
            long amount = call.amount() == null ? voucher.balance() : call.amount();
            return new Answer(voucher.key(), amount,
                    new Approved(amount, CURRENCY, Map.of(secretName(), Masking.mask(call.source().secret()))));
        });
    }

    @Override
    public ProviderOutcome confirm(Confirm call) {
        ProviderOutcome outcome = confirmOnce(call);
        if (outcome instanceof Approved && suffix(call.source()).equals("0006")) {
            // The voucher is redeemed and the answer recorded, but the caller never hears it.
            return new ProviderOutcome.Unknown(type.errorCode("timeout"), "The provider did not answer in time");
        }
        return outcome;
    }

    private ProviderOutcome confirmOnce(Confirm call) {
        return once(call.operationKey(), "confirm", call.source(), call.reservationKey(), books -> {
            var voucher = books.voucher();
            if (call.reservationKey() == null) {
                Optional<Declined> refused = refusal(call.source(), call.currency(), call.amount(), voucher.balance());
                if (refused.isPresent()) {
                    return new Answer(voucher.key(), call.amount(), refused.get());
                }
            } else if (books.related()
                    .filter(r -> r.outcome() instanceof Approved && r.kind().equals("reserve")).isEmpty()) {
                return new Answer(voucher.key(), call.amount(),
                        new Declined(type.errorCode("reservation_not_found"), "No such reservation"));
            }
            if (suffix(call.source()).equals("0003")) {
                return new Answer(voucher.key(), call.amount(), alreadyUsed());
            }
            Optional<Long> balance = books.redeem(type, defaultValue);
            if (balance.isEmpty()) {
                return new Answer(voucher.key(), call.amount(), alreadyUsed());
            }
            if (call.amount() > balance.get()) {
                // A reservation made before the voucher changed hands; refuse, and give the voucher back.
                books.restore();
                return new Answer(voucher.key(), call.amount(),
                        new Declined(type.errorCode("insufficient_funds"), "The voucher's balance is too low"));
            }
            ChangeVoucher change = issueChange(books, balance.get() - call.amount());
            return new Answer(voucher.key(), call.amount(),
                    new Approved(call.amount(), CURRENCY, confirmReference(call.source()), change));
        });
    }

    @Override
    public ProviderOutcome reverse(Reverse call) {
        return once(call.operationKey(), "reverse", call.source(), call.reversedKey(), books -> {
            var voucher = books.voucher();
            var reversed = books.related();
            if (reversed.isEmpty() || !(reversed.get().outcome() instanceof Approved approved)) {
                // Nothing was taken under that key, so there is nothing to give back.
                return new Answer(voucher.key(), call.amount(),
                        new Approved(0, CURRENCY, Map.of("reversed", "nothing")));
            }
            if (reversed.get().kind().equals("confirm")) {
                books.restore();
                if (approved.changeVoucher() != null) {
                    books.withdraw(type, approved.changeVoucher().pin());
                }
            }
            return new Answer(voucher.key(), approved.amount(), new Approved(approved.amount(), CURRENCY,
                    Map.of("reversal_reference", Ids.randomHex(8))));
        });
    }

    @Override
    public Lookup lookup(VoucherSource source) {
        Optional<Declined> refused = refusal(source, null, null, Long.MAX_VALUE);
        if (refused.isPresent()) {
            return new Lookup.Refused(refused.get().errorCode(), refused.get().message());
        }
        var voucher = ledger.voucher(type, source.secret(), defaultValue);
        long balance = voucher.redeemed() || suffix(source).equals("0003") ? 0 : voucher.balance();
        return new Lookup.Balance(balance, CURRENCY, Map.of("status", balance > 0 ? "ACTIVE" : "REDEEMED"));
    }

    /**
     * The stored answer of a call. A call that never arrived is fenced: its key is answered "never received" from
     * now on, so a request still on its way cannot move value after the caller was told nothing moved.
     */
    @Override
    public ProviderOutcome status(String operationKey) {
        return ledger.once(type, operationKey, "fenced", null, defaultValue, null, books -> new Answer(new byte[0], 0,
                new Declined(type.errorCode("transport_error"), "The provider never received this request")));
    }

    /** Answers a call once: the same operation key asked again gets the first answer, as at a real provider. */
    private ProviderOutcome once(String operationKey, String kind, VoucherSource source, String relatedKey,
                                 Function<SandboxVoucherLedger.Books, Answer> work) {
        return ledger.once(type, operationKey, kind, ledger.keyOf(type, source.secret()), defaultValue, relatedKey,
                work);
    }

    /** The refusals a provider gives before touching a voucher. */
    private Optional<Declined> refusal(VoucherSource source, String currency, Long amount, long balance) {
        Declined declined = switch (suffix(source)) {
            case "0002" -> new Declined(type.errorCode("2402"), "Voucher could not be found");
            case "0004" -> new Declined(type.errorCode("expired"), "Voucher has expired");
            case "0005" -> new Declined(type.errorCode("transport_error"), "Provider could not be reached");
            default -> null;
        };
        if (declined == null && currency != null && !CURRENCY.equals(currency)) {
            declined = new Declined(type.errorCode("currency_not_supported"), "Vouchers are only issued in ZAR");
        }
        if (declined == null && amount != null && amount > balance) {
            declined = new Declined(type.errorCode("insufficient_funds"), "The voucher's balance is too low");
        }
        return Optional.ofNullable(declined);
    }

    private static Declined alreadyUsed() {
        return new Declined("BAD_REQUEST", "Voucher has already been used");
    }

    private static String suffix(VoucherSource source) {
        String secret = source.secret();
        return secret.length() < 4 ? secret : secret.substring(secret.length() - 4);
    }

    private String secretName() {
        return type == RedemptionType.PROVIDER_C ? "token" : "pin";
    }

    private Map<String, Object> confirmReference(VoucherSource source) {
        Map<String, Object> reference = new LinkedHashMap<>();
        if (type == RedemptionType.PROVIDER_C) {
            reference.put("token", Masking.mask(source.secret()));
            reference.put("reference", "PC" + digits(10));
        }
        reference.put("serial_number", digits(12));
        return reference;
    }

    private ChangeVoucher issueChange(SandboxVoucherLedger.Books books, long remainder) {
        if (remainder <= 0 || capabilities.changeVoucher() == ChangeVoucherDelivery.NONE) {
            return null;
        }
        LocalDate expiry = LocalDate.now(ZoneOffset.UTC).plusYears(1);
        return switch (type) {
            case ONE_VOUCHER -> {
                String pin = digits(15) + "7";
                books.issue(type, pin, remainder);
                yield new ChangeVoucher.WithAmount(pin, digits(12), remainder,
                        expiry.atStartOfDay().format(DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss")), "ACTIVE");
            }
            case PROVIDER_C -> {
                String token = digits(19) + "7";
                books.issue(type, token, remainder);
                yield new ChangeVoucher.WithReference(token, digits(12), "PC" + digits(10),
                        expiry.format(DateTimeFormatter.ofPattern("dd/MM/uuuu")), digits(13),
                        "Sandbox change voucher", "Redeem it like any voucher of this type.",
                        "Look its balance up with POST /stored_value/lookup.",
                        "Your change: keep this voucher.");
            }
            case OTT -> {
                // Sent to the subscriber by SMS; the response carries nothing.
                books.issue(type, digits(11) + "7", remainder);
                yield null;
            }
        };
    }

    private static String digits(int count) {
        StringBuilder out = new StringBuilder(count);
        String hex = Ids.randomHex(count);
        for (int i = 0; i < count; i++) {
            out.append(Character.forDigit(Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16) % 10, 10));
        }
        return out.toString();
    }
}
