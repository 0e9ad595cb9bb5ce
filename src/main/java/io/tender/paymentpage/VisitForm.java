package io.tender.paymentpage;

import io.tender.api.Currencies;
import io.tender.paymentpage.PaymentPage.CustomField;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The fields a payment page's form posts, read as the page asks for them, and the checks made before a visit is
 * recorded. Values are kept as posted (trimmed) so the page can show them again next to their errors. Keys of
 * {@link #values()} and of the errors are the form's field names: {@code amount} (a preset in minor units, or
 * {@code other}), {@code other_amount} (major units), the payer's and the address's fields, and {@code field_<key>}
 * for each custom field.
 */
record VisitForm(Map<String, String> values) {

    static final String AMOUNT = "amount", OTHER_AMOUNT = "other_amount", OTHER = "other", NAME = "name",
            EMAIL = "email", PHONE = "phone", LINE1 = "line1", LINE2 = "line2", CITY = "city", STATE = "state",
            COUNTRY = "country", PIN = "pin";
    private static final String CUSTOM = "field_";
    private static final Pattern EMAIL_SHAPE = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");
    private static final Pattern PHONE_SHAPE = Pattern.compile("^\\+?[0-9]{7,15}$");
    private static final Pattern PHONE_SEPARATORS = Pattern.compile("[\\s().-]");
    private static final Pattern POSTAL_CODE = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9 -]{1,19}$");
    private static final Pattern MONEY = Pattern.compile("^[0-9]{1,9}([.,][0-9]{1,3})?$");

    sealed interface Checked {
        record Valid(long amount, Visit.Details details) implements Checked {
        }

        /** Field name to a sentence the payer reads next to the field. */
        record Invalid(Map<String, String> errors) implements Checked {
        }
    }

    /** An empty form: custom fields hold their default values. */
    static VisitForm blank(PaymentPage page) {
        Map<String, String> values = new LinkedHashMap<>();
        page.customFields().forEach(f -> values.put(CUSTOM + f.key(), f.defaultValue()));
        return new VisitForm(values);
    }

    /** The posted form, only the fields this page asks for. */
    static VisitForm read(PaymentPage page, UnaryOperator<String> posted) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String name : new String[]{AMOUNT, OTHER_AMOUNT, NAME, EMAIL, PHONE, LINE1, LINE2, CITY, STATE, COUNTRY,
                PIN}) {
            values.put(name, trimmed(posted.apply(name)));
        }
        page.customFields().forEach(f -> values.put(CUSTOM + f.key(), trimmed(posted.apply(CUSTOM + f.key()))));
        return new VisitForm(values);
    }

    public String value(String name) {
        return values.get(name);
    }

    /** The value posted for a custom field (for the template). */
    public String custom(CustomField field) {
        return values.get(CUSTOM + field.key());
    }

    Checked check(PaymentPage page) {
        Map<String, String> errors = new LinkedHashMap<>();
        long amount = page.amount() != null ? page.amount() : chosenAmount(page, errors);
        PageTransactionView.Payer payer = null;
        if (page.requiresCustomerDetails()) {
            String name = text(NAME, 200, true, "Enter your full name.", errors);
            String email = text(EMAIL, 254, true, "Enter your email address.", errors);
            if (email != null && !EMAIL_SHAPE.matcher(email).matches()) {
                errors.put(EMAIL, "Enter an email address such as name@example.com.");
            }
            String phone = text(PHONE, 30, true, "Enter your phone number.", errors);
            String compact = phone == null ? null : PHONE_SEPARATORS.matcher(phone).replaceAll("");
            if (compact != null && !PHONE_SHAPE.matcher(compact).matches()) {
                errors.put(PHONE, "Enter a phone number such as 082 123 4567 or +27 82 123 4567.");
            }
            payer = new PageTransactionView.Payer(name, email, compact);
        }
        Visit.Address address = null;
        if (page.requiresDeliveryDetails()) {
            String line1 = text(LINE1, 200, true, "Enter the street address.", errors);
            String line2 = text(LINE2, 200, false, null, errors);
            String city = text(CITY, 100, true, "Enter the city or town.", errors);
            String state = text(STATE, 100, false, null, errors);
            String country = text(COUNTRY, 100, true, "Enter the country.", errors);
            String pin = text(PIN, 20, true, "Enter the postal code.", errors);
            if (pin != null && !POSTAL_CODE.matcher(pin).matches()) {
                errors.put(PIN, "Enter a postal code of letters and digits, such as 8001.");
            }
            address = new Visit.Address(line1, line2, city, state, country, pin);
        }
        Map<String, String> answers = new LinkedHashMap<>();
        for (CustomField field : page.customFields()) {
            String name = CUSTOM + field.key();
            String answer = text(name, PageInput.MAX_TEXT_VALUE, field.required(),
                    field.dropdown() ? "Choose one of the options." : "Fill in this field.", errors);
            if (answer != null && field.dropdown() && !field.options().contains(answer)) {
                errors.put(name, "Choose one of the options.");
            } else if (answer != null) {
                answers.put(field.key(), answer);
            }
        }
        if (!errors.isEmpty()) {
            return new Checked.Invalid(errors);
        }
        return new Checked.Valid(amount, new Visit.Details(payer, address, answers, page.metadata()));
    }

    /** The preset chosen, else the amount typed as "other" (or with no preset chosen), within the page's range. */
    private long chosenAmount(PaymentPage page, Map<String, String> errors) {
        var options = page.amountOptions();
        String choice = values.get(AMOUNT);
        if (choice != null && !choice.equals(OTHER)) {
            long preset = options.presets().stream().filter(p -> Long.toString(p).equals(choice)).findFirst().orElse(0L);
            if (preset == 0) {
                errors.put(AMOUNT, "Choose one of the amounts, or enter another amount.");
            }
            return preset;
        }
        String typed = values.get(OTHER_AMOUNT);
        if (typed == null) {
            errors.put(AMOUNT, options.presets().isEmpty() ? "Enter the amount you want to pay."
                    : "Choose an amount, or enter another amount.");
            return 0;
        }
        String plain = typed.replace(" ", "").replace(',', '.');
        long minor = MONEY.matcher(plain).matches()
                ? Currencies.minorUnits(new BigDecimal(plain), page.currency()).orElse(-1) : -1;
        String range = "from " + Currencies.display(options.min(), page.currency()) + " to "
                + Currencies.display(options.max(), page.currency());
        if (minor < 0) {
            errors.put(AMOUNT, "Enter the amount in " + page.currency() + " as a number, " + range + ".");
            return 0;
        }
        if (!page.allows(minor)) {
            errors.put(AMOUNT, "Enter an amount " + range + ".");
        }
        return minor;
    }

    /** A trimmed value, or null when empty; its error when required and missing, too long, or not plain text. */
    private String text(String name, int max, boolean required, String missing, Map<String, String> errors) {
        String value = values.get(name);
        if (value == null) {
            if (required) {
                errors.put(name, missing);
            }
            return null;
        }
        if (value.length() > max) {
            errors.put(name, "Use at most " + max + " characters.");
            return null;
        }
        if (value.codePoints().anyMatch(Character::isISOControl)) {
            errors.put(name, "Use letters, digits and punctuation only.");
            return null;
        }
        return value;
    }

    private static String trimmed(String value) {
        if (value == null) {
            return null;
        }
        String trimmed = value.strip();
        return trimmed.isEmpty() ? null : trimmed;
    }
}
