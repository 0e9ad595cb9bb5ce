package io.tender.checkout;

import java.time.YearMonth;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The fields the checkout's payment form posts, and the checks the page makes before anything is sent (decisions
 * §6's sandbox table: a number failing the Luhn check or a past expiry is refused on the page). The same checks run
 * in the browser ({@code checkout-page.js}) when JavaScript is on; these are the ones that count.
 * {@link #toString()} hides the card number and security code.
 */
record PaymentForm(String method, String cardNumber, String expiry, String securityCode, String bank,
                   String phoneNumber) {

    private static final Pattern DIGITS = Pattern.compile("\\d+");
    private static final Pattern E164 = Pattern.compile("^\\+[1-9]\\d{7,14}$");
    private static final Pattern EXPIRY = Pattern.compile("^(\\d{1,2})\\s*/?\\s*(\\d{2}|\\d{4})$");

    /** The field names of the form, which are also the keys of {@link Checked.Invalid#errors()}. */
    static final String CARD_NUMBER = "card_number", EXPIRY_DATE = "expiry", SECURITY_CODE = "security_code",
            BANK = "bank", PHONE_NUMBER = "phone_number";

    /** The sandbox's banks for pay by bank: code and name. */
    static final Map<String, String> BANKS = banks();

    sealed interface Checked {
        record Valid(MethodInput input) implements Checked {
        }

        /** Field name to a sentence the customer reads next to the field. */
        record Invalid(Map<String, String> errors) implements Checked {
        }
    }

    /** The form as posted, read by field name. */
    static PaymentForm from(java.util.function.UnaryOperator<String> field) {
        return new PaymentForm(field.apply("method"), field.apply(CARD_NUMBER), field.apply(EXPIRY_DATE),
                field.apply(SECURITY_CODE), field.apply(BANK), field.apply(PHONE_NUMBER));
    }

    /** Checks the form for {@code type} as of {@code today} (UTC month); phone numbers must be of {@code country}. */
    Checked check(PaymentMethodType type, YearMonth today, String country) {
        Map<String, String> errors = new LinkedHashMap<>();
        MethodInput input = switch (type) {
            case CARD -> card(today, errors);
            case PAY_BY_BANK -> {
                String code = trimmed(bank);
                if (!BANKS.containsKey(code)) {
                    errors.put(BANK, "Choose your bank.");
                }
                yield new MethodInput.PayByBank(code);
            }
            case CAPITEC_PAY, MOBILE_MONEY -> {
                Optional<String> phone = phone(phoneNumber, country);
                if (phone.isEmpty()) {
                    errors.put(PHONE_NUMBER, "Enter a mobile number" + ("ZA".equals(country)
                            ? " such as 082 123 4567 or +27 82 123 4567." : " in international format, such as +27 82 123 4567."));
                }
                yield new MethodInput.Phone(type, phone.orElse(""));
            }
        };
        return errors.isEmpty() ? new Checked.Valid(input) : new Checked.Invalid(Map.copyOf(errors));
    }

    private MethodInput card(YearMonth today, Map<String, String> errors) {
        String number = withoutSeparators(cardNumber);
        if (number.isEmpty()) {
            errors.put(CARD_NUMBER, "Enter your card number.");
        } else if (!DIGITS.matcher(number).matches() || number.length() < 12 || number.length() > 19 || !luhn(number)) {
            errors.put(CARD_NUMBER, "This card number is not valid. Check it and try again.");
        }
        int month = 0;
        int year = 0;
        var expiryMatch = EXPIRY.matcher(trimmed(expiry));
        if (trimmed(expiry).isEmpty()) {
            errors.put(EXPIRY_DATE, "Enter the expiry date, as MM/YY.");
        } else if (!expiryMatch.matches() || (month = Integer.parseInt(expiryMatch.group(1))) < 1 || month > 12) {
            errors.put(EXPIRY_DATE, "Enter the expiry date as MM/YY, for example 09/29.");
        } else {
            year = Integer.parseInt(expiryMatch.group(2));
            year = year < 100 ? 2000 + year : year;
            YearMonth expires = YearMonth.of(year, month);
            if (expires.isBefore(today)) {
                errors.put(EXPIRY_DATE, "This card has expired. Use another card.");
            } else if (expires.isAfter(today.plusYears(20))) {
                errors.put(EXPIRY_DATE, "Check the expiry date: it is too far in the future.");
            }
        }
        String code = trimmed(securityCode);
        int codeLength = number.startsWith("34") || number.startsWith("37") ? 4 : 3;
        if (code.isEmpty()) {
            errors.put(SECURITY_CODE, "Enter the security code from the back of your card.");
        } else if (!DIGITS.matcher(code).matches() || code.length() != codeLength) {
            errors.put(SECURITY_CODE, "The security code is the " + codeLength + " digits on the "
                    + (codeLength == 4 ? "front" : "back") + " of your card.");
        }
        return new MethodInput.Card(number, month, year, code);
    }

    /** The Luhn (mod 10) check every card number passes. */
    static boolean luhn(String digits) {
        int sum = 0;
        boolean twice = false;
        for (int i = digits.length() - 1; i >= 0; i--) {
            int d = digits.charAt(i) - '0';
            if (twice) {
                d *= 2;
                if (d > 9) {
                    d -= 9;
                }
            }
            sum += d;
            twice = !twice;
        }
        return sum % 10 == 0;
    }

    /**
     * The number in E.164, or empty. South African numbers may be typed the local way ({@code 082 123 4567}); every
     * number must belong to the session's country where its calling code is known.
     */
    static Optional<String> phone(String typed, String country) {
        String compact = withoutSeparators(typed).replace("(", "").replace(")", "");
        if ("ZA".equals(country) && compact.matches("^0[1-9]\\d{8}$")) {
            compact = "+27" + compact.substring(1);
        }
        if (!E164.matcher(compact).matches()) {
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
}
