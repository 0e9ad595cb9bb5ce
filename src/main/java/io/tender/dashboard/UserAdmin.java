package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.ApiException;
import io.tender.api.JsonInput;
import io.tender.api.ProblemCode;
import io.tender.auth.AdminAccess;
import io.tender.payment.PublicBase;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The admin API's way to make a dashboard user for any merchant (decisions §11): {@code POST
 * /admin/merchants/{name}/users} {@code {email, role}} answers the user and a one-time {@code sign_in_url}, shown
 * this once, with which they set a password and are signed in.
 */
@Hidden
@RestController
record UserAdmin(AdminAccess access, DashboardUsers users, OneTimeLinks links, PublicBase publicBase) {

    /** Something@something, no spaces: the one mail server that can tell is the one that receives the invitation. */
    static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+$");

    record UserView(String id, String email, String role, String signInUrl) {
    }

    @PostMapping("/admin/merchants/{merchant}/users")
    ResponseEntity<UserView> create(HttpServletRequest request, @PathVariable String merchant,
                                    @RequestBody(required = false) JsonNode body) {
        access.authorize(request);
        var m = access.merchant(merchant);
        JsonInput in = JsonInput.body(body).allow(Set.of("email", "role"));
        String email = in.string("email", true, 3, 254, EMAIL, "must be an email address");
        String role = in.string("role", true);
        in.check(role == null || Role.fromWire(role).isPresent(), "role", "must be one of owner, developer, viewer");
        in.throwIfInvalid();
        DashboardUsers.User user;
        try {
            user = users.create(m.id(), email, Role.fromWire(role).orElseThrow());
        } catch (DashboardUsers.EmailTaken e) {
            throw new ApiException(ProblemCode.RESOURCE_ALREADY_EXISTS,
                    "The merchant has a dashboard user with this email.");
        }
        // A user just made has no password: their link is issued.
        String url = signInUrl(publicBase, links.issue(user.id()).orElseThrow());
        return ResponseEntity.status(HttpStatus.CREATED)
                .body(new UserView(user.id(), user.email(), user.role().wire(), url));
    }

    /** A link's URL: on the configured public base URL, never on a request's Host header. */
    static String signInUrl(PublicBase publicBase, String token) {
        return publicBase.url() + "/dashboard/link/" + token;
    }
}
