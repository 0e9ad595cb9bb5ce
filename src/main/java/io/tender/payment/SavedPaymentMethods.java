package io.tender.payment;

import io.tender.api.Ids;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import io.tender.processor.PaymentMethodInput;
import io.tender.secrets.SealedColumn;
import io.tender.secrets.SealedColumns;
import io.tender.secrets.SecretBox;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code payment_methods} table: saved payment methods, one per payment that saved one. A card kept for a series
 * also holds the processor's reusable token for it, sealed (AES-GCM under the master key, bound to the method's id):
 * only {@link #kept} and {@link #keptByIds} open it, to charge the card without the customer.
 */
@Repository
class SavedPaymentMethods implements SealedColumns {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;
    private final SecretBox box;

    SavedPaymentMethods(JdbcClient jdbc, JsonMapper json, SecretBox box) {
        this.jdbc = jdbc;
        this.json = json;
        this.box = box;
    }

    /**
     * Saves the method of a succeeded payment, in the caller's transaction (the one that records the success), and
     * returns it. Only the payment's safe details and keyed fingerprint are copied: the card itself is long gone.
     * {@code processorToken}: the processor's reusable token for the card (a series' first payment), sealed; or null.
     */
    SavedPaymentMethod saveFrom(Payment payment, String customerId, String processorToken, Instant now) {
        Map<String, Object> details = payment.paymentMethodDetails();
        SavedPaymentMethod method = new SavedPaymentMethod(Ids.newId(SavedPaymentMethod.PREFIX), payment.merchantId(),
                payment.mode(), customerId, String.valueOf(details.get("type")), details, payment.cardFingerprint(),
                payment.id(), now);
        jdbc.sql("""
                        insert into payment_methods (id, merchant_id, mode, customer_id, type, details, fingerprint,
                            payment_id, created_at, processor_token_sealed)
                        values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)""")
                .params(method.id(), method.merchantId(), method.mode().wire(), method.customerId(), method.type(),
                        json.writeValueAsString(details), method.fingerprint(), method.paymentId(),
                        now.atOffset(ZoneOffset.UTC), processorToken == null ? null
                                : box.seal(processorToken.getBytes(StandardCharsets.UTF_8), tokenContext(method.id())))
                .update();
        return method;
    }

    /** The card as the processor charges it without the customer, if the processor kept it for this method. */
    Optional<PaymentMethodInput.Saved> kept(String id) {
        byte[] sealed = jdbc.sql("select processor_token_sealed from payment_methods where id = ?").param(id)
                .query((rs, i) -> rs.getBytes(1)).optional().orElse(null);
        return sealed == null ? Optional.empty() : Optional.of(new PaymentMethodInput.Saved(
                new String(box.open(sealed, tokenContext(id)), StandardCharsets.UTF_8)));
    }

    /** A saved method, and the card as the processor charges it without the customer, if the processor kept it. */
    record Kept(SavedPaymentMethod method, Optional<PaymentMethodInput.Saved> card) {
    }

    /**
     * By ids alone, by id, each with its kept card opened (as {@link #kept} opens it): a claim of subscription
     * periods reads the methods they are charged to in one query, and opens each token once.
     */
    Map<String, Kept> keptByIds(Collection<String> ids) {
        Map<String, Kept> found = new HashMap<>();
        jdbc.sql("select * from payment_methods where id = any(?::text[])").param(ids.stream().distinct()
                .toArray(String[]::new)).query((rs, i) -> {
                    byte[] sealed = rs.getBytes("processor_token_sealed");
                    SavedPaymentMethod method = map(rs, i);
                    return new Kept(method, sealed == null ? Optional.empty()
                            : Optional.of(new PaymentMethodInput.Saved(new String(
                            box.open(sealed, tokenContext(method.id())), StandardCharsets.UTF_8))));
                }).list().forEach(k -> found.put(k.method().id(), k));
        return found;
    }

    @Override
    public List<SealedColumn> sealedColumns() {
        return List.of(SealedColumn.of("payment_methods", "processor_token_sealed", "id",
                SavedPaymentMethods::tokenContext));
    }

    /** Binds a sealed token to its saved method. */
    private static String tokenContext(String id) {
        return "payment-method-token:" + id;
    }

    /** The caller's saved method, or 404 {@code resource_not_found} for unknown ids and other merchants' or modes'. */
    SavedPaymentMethod get(Caller caller, String id) {
        return find(caller, id).orElseThrow(() -> new PaymentRejection.MethodNotFound().thrown());
    }

    private Optional<SavedPaymentMethod> find(Caller caller, String id) {
        return jdbc.sql("select * from payment_methods where id = ? and merchant_id = ? and mode = ?")
                .params(id, caller.merchantId(), caller.mode().wire()).query(this::map).optional();
    }

    private SavedPaymentMethod map(ResultSet rs, int row) throws SQLException {
        return new SavedPaymentMethod(rs.getString("id"), rs.getString("merchant_id"),
                Mode.fromWire(rs.getString("mode")), rs.getString("customer_id"), rs.getString("type"),
                json.readValue(rs.getString("details"), OBJECT), rs.getString("fingerprint"),
                rs.getString("payment_id"), rs.getTimestamp("created_at").toInstant());
    }
}
