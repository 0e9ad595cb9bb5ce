package io.tender.subscription;

import io.tender.checkout.Checkout;
import io.tender.support.Api;
import io.tender.support.ApiIntegrationTest;
import io.tender.support.Merchants;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;

import java.time.LocalDate;
import java.time.ZoneId;

/**
 * What the series tests over HTTP start from: a fresh merchant, its test key, one of its billing customers, and the
 * {@link Series} calls; dates are dates in Johannesburg, the series' default zone.
 */
abstract class SeriesIntegrationTest extends ApiIntegrationTest {

    static final ZoneId JOHANNESBURG = ZoneId.of("Africa/Johannesburg");

    @Autowired
    Checkout checkout;

    Merchants.Merchant merchant;
    Api api;
    Series series;
    String customer;

    @BeforeEach
    void merchantAndCustomer() {
        merchant = merchants.create();
        api = merchant.test();
        series = new Series(api, checkout);
        customer = series.customer();
    }

    static LocalDate today() {
        return LocalDate.now(JOHANNESBURG);
    }
}
