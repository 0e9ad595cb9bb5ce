package io.tender.provider;

import io.tender.support.LiveProvidersIntegrationTest;
import io.tender.support.Merchants.Merchant;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Decisions §9: what discovery shows a live public key (one that ships in web pages) carries no configuration. */
class LiveDiscoveryIT extends LiveProvidersIntegrationTest {

    @Test
    void aLivePublicKeySeesTheConfiguredTypesButNoProviderUrlOrHost() {
        Merchant merchant = merchants.create();

        var response = merchant.publicLive().get("/collect/redemptions/types").send();

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        List<String> types = new ArrayList<>();
        response.json().get("data").forEach(t -> {
            types.add(t.get("type").stringValue());
            assertThat(t.get("description").stringValue()).isNotBlank();
        });
        assertThat(types).containsExactlyInAnyOrder("vouchers.one_voucher", "vouchers.ott", "vouchers.provider_c");
        URI provider = URI.create(PROVIDER.baseUrl());
        // One provider is WireMock's base URL, another the configured http://127.0.0.1:9.
        assertThat(response.text()).doesNotContain(PROVIDER.baseUrl()).doesNotContain(provider.getHost())
                .doesNotContain(":" + provider.getPort()).doesNotContain("127.0.0.1").doesNotContain("http://");
        // The secret key's answer is the same: nothing in it depends on who asks.
        assertThat(merchant.live().get("/collect/redemptions/types").send().text()).isEqualTo(response.text());
    }
}
