package io.tender.apiversion;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The API version of the request at hand, as {@link VersionSelection} chose it: the {@code Tender-Version} header's,
 * or the caller's merchant's pinned one. Requests that are not the API's (the dashboard's forms and pages among them)
 * have none and act in the newest version, whose shapes are the stored ones.
 */
public final class RequestVersion {

    /** The version as the request asked for it (a valid {@code Tender-Version}), before authentication. */
    static final String REQUESTED = RequestVersion.class.getName() + ".requested";
    /** The refusal of a malformed or unknown {@code Tender-Version}, answered once the caller is authenticated. */
    static final String REFUSED = RequestVersion.class.getName() + ".refused";
    /** The version the request is read and answered in. */
    static final String RESOLVED = RequestVersion.class.getName() + ".resolved";

    private RequestVersion() {
    }

    /** The request's version, or the newest for a request that has none. */
    public static ApiVersion of(HttpServletRequest request) {
        return request.getAttribute(RESOLVED) instanceof ApiVersion version ? version : ApiVersions.NEWEST;
    }

    /** The version chosen for this API request; null before authentication and for requests that are not the API's. */
    static ApiVersion resolved(HttpServletRequest request) {
        return request.getAttribute(RESOLVED) instanceof ApiVersion version ? version : null;
    }
}
