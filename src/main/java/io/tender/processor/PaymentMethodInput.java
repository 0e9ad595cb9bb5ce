package io.tender.processor;

/**
 * How the customer pays, as the processor receives it. A card's number and security code live only in this object,
 * on their way from the checkout to the processor: {@link #toString()} never shows them, and nothing stores them.
 */
public sealed interface PaymentMethodInput {

    /** The method type on the wire: {@code card}, {@code pay_by_bank}, {@code capitec_pay}, {@code mobile_money}. */
    String type();

    record Card(String number, int expMonth, int expYear, String securityCode) implements PaymentMethodInput {
        @Override
        public String type() {
            return "card";
        }

        @Override
        public String toString() {
            return "Card[number=****, expMonth=" + expMonth + ", expYear=" + expYear + ", securityCode=***]";
        }
    }

    record Bank(String bank) implements PaymentMethodInput {
        @Override
        public String type() {
            return "pay_by_bank";
        }
    }

    /**
     * A card the processor kept when an earlier authorization asked it to ({@link PaymentProcessor.Authorize#storeMethod}),
     * charged by its reusable {@code token} without the customer (decisions §8): the processor never answers
     * {@link ProcessorOutcome.ActionRequired} to it, and declines {@code authentication_required} a card that needs the
     * customer. The token is a credential to charge the card: {@link #toString()} never shows it.
     */
    record Saved(String token) implements PaymentMethodInput {
        @Override
        public String type() {
            return "card";
        }

        @Override
        public String toString() {
            return "Saved[token=****]";
        }
    }

    /** A bank app ({@code capitec_pay}) or mobile money, approved by the customer on their phone. */
    record Phone(String type, String phoneNumber) implements PaymentMethodInput {
        @Override
        public String toString() {
            return "Phone[" + type + "]";
        }
    }
}
