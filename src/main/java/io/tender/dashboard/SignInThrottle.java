package io.tender.dashboard;

import io.tender.ratelimit.SharedWindows;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * The sign-in limits of decisions §11 and §13, in windows every instance shares (the PostgreSQL buckets of §12,
 * {@link SharedWindows}): at most {@code failedSignInsPerAccount} failures per email in {@code accountWindow} (10 in 15
 * minutes) and {@code failedSignInsPerAddress} per client address in {@code addressWindow} (20 a minute), an IPv6 client
 * counted by its /64. Passwords, second-factor codes and re-entered passwords all count here.
 * <p>
 * An attempt takes its tokens before the password is checked ({@link #begin}) and gives them back when it was right
 * ({@link #succeeded}): so only failures use the windows up, and a burst of guesses sent at once to any number of
 * instances gets no more checks than the windows hold. Once either window is empty every attempt is refused, the right
 * password too, until it is given back whole at its end.
 * <p>
 * A refusal is worth one audit row per email and address and window, not one per attempt ({@link #firstRefusal}): the
 * log is append-only, and an attacker must not be able to fill it.
 */
@Component
class SignInThrottle {

    /** The tokens an attempt took, given back if it succeeds. */
    record Attempt(String account, String address) {
    }

    private final SharedWindows.Window accounts;
    private final SharedWindows.Window addresses;
    private final SharedWindows.Window refusals;

    SignInThrottle(DashboardSettings settings, SharedWindows windows) {
        this.accounts = windows.window("sign-in-account", settings.failedSignInsPerAccount(),
                settings.accountWindow());
        this.addresses = windows.window("sign-in-address", settings.failedSignInsPerAddress(),
                settings.addressWindow());
        // The longer window, so that a refusal by either limit is recorded at most once while it lasts.
        this.refusals = windows.window("sign-in-refused", 1, settings.accountWindow().compareTo(
                settings.addressWindow()) >= 0 ? settings.accountWindow() : settings.addressWindow());
    }

    /** The attempt, its tokens taken; empty when either window is used up (nothing is then taken). */
    Optional<Attempt> begin(String email, String remoteAddress) {
        String account = account(email);
        String address = SharedWindows.clientAddress(remoteAddress);
        if (!accounts.tryTake(account)) {
            return Optional.empty();
        }
        if (!addresses.tryTake(address)) {
            accounts.giveBack(account);
            return Optional.empty();
        }
        return Optional.of(new Attempt(account, address));
    }

    /** The attempt was right: it does not count as a failure. */
    void succeeded(Attempt attempt) {
        accounts.giveBack(attempt.account());
        addresses.giveBack(attempt.address());
    }

    /**
     * Whether this refusal of {@code what} (a sign-in, a code, a re-entered password) for the email and address is the
     * first in the refusal window, the only one to record.
     */
    boolean firstRefusal(String what, String email, String remoteAddress) {
        return refusals.tryTake(what + ":" + account(email) + ":" + SharedWindows.clientAddress(remoteAddress));
    }

    /**
     * An email's key: its SHA-256, so that what people type into the email field (a password, sometimes) is not kept
     * in the buckets' table.
     */
    private static String account(String email) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(email.strip().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
