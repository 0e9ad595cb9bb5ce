package io.tender.api;

import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants.Merchant;
import io.tender.support.Vouchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.tender.support.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The holes {@link OpenApiFuzzIT} found, each pinned by an ordinary test, so that a regression names itself without
 * a fuzz run.
 */
class FuzzFindingsIT extends ApiIntegrationTest {

    private Merchant merchant;

    @BeforeEach
    void merchant() {
        merchant = merchants.create();
    }

    /**
     * A Content-Type is one concrete media type (RFC 9110 §8.3). A wildcard one made Spring MVC throw while reading
     * the body of any endpoint that does not declare what it consumes: a 500.
     */
    @ParameterizedTest
    @ValueSource(strings = {"*/*", "application/*", "*/json", "*/*; charset=utf-8"})
    void aWildcardContentTypeIsA415NeverA500(String contentType) {
        Api api = merchant.test();
        String redemption = api.post("/collect/redemptions", Vouchers.oneVoucher(Vouchers.validPin())).send()
                .json().get("id").stringValue();
        String before = api.get("/collect/redemptions/" + redemption).send().text();
        for (Api.Response response : new Api.Response[]{
                api.post("/collect/redemptions/" + redemption + "/confirm", "{}").contentType(contentType).send(),
                api.post("/collect/redemptions/" + redemption + "/reverse", "{}").contentType(contentType).send(),
                api.post("/collect/redemptions", Vouchers.oneVoucher(Vouchers.validPin())).contentType(contentType).send(),
                merchants.admin().post("/admin/merchants", "{\"name\":\"wildcard\"}").contentType(contentType).send()}) {
            assertThat(assertProblem(response, 415, "bad_request").get("detail").stringValue())
                    .isEqualTo("Send the body as application/json.");
        }
        // Nothing was acted on: the redemption is as it was, no other was made, and no merchant either.
        assertThat(api.get("/collect/redemptions/" + redemption).send().text()).isEqualTo(before);
        assertThat(api.get("/collect/redemptions").send().json().get("data")).hasSize(1);
        assertThat(merchants.admin().get("/admin/merchants").send().text()).doesNotContain("\"wildcard\"");
    }
}
