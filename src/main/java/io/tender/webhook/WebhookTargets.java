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
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which URLs an endpoint may target (decisions §9). One address rule for every mode: an endpoint may not reach a
 * loopback, private, link-local, unique-local, carrier-grade NAT, multicast, unspecified or reserved address, nor such
 * an address written in another form (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo, or a numeric IPv4 form such
 * as {@code 2130706433} or {@code 0x7f.1}), nor a name that resolves to one; so that no key, test or live, can make
 * the service call into the operator's own machine or network (SSRF), or use the attempt log as a port scanner.
 * {@code tender.webhooks.allow-private-targets=true} (a developer's laptop) lifts the rule for test mode only; live
 * mode is never lifted. Live mode also needs https.
 *
 * <p>The rule runs when the URL is set (create, PATCH), and every attempt's connection resolves the host through
 * {@link #resolveForConnect}, which applies it to the very addresses it connects to: DNS answers change, and one that
 * changed since the URL was set (DNS rebinding) cannot lead the connection inside.
 */
@Component
class WebhookTargets {

    static final int MAX_URL_LENGTH = 2048;
    /**
     * The refusal of an internal address, naming the two ways a developer can still receive webhooks on their own
     * machine: {@code tender listen}, which forwards events there without the service calling into it, and the setting.
     */
    static final String INTERNAL = "must not point to a loopback, private, link-local or multicast address; to "
            + "receive webhooks on this machine, run tender listen --forward-to URL (see docs/events.md), or for test "
            + "mode only start the service with TENDER_WEBHOOKS_ALLOW_PRIVATE_TARGETS=true";

    /** A host whose last label is a number: browsers, curl and the C resolver read it as an IPv4 address. */
    private static final Pattern NUMERIC_HOST = Pattern.compile("(?i)^(.*\\.)?(0x[0-9a-f]*|[0-9]+)\\.?$");
    private static final Pattern CANONICAL_IPV4 =
            Pattern.compile("^(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}$");

    /** Why a URL was refused, in words for the client (never echoing the URL). */
    record Refusal(String reason) {
    }

    /** Looks a host name up: the system's resolver, or a scripted one in tests. Never sees an IP literal. */
    @FunctionalInterface
    interface HostLookup {
        InetAddress[] addresses(String host) throws UnknownHostException;
    }

    /** A connection refused because the host resolved to an address this endpoint may not reach. */
    static final class AddressNotAllowedException extends UnknownHostException {
        AddressNotAllowedException() {
            super("the host resolves to an address this endpoint may not reach");
        }
    }

    private final boolean allowPrivateInTestMode;
    private final HostLookup lookup;

    @Autowired
    WebhookTargets(WebhookSettings settings) {
        this(settings, InetAddress::getAllByName);
    }

    WebhookTargets(WebhookSettings settings, HostLookup lookup) {
        this.allowPrivateInTestMode = settings.allowPrivateTargets();
        this.lookup = lookup;
    }

    /** Checks the URL's form and where it resolves to. */
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
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!uri.isAbsolute() || !(scheme.equals("http") || scheme.equals("https")) || uri.getRawAuthority() == null) {
            return refuse("must be an absolute http or https URL");
        }
        if (uri.getRawUserInfo() != null) {
            return refuse("must not contain credentials");
        }
        if (uri.getHost() == null) {
            // java.net.URI finds no host in forms such as 127.1 or 0x7f.1, which other clients read as addresses.
            return refuse("must name a host, or an IPv4 address as four decimal numbers");
        }
        if (uri.getRawFragment() != null) {
            return refuse("must not contain a fragment");
        }
        if (mode == Mode.LIVE && !scheme.equals("https")) {
            return refuse("must use https in live mode");
        }
        return checkAddress(uri.getHost(), mode);
    }

    private Optional<Refusal> checkAddress(String host, Mode mode) {
        InetAddress[] addresses;
        try {
            addresses = resolve(host);
        } catch (UnknownHostException e) {
            return restricted(mode) ? refuse("host does not resolve") : Optional.empty();
        }
        if (restricted(mode) && anyInternal(addresses)) {
            return refuse(INTERNAL);
        }
        if (isNumeric(host) && !CANONICAL_IPV4.matcher(host).matches()) {
            // Clients disagree on forms like 0177.0.0.1 (octal to some, decimal to others): accept one spelling.
            return refuse("must write an IPv4 address as four decimal numbers");
        }
        return Optional.empty();
    }

    /**
     * The addresses an attempt may connect to for this host: what the host resolves to now, refused as a whole
     * ({@link AddressNotAllowedException}) if any of them is internal and the mode forbids that.
     */
    InetAddress[] resolveForConnect(String host, Mode mode) throws UnknownHostException {
        InetAddress[] addresses = resolve(host);
        if (restricted(mode) && anyInternal(addresses)) {
            throw new AddressNotAllowedException();
        }
        return addresses;
    }

    private boolean restricted(Mode mode) {
        return mode == Mode.LIVE || !allowPrivateInTestMode;
    }

    /** IP literals (numeric IPv4 forms included) are read here, the same way at check and at connect; names looked up. */
    private InetAddress[] resolve(String host) throws UnknownHostException {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.contains(":")) {
            int zone = bare.indexOf('%');
            // An IPv6 literal: no lookup happens. A zone (interface) only exists for link-local, internal anyway.
            return new InetAddress[]{InetAddress.getByAddress(ipv6Bytes(zone < 0 ? bare : bare.substring(0, zone)))};
        }
        if (isNumeric(bare)) {
            return new InetAddress[]{numericIpv4(bare)};
        }
        return lookup.addresses(bare.toLowerCase(Locale.ROOT));
    }

    private static byte[] ipv6Bytes(String literal) throws UnknownHostException {
        if (!literal.matches("(?i)[0-9a-f:.]+")) {
            throw new UnknownHostException("not an IPv6 address");
        }
        // Only hex digits, colons and dots: InetAddress parses it as a literal, it never asks DNS.
        byte[] bytes = InetAddress.getByName(literal).getAddress();
        if (bytes.length == 4) { // an IPv4-mapped literal, which Java hands back as IPv4
            return new byte[]{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, bytes[0], bytes[1], bytes[2], bytes[3]};
        }
        return bytes;
    }

    static boolean isNumeric(String host) {
        return NUMERIC_HOST.matcher(host).matches();
    }

    /**
     * A host whose last label is a number, read as the WHATWG URL standard and {@code inet_aton} read it: one to four
     * parts, each decimal, octal (leading 0) or hex (0x), the last filling the remaining bytes.
     */
    static Inet4Address numericIpv4(String host) throws UnknownHostException {
        String text = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        String[] parts = text.split("\\.", -1);
        if (parts.length > 4) {
            throw new UnknownHostException("not an IPv4 address");
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            values[i] = part(parts[i]);
        }
        long address = 0;
        for (int i = 0; i < parts.length - 1; i++) {
            if (values[i] > 255) {
                throw new UnknownHostException("not an IPv4 address");
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[parts.length - 1];
        if (last >= 1L << (8 * (5 - parts.length))) {
            throw new UnknownHostException("not an IPv4 address");
        }
        address |= last;
        return (Inet4Address) InetAddress.getByAddress(new byte[]{
                (byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address});
    }

    private static long part(String part) throws UnknownHostException {
        String lower = part.toLowerCase(Locale.ROOT);
        int radix = 10;
        String digits = lower;
        if (lower.startsWith("0x")) {
            radix = 16;
            digits = lower.substring(2);
            if (digits.isEmpty()) {
                return 0; // WHATWG reads a bare "0x" as zero
            }
        } else if (lower.length() > 1 && lower.startsWith("0")) {
            radix = 8;
            digits = lower.substring(1);
        }
        if (digits.isEmpty() || digits.length() > 12) {
            throw new UnknownHostException("not an IPv4 address");
        }
        try {
            return Long.parseLong(digits, radix);
        } catch (NumberFormatException e) {
            throw new UnknownHostException("not an IPv4 address");
        }
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

    /**
     * True for addresses inside a host or a private network, for ones no public service can have, and for IPv6
     * addresses that carry such an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4, Teredo server or client).
     */
    static boolean internal(InetAddress address) {
        byte[] b = address.getAddress();
        return b.length == 4 ? internalIpv4(b) : internalIpv6(b);
    }

    private static boolean internalIpv4(byte[] b) {
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        int third = b[2] & 0xff;
        return first == 0                                          // "this network", 0.0.0.0
                || first == 10                                     // private 10/8
                || first == 127                                    // loopback 127/8
                || (first == 100 && second >= 64 && second < 128)  // carrier-grade NAT 100.64/10
                || (first == 169 && second == 254)                 // link-local 169.254/16 (cloud metadata)
                || (first == 172 && second >= 16 && second < 32)   // private 172.16/12
                || (first == 192 && second == 168)                 // private 192.168/16
                || (first == 192 && second == 0 && third == 0)     // IETF protocol assignments 192.0.0/24
                || (first == 192 && second == 88 && third == 99)   // 6to4 relay anycast 192.88.99/24
                || (first == 198 && (second == 18 || second == 19)) // benchmarking 198.18/15
                || first >= 224;                                   // multicast 224/4, reserved 240/4, broadcast
    }

    private static boolean internalIpv6(byte[] b) {
        int first = b[0] & 0xff;
        int second = b[1] & 0xff;
        if (isZero(b, 0, 15) && (b[15] == 0 || b[15] == 1)) {     // unspecified ::, loopback ::1
            return true;
        }
        if (first == 0xff                                          // multicast ff00::/8
                || (first & 0xfe) == 0xfc                          // unique local fc00::/7
                || (first == 0xfe && (second & 0xc0) == 0x80)      // link-local fe80::/10
                || (first == 0xfe && (second & 0xc0) == 0xc0)      // deprecated site-local fec0::/10
                || (first == 0x01 && second == 0x00 && isZero(b, 2, 8))) { // discard-only 100::/64
            return true;
        }
        if (isZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) { // IPv4-mapped ::ffff:0:0/96
            return internalIpv4(slice(b, 12));
        }
        if (isZero(b, 0, 8) && (b[8] & 0xff) == 0xff && (b[9] & 0xff) == 0xff && isZero(b, 10, 12)) { // SIIT ::ffff:0:0:0/96
            return internalIpv4(slice(b, 12));
        }
        if (isZero(b, 0, 12)) {                                    // IPv4-compatible ::/96 (deprecated)
            return internalIpv4(slice(b, 12));
        }
        if (first == 0x00 && second == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
            if (isZero(b, 4, 12)) {                                // NAT64 well-known prefix 64:ff9b::/96
                return internalIpv4(slice(b, 12));
            }
            if (b[4] == 0 && b[5] == 1) {                          // local-use NAT64 64:ff9b:1::/48: a private network
                return true;
            }
        }
        if (first == 0x20 && second == 0x02) {                     // 6to4 2002:V4ADDR::/48
            return internalIpv4(slice(b, 2));
        }
        if (first == 0x20 && second == 0x01 && b[2] == 0 && b[3] == 0) { // Teredo 2001:0::/32
            byte[] client = slice(b, 12);
            for (int i = 0; i < 4; i++) {
                client[i] = (byte) ~client[i];                     // the client address is stored inverted
            }
            return internalIpv4(slice(b, 4)) || internalIpv4(client);
        }
        return false;
    }

    private static byte[] slice(byte[] bytes, int from) {
        return new byte[]{bytes[from], bytes[from + 1], bytes[from + 2], bytes[from + 3]};
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
