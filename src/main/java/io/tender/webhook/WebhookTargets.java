package io.tender.webhook;

import io.tender.auth.Mode;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Which URLs an endpoint may target. Test-mode endpoints may point anywhere, loopback included (that is how a
 * developer receives webhooks on their own machine). Live-mode endpoints must use https and must not resolve to a
 * loopback, private, link-local, multicast or otherwise internal address, so that a merchant cannot make the service
 * call into the operator's own network (SSRF), unless the operator sets
 * {@code tender.webhooks.allow-private-targets=true}. The check runs when the URL is set, and every attempt's
 * connection resolves the host through {@link #resolveForConnect}, which applies the same rule to the very addresses
 * it connects to: DNS answers change, and one that changed since the URL was set (DNS rebinding) cannot lead the
 * connection inside.
 */
@Component
class WebhookTargets {

    static final int MAX_URL_LENGTH = 2048;

    /** Why a URL was refused, in words for the client (never echoing the URL). */
    record Refusal(String reason) {
    }

    /** Looks a host name up: the system's resolver, or a scripted one in tests. */
    @FunctionalInterface
    interface HostLookup {
        InetAddress[] addresses(String host) throws UnknownHostException;
    }

    /** A connection refused because the host resolved to an address a live-mode endpoint may not reach. */
    static final class AddressNotAllowedException extends UnknownHostException {
        AddressNotAllowedException() {
            super("the host resolves to an address this endpoint may not reach");
        }
    }

    private final boolean allowPrivate;
    private final HostLookup lookup;

    @Autowired
    WebhookTargets(WebhookSettings settings) {
        this(settings, InetAddress::getAllByName);
    }

    WebhookTargets(WebhookSettings settings, HostLookup lookup) {
        this.allowPrivate = settings.allowPrivateTargets();
        this.lookup = lookup;
    }

    /** Checks the URL's form and, for live mode, where it resolves to. */
    Optional<Refusal> check(String url, Mode mode) {
        if (url.length() > MAX_URL_LENGTH) {
            return refuse("must be at most " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return refuse("must be an absolute http or https URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
        if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
            return refuse("must be an absolute http or https URL");
        }
        if (uri.getRawUserInfo() != null) {
            return refuse("must not contain credentials");
        }
        if (uri.getRawFragment() != null) {
            return refuse("must not contain a fragment");
        }
        if (mode == Mode.LIVE && !scheme.equals("https")) {
            return refuse("must use https in live mode");
        }
        return checkAddress(uri, mode);
    }

    private Optional<Refusal> checkAddress(URI uri, Mode mode) {
        if (!restricted(mode)) {
            return Optional.empty();
        }
        InetAddress[] addresses;
        try {
            addresses = lookup.addresses(uri.getHost());
        } catch (UnknownHostException e) {
            return refuse("host does not resolve");
        }
        if (anyInternal(addresses)) {
            return refuse("must not point to a loopback, private, link-local or multicast address");
        }
        return Optional.empty();
    }

    /**
     * The addresses an attempt may connect to for this host: what the host resolves to now, refused as a whole
     * ({@link AddressNotAllowedException}) if any of them is internal and the mode forbids that.
     */
    InetAddress[] resolveForConnect(String host, Mode mode) throws UnknownHostException {
        InetAddress[] addresses = lookup.addresses(host);
        if (restricted(mode) && anyInternal(addresses)) {
            throw new AddressNotAllowedException();
        }
        return addresses;
    }

    private boolean restricted(Mode mode) {
        return mode == Mode.LIVE && !allowPrivate;
    }

    private static boolean anyInternal(InetAddress[] addresses) {
        for (InetAddress address : addresses) {
            if (internal(address)) {
                return true;
            }
        }
        return false;
    }

    private static Optional<Refusal> refuse(String reason) {
        return Optional.of(new Refusal(reason));
    }

    /** True for addresses inside a host or a private network, and for ones no public service can have. */
    static boolean internal(InetAddress address) {
        if (address.isAnyLocalAddress() || address.isLoopbackAddress() || address.isLinkLocalAddress()
                || address.isSiteLocalAddress() || address.isMulticastAddress()) {
            return true;
        }
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int first = b[0] & 0xff;
            int second = b[1] & 0xff;
            return first == 0                                     // "this network"
                    || (first == 100 && second >= 64 && second < 128) // carrier-grade NAT 100.64.0.0/10
                    || (first == 192 && second == 0 && (b[2] & 0xff) == 0) // IETF protocol assignments 192.0.0.0/24
                    || (first == 198 && (second == 18 || second == 19))    // benchmarking 198.18.0.0/15
                    || first >= 240;                              // reserved and broadcast
        }
        if (address instanceof Inet6Address) {
            if ((b[0] & 0xfe) == 0xfc) {                          // unique local fc00::/7
                return true;
            }
            if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0xc0) { // deprecated site-local fec0::/10
                return true;
            }
            // IPv4 embedded in IPv6 (compatible ::a.b.c.d, NAT64 64:ff9b::/96): judge the IPv4 address.
            boolean compatible = isZero(b, 0, 12);
            boolean nat64 = (b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff
                    && (b[3] & 0xff) == 0x9b && isZero(b, 4, 12);
            if (compatible || nat64) {
                try {
                    return internal(InetAddress.getByAddress(new byte[]{b[12], b[13], b[14], b[15]}));
                } catch (UnknownHostException e) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isZero(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
