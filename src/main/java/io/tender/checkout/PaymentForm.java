package io.tender.checkout;

import io.tender.payment.CollectSessions;
import io.tender.payment.PaymentMethodType;
import io.tender.processor.PaymentMethodInput;

import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The fields the checkout's payment form posts, and the rules a method's details must meet before anything is sent
 * (decisions §6's sandbox table: a number failing the Luhn check or a past expiry is refused), each held once here:
 * the page shows {@link Checked.Invalid#errors()} next to its fields, and {@link Checkout}'s JSON API answers the
 * same failures as a 400 naming them. The browser ({@code checkout-page.js}) makes the same checks when JavaScript is
 * on; these are the ones that count. {@link #toString()} hides the card number and security code.
 */
public record PaymentForm(String method, String cardNumber, String expiry, String securityCode, String bank,
                   String phoneNumber) {

    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern E164 = Pattern.compile("^\\+[1-9]\\d{7,14}$");
    private static final Pattern EXPIRY = Pattern.compile("^(\\d{1,2})\\s*/?\\s*(\\d{2}|\\d{4})$");

    /** The field names of the form, which are also the keys of {@link Checked.Invalid#errors()}. */
    public static final String CARD_NUMBER = "card_number", EXPIRY_DATE = "expiry", SECURITY_CODE = "security_code",
            BANK = "bank", PHONE_NUMBER = "phone_number";

    /** The sandbox's banks for pay by bank: code and name. */
    public static final Map<String, String> BANKS = banks();

    /** The form's fields, in the order they are read. */
    public static final java.util.List<String> FIELDS = java.util.List.of("method", CARD_NUMBER, EXPIRY_DATE,
            SECURITY_CODE, BANK, PHONE_NUMBER);

    public sealed interface Checked {
        record Valid(PaymentMethodInput input) implements Checked {
        }

        /** Field name to a sentence the customer reads next to the field. */
        record Invalid(Map<String, String> errors) implements Checked {
        }
    }

    /** The form before anything is typed. */
    public static final PaymentForm EMPTY = from(field -> null);

    /** The form as posted, read by field name. */
    public static PaymentForm from(java.util.function.UnaryOperator<String> field) {
        return new PaymentForm(field.apply("method"), field.apply(CARD_NUMBER), field.apply(EXPIRY_DATE),
                field.apply(SECURITY_CODE), field.apply(BANK), field.apply(PHONE_NUMBER));
    }

    /** Checks the form for {@code type} as of {@code today} (UTC month); phone numbers must be of {@code country}. */
    public Checked check(PaymentMethodType type, YearMonth today, String country) {
        Map<String, String> errors = new LinkedHashMap<>();
        PaymentMethodInput input = switch (type) {
            case CARD -> card(today, errors);
            case PAY_BY_BANK -> {
                String code = trimmed(bank);
                if (!BANKS.containsKey(code)) {
                    errors.put(BANK, "Choose your bank.");
                }
                yield new PaymentMethodInput.Bank(code);
            }
            case CAPITEC_PAY, MOBILE_MONEY -> {
                Optional<String> phone = phone(phoneNumber, country);
                if (phone.isEmpty()) {
                    errors.put(PHONE_NUMBER, "Enter a mobile number" + ("ZA".equals(country)
                            ? " such as 082 123 4567 or +27 82 123 4567." : " in international format, such as +27 82 123 4567."));
                }
                yield new PaymentMethodInput.Phone(type.wire(), phone.orElse(""));
            }
        };
        return errors.isEmpty() ? new Checked.Valid(input) : new Checked.Invalid(Map.copyOf(errors));
    }

    private PaymentMethodInput card(YearMonth today, Map<String, String> errors) {
        String number = withoutSeparators(cardNumber);
        int month = 0;
        int year = 0;
        var expiryMatch = EXPIRY.matcher(trimmed(expiry));
        if (trimmed(expiry).isEmpty()) {
            errors.put(EXPIRY_DATE, "Enter the expiry date, as MM/YY.");
        } else if (!expiryMatch.matches() || (month = Integer.parseInt(expiryMatch.group(1))) < 1 || month > 12) {
            errors.put(EXPIRY_DATE, "Enter the expiry date as MM/YY, for example 09/29.");
        } else {
            year = Integer.parseInt(expiryMatch.group(2));
        }
        String code = trimmed(securityCode);
        errors.putAll(cardErrors(number, month, year, code, today, errors.containsKey(EXPIRY_DATE)));
        return new PaymentMethodInput.Card(number, month, year < 100 && year > 0 ? 2000 + year : year, code);
    }

    /**
     * The card rules, by field, in the customer's words: 12 to 19 digits passing the Luhn check; an expiry month not
     * before {@code today} nor more than 20 years after it ({@code year} of 2 or 4 digits); a security code of 4
     * digits for American Express (numbers starting 34 or 37), and of 3 (or 4, which the processor then judges) for
     * every other card. {@code expiryChecked}: the
     * caller has already named the expiry.
     */
    static Map<String, String> cardErrors(String number, int month, int year, String code, YearMonth today,
                                          boolean expiryChecked) {
        Map<String, String> errors = new LinkedHashMap<>();
        if (number.isEmpty()) {
            errors.put(CARD_NUMBER, "Enter your card number.");
        } else if (!DIGITS.matcher(number).matches() || number.length() < 12 || number.length() > 19
                || !luhn(number)) {
            errors.put(CARD_NUMBER, "This card number is not valid. Check it and try again.");
        }
        if (!expiryChecked) {
            int fullYear = year < 100 ? 2000 + year : year;
            if (month < 1 || month > 12) {
                errors.put(EXPIRY_DATE, "Enter the expiry date as MM/YY, for example 09/29.");
            } else if (YearMonth.of(fullYear, month).isBefore(today)) {
                errors.put(EXPIRY_DATE, "This card has expired. Use another card.");
            } else if (YearMonth.of(fullYear, month).isAfter(today.plusYears(20))) {
                errors.put(EXPIRY_DATE, "Check the expiry date: it is too far in the future.");
            }
        }
        boolean amex = number.startsWith("34") || number.startsWith("37");
        int codeLength = amex ? 4 : 3;
        if (code == null || code.isEmpty()) {
            errors.put(SECURITY_CODE, "Enter the security code from the back of your card.");
        } else if (!DIGITS.matcher(code).matches() || (amex ? code.length() != 4 : code.length() < 3 || code.length() > 4)) {
            errors.put(SECURITY_CODE, "The security code is the " + codeLength + " digits on the "
                    + (codeLength == 4 ? "front" : "back") + " of your card.");
        }
        return errors;
    }

    /**
     * The number in E.164, or empty. South African numbers may be typed the local way ({@code 082 123 4567}); every
     * number must belong to the session's country where its calling code is known.
     */
    public static Optional<String> phone(String typed, String country) {
        String compact = withoutSeparators(typed).replace("(", "").replace(")", "");
        if ("ZA".equals(country) && compact.matches("^0[1-9]\\d{8}$")) {
            compact = "+27" + compact.substring(1);
        }
        if (!E164.matcher(compact).matches() || !CollectSessions.phoneOfCountry(compact, country)) {
            return Optional.empty();
        }
        if ("ZA".equals(country) && !compact.matches("^\\+27[1-9]\\d{8}$")) {
            return Optional.empty();
        }
        return Optional.of(compact);
    }

    private static String withoutSeparators(String value) {
        return value == null ? "" : value.replace(" ", "").replace("-", "").replace("\u00a0", "").strip();
    }

    private static String trimmed(String value) {
        return value == null ? "" : value.strip();
    }

    private static Map<String, String> banks() {
        Map<String, String> banks = new LinkedHashMap<>();
        banks.put("absa", "Absa");
        banks.put("capitec", "Capitec");
        banks.put("discovery", "Discovery Bank");
        banks.put("fnb", "FNB");
        banks.put("investec", "Investec");
        banks.put("nedbank", "Nedbank");
        banks.put("standard_bank", "Standard Bank");
        banks.put("tymebank", "TymeBank");
        return java.util.Collections.unmodifiableMap(banks);
    }

    @Override
    public String toString() {
        return "PaymentForm[method=" + method + ", cardNumber=****, expiry=" + expiry + ", securityCode=***, bank="
                + bank + ", phoneNumber=" + (phoneNumber == null ? null : "****") + "]";
    }

    /** Luhn's check digit rule. */
    private static boolean luhn(String number) {
        int sum = 0;
        boolean doubled = false;
        for (int i = number.length() - 1; i >= 0; i--) {
            int digit = number.charAt(i) - '0';
            if (doubled) {
                digit *= 2;
                if (digit > 9) {
                    digit -= 9;
                }
            }
            sum += digit;
            doubled = !doubled;
        }
        return sum % 10 == 0;
    }
}
