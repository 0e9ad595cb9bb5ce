package io.tender.payment;

import io.tender.api.Currencies;
import io.tender.api.FieldError;
import io.tender.api.Rejected;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the dashboard's Payments page narrows its list to ({@link PaymentSearch}): every part optional (null, or no
 * statuses), all given parts combined with "and". Dates are days in UTC, both ends included; amounts are minor units,
 * both ends included; the customer email matches a customer of the merchant and mode whatever its case; {@code last4}
 * is a card's last 4 digits; {@code id} is any id Tender gives that leads to payments ({@link #ID_PREFIXES}).
 * <p>
 * A filter that cannot match as asked is refused when made, as {@link PaymentRejection.FilterInvalid} naming each
 * field by its form name ({@link #read}); so a filter that exists is one the search can run.
 */
public record PaymentFilter(Set<PaymentStatus> statuses, PaymentMethodType method, LocalDate createdFrom,
                            LocalDate createdTo, Long amountMin, Long amountMax, String currency,
                            String customerEmail, String last4, String externalReference, String id) {

    /** The form fields {@link #read} takes, which are also the fields a refusal names. */
    public static final String STATUS = "status", METHOD = "method", CREATED_FROM = "created_from",
            CREATED_TO = "created_to", AMOUNT_MIN = "amount_min", AMOUNT_MAX = "amount_max", CURRENCY = "currency",
            CUSTOMER_EMAIL = "customer_email", LAST4 = "last4", EXTERNAL_REFERENCE = "external_reference", ID = "id";

    /** The ids {@code id} searches by: the payment's own, and those of what a payment belongs to or was made from. */
    public static final List<String> ID_PREFIXES = List.of(Payments.PREFIX, "ps_", "bcus_", "mdt_",
            "sub_", "rfd_", SavedPaymentMethod.PREFIX, "ob_");

    private static final long MAX_AMOUNT = 99_999_999L;
    private static final Pattern LAST_FOUR = Pattern.compile("^[0-9]{4}$");
    private static final Pattern REFERENCE = Pattern.compile("^[a-zA-Z0-9_-]{1,255}$");
    private static final Pattern ANY_ID = Pattern.compile("^[a-z]+_[A-Za-z0-9]{1,64}$");

    /** Matches everything: an empty form. */
    public static final PaymentFilter NONE = read(Map.of());

    public PaymentFilter {
        statuses = statuses == null || statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
        List<FieldError> errors = new ArrayList<>();
        if (createdFrom != null && createdTo != null && createdTo.isBefore(createdFrom)) {
            errors.add(new FieldError(CREATED_TO, "must be on or after created_from"));
        }
        amount(errors, AMOUNT_MIN, amountMin);
        amount(errors, AMOUNT_MAX, amountMax);
        if (amountMin != null && amountMax != null && amountMax < amountMin) {
            errors.add(new FieldError(AMOUNT_MAX, "must be at least amount_min"));
        }
        if (currency != null && !Currencies.isActive(currency)) {
            errors.add(new FieldError(CURRENCY, "must be an active ISO 4217 currency code, such as ZAR"));
        }
        if (customerEmail != null && !emailShaped(customerEmail)) {
            errors.add(new FieldError(CUSTOMER_EMAIL, "must be an email address"));
        }
        if (last4 != null && !LAST_FOUR.matcher(last4).matches()) {
            errors.add(new FieldError(LAST4, "must be the last 4 digits of a card"));
        }
        if (externalReference != null && !REFERENCE.matcher(externalReference).matches()) {
            errors.add(new FieldError(EXTERNAL_REFERENCE,
                    "must be 1 to 255 letters, digits, underscores or hyphens"));
        }
        if (id != null && (!ANY_ID.matcher(id).matches() || idPrefix(id).isEmpty())) {
            errors.add(new FieldError(ID, "must be an id starting with one of " + String.join(", ", ID_PREFIXES)));
        }
        if (!errors.isEmpty()) {
            throw new PaymentRejection.FilterInvalid(errors).thrown();
        }
    }

    /**
     * The filter a form asks for (a request's parameter map: each field once, blank meaning not given; {@code status}
     * may be given several times), refused as {@link PaymentRejection.FilterInvalid} naming every field that is
     * wrong at once. Fields it does not know (the page's cursor, say) are left to the caller.
     */
    public static PaymentFilter read(Map<String, String[]> form) {
        List<FieldError> errors = new ArrayList<>();
        Set<PaymentStatus> statuses = EnumSet.noneOf(PaymentStatus.class);
        for (String value : values(form, STATUS)) {
            Arrays.stream(PaymentStatus.values()).filter(s -> s.wire().equals(value)).findFirst()
                    .ifPresentOrElse(statuses::add, () -> errors.add(new FieldError(STATUS, "must be one of "
                            + String.join(", ", Arrays.stream(PaymentStatus.values()).map(PaymentStatus::wire)
                            .toList()))));
        }
        String methodText = single(form, METHOD);
        PaymentMethodType method = null;
        if (methodText != null) {
            method = PaymentMethodType.fromWire(methodText).orElse(null);
            if (method == null) {
                errors.add(new FieldError(METHOD, "must be one of " + String.join(", ", PaymentMethodType.WIRE)));
            }
        }
        LocalDate from = date(form, CREATED_FROM, errors);
        LocalDate to = date(form, CREATED_TO, errors);
        Long min = minorUnits(form, AMOUNT_MIN, errors);
        Long max = minorUnits(form, AMOUNT_MAX, errors);
        PaymentFilter filter = null;
        try {
            // The fields read so far are checked again with the rest, so one refusal names every wrong field.
            filter = new PaymentFilter(statuses, method, from, to, min, max, single(form, CURRENCY),
                    single(form, CUSTOMER_EMAIL), single(form, LAST4), single(form, EXTERNAL_REFERENCE),
                    single(form, ID));
        } catch (Rejected refused) {
            if (!(refused.rejection() instanceof PaymentRejection.FilterInvalid(List<FieldError> more))) {
                throw refused;
            }
            errors.addAll(more);
        }
        if (!errors.isEmpty()) {
            throw new PaymentRejection.FilterInvalid(errors).thrown();
        }
        return filter;
    }

    public PaymentFilter withStatuses(PaymentStatus... wanted) {
        return new PaymentFilter(Set.of(wanted), method, createdFrom, createdTo, amountMin, amountMax, currency,
                customerEmail, last4, externalReference, id);
    }

    public PaymentFilter withMethod(PaymentMethodType wanted) {
        return new PaymentFilter(statuses, wanted, createdFrom, createdTo, amountMin, amountMax, currency,
                customerEmail, last4, externalReference, id);
    }

    /** Created on the days from {@code from} to {@code to} (UTC, both included; null: open). */
    public PaymentFilter createdBetween(LocalDate from, LocalDate to) {
        return new PaymentFilter(statuses, method, from, to, amountMin, amountMax, currency, customerEmail, last4,
                externalReference, id);
    }

    /** Of an amount from {@code min} to {@code max} minor units (both included; null: open). */
    public PaymentFilter amountBetween(Long min, Long max) {
        return new PaymentFilter(statuses, method, createdFrom, createdTo, min, max, currency, customerEmail, last4,
                externalReference, id);
    }

    public PaymentFilter withCurrency(String wanted) {
        return new PaymentFilter(statuses, method, createdFrom, createdTo, amountMin, amountMax, wanted,
                customerEmail, last4, externalReference, id);
    }

    public PaymentFilter withCustomerEmail(String wanted) {
        return new PaymentFilter(statuses, method, createdFrom, createdTo, amountMin, amountMax, currency, wanted,
                last4, externalReference, id);
    }

    public PaymentFilter withLast4(String wanted) {
        return new PaymentFilter(statuses, method, createdFrom, createdTo, amountMin, amountMax, currency,
                customerEmail, wanted, externalReference, id);
    }

    public PaymentFilter withExternalReference(String wanted) {
        return new PaymentFilter(statuses, method, createdFrom, createdTo, amountMin, amountMax, currency,
                customerEmail, last4, wanted, id);
    }

    /** Payments this id leads to: see {@link #ID_PREFIXES}. */
    public PaymentFilter withId(String wanted) {
        return new PaymentFilter(statuses, method, createdFrom, createdTo, amountMin, amountMax, currency,
                customerEmail, last4, externalReference, wanted);
    }

    /** The prefix of {@code id} among {@link #ID_PREFIXES}, if it has one. */
    static Optional<String> idPrefix(String id) {
        return ID_PREFIXES.stream().filter(id::startsWith).findFirst();
    }

    private static void amount(List<FieldError> errors, String field, Long value) {
        if (value != null && (value < 0 || value > MAX_AMOUNT)) {
            errors.add(new FieldError(field, "must be 0 to " + MAX_AMOUNT + " minor units"));
        }
    }

    /** Light on purpose: the value is only compared with customers' addresses, never sent anywhere. */
    private static boolean emailShaped(String value) {
        int at = value.indexOf('@');
        return value.length() <= 254 && at > 0 && at == value.lastIndexOf('@') && at < value.length() - 1
                && value.chars().noneMatch(Character::isWhitespace);
    }

    private static List<String> values(Map<String, String[]> form, String field) {
        String[] values = form.get(field);
        return values == null ? List.of() : Arrays.stream(values).map(String::strip).filter(v -> !v.isEmpty())
                .toList();
    }

    private static String single(Map<String, String[]> form, String field) {
        List<String> values = values(form, field);
        return values.isEmpty() ? null : values.getFirst();
    }

    private static LocalDate date(Map<String, String[]> form, String field, List<FieldError> errors) {
        String value = single(form, field);
        try {
            return value == null ? null : LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            errors.add(new FieldError(field, "must be a date such as 2026-05-20"));
            return null;
        }
    }

    private static Long minorUnits(Map<String, String[]> form, String field, List<FieldError> errors) {
        String value = single(form, field);
        try {
            return value == null ? null : Long.parseLong(value);
        } catch (NumberFormatException e) {
            errors.add(new FieldError(field, "must be a whole number of minor units"));
            return null;
        }
    }
}
