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
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

/** The {@code payment_methods} table: saved payment methods, one per payment that saved one. */
@Repository
class SavedPaymentMethods {

    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private final JdbcClient jdbc;
    private final JsonMapper json;

    SavedPaymentMethods(JdbcClient jdbc, JsonMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /**
     * Saves the method of a succeeded payment, in the caller's transaction (the one that records the success), and
     * returns it. Only the payment's safe details and keyed fingerprint are copied: the card itself is long gone.
     */
    SavedPaymentMethod saveFrom(Payment payment, String customerId, Instant now) {
        Map<String, Object> details = payment.paymentMethodDetails();
        SavedPaymentMethod method = new SavedPaymentMethod(Ids.newId(SavedPaymentMethod.PREFIX), payment.merchantId(),
                payment.mode(), customerId, String.valueOf(details.get("type")), details, payment.cardFingerprint(),
                payment.id(), now);
        jdbc.sql("""
                        insert into payment_methods (id, merchant_id, mode, customer_id, type, details, fingerprint,
                            payment_id, created_at)
                        values (?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?)""")
                .params(method.id(), method.merchantId(), method.mode().wire(), method.customerId(), method.type(),
                        json.writeValueAsString(details), method.fingerprint(), method.paymentId(),
                        now.atOffset(ZoneOffset.UTC))
                .update();
        return method;
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
