package io.tender.dashboard;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/** The dashboard's users ({@code usr_}), each of one merchant; an email is unique per merchant whatever its case. */
@Repository
class DashboardUsers {

    record User(String id, String merchantId, String email, Role role, String passwordHash, Instant createdAt,
                Instant signedInAt, boolean disabled) {
    }

    /** A user with this email exists at the merchant already (in any case). */
    static final class EmailTaken extends RuntimeException {
        EmailTaken() {
            super("email taken", null, false, false);
        }
    }

    private static final String COLUMNS =
            "id, merchant_id, email, role, password_hash, created_at, signed_in_at, disabled";

    private final JdbcClient jdbc;

    DashboardUsers(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    User create(String merchantId, String email, Role role) {
        String id = Ids.newId("usr_");
        try {
            jdbc.sql("insert into dashboard_users (id, merchant_id, email, role, created_at) values (?, ?, ?, ?, ?)")
                    .params(id, merchantId, email, role.wire(), Timestamps.now().atOffset(ZoneOffset.UTC)).update();
        } catch (DuplicateKeyException e) {
            throw new EmailTaken();
        }
        return byId(id).orElseThrow();
    }

    Optional<User> byId(String id) {
        return jdbc.sql("select " + COLUMNS + " from dashboard_users where id = ?").param(id)
                .query(DashboardUsers::user).optional();
    }

    /** Every user with this email, at any merchant (the sign-in form asks for no merchant). */
    List<User> byEmail(String email) {
        return jdbc.sql("select " + COLUMNS + " from dashboard_users where lower(email) = lower(?) order by id")
                .param(email).query(DashboardUsers::user).list();
    }

    Optional<User> firstOwner(String merchantId) {
        return jdbc.sql("select " + COLUMNS + " from dashboard_users where merchant_id = ? and role = 'owner' "
                + "order by id limit 1").param(merchantId).query(DashboardUsers::user).optional();
    }

    void setPassword(String userId, String passwordHash) {
        jdbc.sql("update dashboard_users set password_hash = ? where id = ?").params(passwordHash, userId).update();
    }

    void signedIn(String userId) {
        jdbc.sql("update dashboard_users set signed_in_at = ? where id = ?")
                .params(Timestamps.now().atOffset(ZoneOffset.UTC), userId).update();
    }

    private static User user(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new User(rs.getString("id"), rs.getString("merchant_id"), rs.getString("email"),
                Role.fromWire(rs.getString("role")).orElseThrow(), rs.getString("password_hash"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("signed_in_at") == null ? null : rs.getTimestamp("signed_in_at").toInstant(),
                rs.getBoolean("disabled"));
    }
}
