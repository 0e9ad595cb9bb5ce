package io.tender.support;

import java.util.UUID;

/** Creates a fresh merchant with keys through the admin API, so every test works on its own tenant. */
public final class Merchants {

    private final Api admin;
    private final String base;

    public Merchants(String base, String adminToken) {
        this.base = base;
        this.admin = new Api(base, adminToken);
    }

    public record Merchant(String id, String name, Api test, Api live, Api publicTest, Api publicLive,
                           String testKeyId) {
    }

    public Merchant create() {
        String name = "m-" + UUID.randomUUID().toString().substring(0, 13);
        var merchant = admin.post("/admin/merchants", "{\"name\":\"" + name + "\"}").send();
        if (merchant.status() != 201) {
            throw new IllegalStateException("could not create merchant: " + merchant);
        }
        var testKey = key(name, "sk_test");
        return new Merchant(merchant.json().get("id").stringValue(), name,
                new Api(base, testKey.key), new Api(base, key(name, "sk_live").key),
                new Api(base, key(name, "pk_test").key), new Api(base, key(name, "pk_live").key), testKey.id);
    }

    public Api admin() {
        return admin;
    }

    private record Key(String id, String key) {
    }

    private Key key(String merchant, String kind) {
        var response = admin.post("/admin/merchants/" + merchant + "/keys", "{\"kind\":\"" + kind + "\"}").send();
        if (response.status() != 201) {
            throw new IllegalStateException("could not create key: " + response);
        }
        return new Key(response.json().get("id").stringValue(), response.json().get("key").stringValue());
    }
}
