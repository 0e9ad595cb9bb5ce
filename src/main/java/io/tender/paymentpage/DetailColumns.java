package io.tender.paymentpage;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** What a payer entered ({@link Visit.Details}) in the four JSON columns a visit and a transaction both have. */
final class DetailColumns {

    private static final TypeReference<Map<String, String>> STRINGS = new TypeReference<>() {
    };

    private final JsonMapper json;

    DetailColumns(JsonMapper json) {
        this.json = json;
    }

    /** Named parameters {@code customer}, {@code address}, {@code fields}, {@code metadata}. */
    Map<String, Object> params(Visit.Details d) {
        Map<String, Object> params = new HashMap<>();
        params.put("customer", d.customer() == null ? null : json.writeValueAsString(d.customer()));
        params.put("address", d.deliveryAddress() == null ? null : json.writeValueAsString(d.deliveryAddress()));
        params.put("fields", json.writeValueAsString(d.customFields()));
        params.put("metadata", d.metadata() == null ? null : json.writeValueAsString(d.metadata()));
        return params;
    }

    Visit.Details read(ResultSet rs) throws SQLException {
        String customer = rs.getString("customer");
        String address = rs.getString("delivery_address");
        String metadata = rs.getString("metadata");
        return new Visit.Details(customer == null ? null : json.readValue(customer, PageTransactionView.Payer.class),
                address == null ? null : json.readValue(address, Visit.Address.class),
                json.readValue(rs.getString("custom_fields"), STRINGS),
                metadata == null ? null : json.readValue(metadata, STRINGS));
    }
}
