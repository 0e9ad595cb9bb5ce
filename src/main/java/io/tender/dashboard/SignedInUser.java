package io.tender.dashboard;

import java.io.Serializable;

/** Who is signed in to the dashboard: the principal of its sessions. The merchant of every page is this one's. */
public record SignedInUser(String userId, String merchantId, String email, Role role) implements Serializable {

    static SignedInUser of(DashboardUsers.User user) {
        return new SignedInUser(user.id(), user.merchantId(), user.email(), user.role());
    }
}
