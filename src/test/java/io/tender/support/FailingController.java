package io.tender.support;

import io.swagger.v3.oas.annotations.Hidden;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Test only (component scan finds it on the test classpath): an endpoint that fails the way a bug would, with a
 * secret in the exception message, to prove a 500 tells the client nothing of it.
 */
@Hidden
@RestController
public class FailingController {

    public static final String PATH = "/test-only/failure";
    /** Looks like a credential on purpose: it must never reach a response. */
    public static final String SECRET_IN_MESSAGE = "sk_live_5ecre7c0ffee0ddba11cafe0000000000000000";

    @GetMapping(PATH)
    String fail() {
        throw new IllegalStateException("database password=hunter2 key=" + SECRET_IN_MESSAGE + " at table redemptions");
    }
}
