package io.tender.secrets;

import io.tender.database.DataDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import org.springframework.util.StringUtils;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * The one secret everything else is derived from: {@code TENDER_MASTER_KEY} (32 bytes, base64), or else a key file
 * {@code <data-dir>/master.key} generated on first start (only with the embedded database: start-up refuses an
 * external database without the variable). Several instances on one database must share it.
 * <p>
 * During a rotation {@code TENDER_MASTER_KEY_PREVIOUS} holds the key being replaced: values sealed under it still
 * open, and {@link Resealer} seals them again under the current key.
 */
@Component
public class MasterKey {

    private static final Logger log = LoggerFactory.getLogger(MasterKey.class);

    private final byte[] key;
    private final byte[] previous;

    @Autowired
    MasterKey(MasterKeySettings settings, DataDirectory dataDirectory) {
        this(settings.masterKey(), settings.masterKeyPrevious(), dataDirectory.dataDir());
    }

    MasterKey(String configured, String previous, Path dataDir) {
        this.key = StringUtils.hasText(configured)
                ? decode(configured, "TENDER_MASTER_KEY") : fromFile(dataDir.resolve("master.key"));
        byte[] old = StringUtils.hasText(previous) ? decode(previous, "TENDER_MASTER_KEY_PREVIOUS") : null;
        // The same key twice is no rotation: nothing to read with it, nothing to re-seal.
        this.previous = old == null || Arrays.equals(old, key) ? null : old;
    }

    /** Without a previous key (tests). */
    MasterKey(String configured, Path dataDir) {
        this(configured, "", dataDir);
    }

    /** A 32-byte key for one purpose, so that no two uses share key material (HKDF-style expand with HMAC-SHA256). */
    public byte[] derive(String purpose) {
        return derive(key, purpose);
    }

    /** {@link #derive} from the key being rotated out, if there is one. */
    Optional<byte[]> deriveFromPrevious(String purpose) {
        return Optional.ofNullable(previous).map(p -> derive(p, purpose));
    }

    boolean rotating() {
        return previous != null;
    }

    static byte[] derive(byte[] key, String purpose) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(("tender/" + purpose).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] decode(String configured, String variable) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(configured.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(variable + " must be 32 bytes in base64");
        }
        if (bytes.length != 32) {
            throw new IllegalStateException(variable + " must be 32 bytes in base64");
        }
        return bytes;
    }

    private static byte[] fromFile(Path file) {
        try {
            if (!Files.exists(file)) {
                Files.createDirectories(file.toAbsolutePath().getParent());
                byte[] fresh = new byte[32];
                new SecureRandom().nextBytes(fresh);
                try {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                    Files.writeString(file, Base64.getEncoder().encodeToString(fresh));
                    log.info("Generated a new master key in {}; keep it with the database, or set TENDER_MASTER_KEY", file);
                } catch (FileAlreadyExistsException raced) {
                    // another process created it first; use theirs
                }
            }
            return decode(Files.readString(file), "the master key file " + file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or create the master key file " + file, e);
        }
    }
}
