package io.tender.billing;

import io.tender.api.JsonInput;
import io.tender.auth.Caller;
import org.springframework.stereotype.Service;

import java.util.Optional;

/**
 * Billing's customers as other modules may read them: whom to ask for a payment and how to reach them (Collect's
 * payment requests). Also billing's rules for an email address and a phone number, so that a customer given inline
 * elsewhere is held to the same ones.
 */
@Service
public class CustomerContacts {

    /**
     * The email rule of every request that takes one: something, {@code @}, a domain with a dot. Declared beside
     * {@code format: email} in the document, which alone would allow a dot-less domain such as {@code 0@com}.
     */
    public static final String EMAIL_PATTERN = "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$";


    /** A billing customer's name, email and phone (E.164, or null). */
    public record Contact(String customerId, String name, String email, String phone) {
    }

    private final Customers customers;

    CustomerContacts(Customers customers) {
        this.customers = customers;
    }

    /** The caller's own customer with this {@code bcus_} id, if there is one. */
    public Optional<Contact> find(Caller caller, String customerId) {
        if (!BillingResource.CUSTOMER.namesId(customerId)) {
            return Optional.empty();
        }
        return customers.find(caller, customerId, false)
                .map(c -> new Contact(c.id(), c.name(), c.email(), c.phone()));
    }

    /** {@code email} of {@code in}, as billing checks a customer's. */
    public static String email(JsonInput in, boolean required) {
        return BillingInput.email(in, required);
    }

    /** {@code phone} of {@code in}, as billing checks a customer's: E.164. */
    public static String phone(JsonInput in) {
        return BillingInput.phone(in);
    }
}
