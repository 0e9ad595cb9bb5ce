package io.tender.billing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** {@link PaymentRules} in the four rule columns of a customer, account or bill row. */
final class PaymentRulesColumns {

    /** The rules of a row's four rule columns; no flags means no rules. */
    static PaymentRules fromRow(ResultSet rs) throws SQLException {
        Boolean over = rs.getObject("overpayment_allowed", Boolean.class);
        if (over == null) {
            return null;
        }
        return new PaymentRules(rs.getObject("min_amount", Long.class), rs.getObject("max_amount", Long.class),
                over, rs.getBoolean("underpayment_allowed"));
    }

    /** Named parameters for the four rule columns. */
    static Map<String, Object> columns(PaymentRules rules) {
        var columns = new HashMap<String, Object>();
        columns.put("minAmount", rules == null ? null : rules.minAmount());
        columns.put("maxAmount", rules == null ? null : rules.maxAmount());
        columns.put("overpaymentAllowed", rules == null ? null : rules.overpaymentAllowed());
        columns.put("underpaymentAllowed", rules == null ? null : rules.underpaymentAllowed());
        return columns;
    }

    private PaymentRulesColumns() {
    }
}
