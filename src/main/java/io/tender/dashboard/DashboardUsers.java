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

    /**
     * The user, their row locked until the transaction ends: the one-time links of a user are issued and used one
     * after the other ({@link OneTimeLinks}).
     */
    Optional<User> lock(String id) {
        return jdbc.sql("select " + COLUMNS + " from dashboard_users where id = ? for update").param(id)
                .query(DashboardUsers::user).optional();
    }

    /** Sets the first password of a user who has none; false (nothing changed) when they have one already. */
    boolean setFirstPassword(String userId, String passwordHash) {
        return jdbc.sql("update dashboard_users set password_hash = ? where id = ? and password_hash is null")
                .params(passwordHash, userId).update() == 1;
    }

    void signedIn(String userId) {
        jdbc.sql("update dashboard_users set signed_in_at = ? where id = ?")
                .params(Timestamps.now().atOffset(ZoneOffset.UTC), userId).update();
    }

    /** A member as the team page lists them: invited (no password yet), active, or removed ({@code disabled}). */
    record Member(String id, String email, Role role, boolean invited, boolean removed, Instant signedInAt,
                  boolean secondFactor) {
    }

    /** The merchant's users, those who can still sign in first, each group by email. */
    List<Member> members(String merchantId) {
        return jdbc.sql("select id, email, role, password_hash is null as invited, disabled, signed_in_at, "
                        + "totp_enabled_at is not null as second_factor from dashboard_users where merchant_id = ? "
                        + "order by disabled, lower(email), id")
                .param(merchantId)
                .query((rs, row) -> new Member(rs.getString("id"), rs.getString("email"),
                        Role.fromWire(rs.getString("role")).orElseThrow(), rs.getBoolean("invited"),
                        rs.getBoolean("disabled"),
                        rs.getTimestamp("signed_in_at") == null ? null : rs.getTimestamp("signed_in_at").toInstant(),
                        rs.getBoolean("second_factor")))
                .list();
    }

    /** The user if they are the merchant's: another merchant's id is as unknown as a made-up one. */
    Optional<User> byIdAt(String merchantId, String id) {
        return jdbc.sql("select " + COLUMNS + " from dashboard_users where id = ? and merchant_id = ?")
                .params(id, merchantId).query(DashboardUsers::user).optional();
    }

    /**
     * The ids of the merchant's owners who are not removed, each row locked until the transaction ends: two owners
     * demoting each other at once are taken one after the other, so the second sees the first's change.
     */
    List<String> lockOwners(String merchantId) {
        return jdbc.sql("select id from dashboard_users where merchant_id = ? and role = 'owner' and not disabled "
                        + "order by id for update")
                .param(merchantId).query(String.class).list();
    }

    void setRole(String userId, Role role) {
        jdbc.sql("update dashboard_users set role = ? where id = ?").params(role.wire(), userId).update();
    }

    /** The user can no longer sign in, and their sessions end on their next request ({@code DashboardSecurity}). */
    void disable(String userId) {
        jdbc.sql("update dashboard_users set disabled = true where id = ?").param(userId).update();
    }

    private static User user(java.sql.ResultSet rs, int row) throws java.sql.SQLException {
        return new User(rs.getString("id"), rs.getString("merchant_id"), rs.getString("email"),
                Role.fromWire(rs.getString("role")).orElseThrow(), rs.getString("password_hash"),
                rs.getTimestamp("created_at").toInstant(),
                rs.getTimestamp("signed_in_at") == null ? null : rs.getTimestamp("signed_in_at").toInstant(),
                rs.getBoolean("disabled"));
    }
}
