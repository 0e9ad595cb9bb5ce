package io.tender.checkout;

/**
 * A payment method and the details the customer typed for it. {@link Card#toString()} shows no digit of the number
 * or the security code, so that the record can never leak them into a log line or an exception message.
 */
public sealed interface MethodInput {

    PaymentMethodType type();

    /** A card: 12 to 19 digits that pass the Luhn check, an expiry month/year not in the past, 3 or 4 digits of code. */
    record Card(String number, int expMonth, int expYear, String securityCode) implements MethodInput {
        @Override
        public PaymentMethodType type() {
            return PaymentMethodType.CARD;
        }

        @Override
        public String toString() {
            return "Card[number=****, expMonth=" + expMonth + ", expYear=" + expYear + ", securityCode=***]";
        }
    }

    /** Pay by bank: the bank the customer chose. */
    record PayByBank(String bank) implements MethodInput {
        @Override
        public PaymentMethodType type() {
            return PaymentMethodType.PAY_BY_BANK;
        }
    }

    /** A method approved in an app after the customer gives a phone number (E.164): capitec_pay or mobile_money. */
    record Phone(PaymentMethodType type, String phoneNumber) implements MethodInput {
        public Phone {
            if (!type.usesPhone()) {
                throw new IllegalArgumentException(type + " is not approved by phone");
            }
        }
    }
}
