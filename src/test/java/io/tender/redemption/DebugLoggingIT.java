package io.tender.redemption;

import io.tender.support.ApiIntegrationTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static io.tender.support.Vouchers.oneVoucher;
import static io.tender.support.Vouchers.validPin;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An operator who turns on DEBUG for Spring's web layer to chase a problem must not start logging voucher PINs:
 * Spring logs request and response bodies at DEBUG, and those carry the PIN and the change voucher PIN.
 */
@ExtendWith(OutputCaptureExtension.class)
class DebugLoggingIT extends ApiIntegrationTest {

    @Autowired
    private LoggingSystem logging;

    @AfterEach
    void back() {
        logging.setLogLevel("org.springframework.web", null);
    }

    @Test
    void debugLoggingOfTheWebLayerStillShowsNoPin(CapturedOutput output) {
        logging.setLogLevel("org.springframework.web", LogLevel.DEBUG);
        String pin = validPin();

        var response = merchants.create().test().post("/collect/redemptions", oneVoucher(pin, 1000)).send();

        String change = response.json().get("change_voucher").get("pin").stringValue();
        assertThat(output.getAll()).contains("/collect/redemptions"); // DEBUG is really on
        assertThat(output.getAll()).doesNotContain(pin).doesNotContain(change);
    }
}
