package io.tender.auth;

import io.tender.api.Ids;
import io.tender.api.Timestamps;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

@Repository
public class Merchants {

    public record Merchant(String id, String name, Instant createdAt) {
    }

    private final JdbcClient jdbc;

    Merchants(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Creates the merchant unless one of that name exists; true when this call created it. */
    public boolean createIfAbsent(String name) {
        return jdbc.sql("insert into merchants (id, name, created_at) values (?, ?, ?) on conflict (name) do nothing")
                .params(Ids.newId("mer_"), name, Timestamps.now().atOffset(java.time.ZoneOffset.UTC))
                .update() == 1;
    }

    public Optional<Merchant> byName(String name) {
        return jdbc.sql("select id, name, created_at from merchants where name = ?").param(name)
                .query(Merchant.class).optional();
    }

    public Optional<Merchant> byId(String id) {
        return jdbc.sql("select id, name, created_at from merchants where id = ?").param(id)
                .query(Merchant.class).optional();
    }

    public List<Merchant> all() {
        return jdbc.sql("select id, name, created_at from merchants order by id").query(Merchant.class).list();
    }

    public boolean none() {
        return jdbc.sql("select not exists (select 1 from merchants)").query(Boolean.class).single();
    }
}
