package io.tender.secrets;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
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
import java.util.Base64;

/**
 * The one secret everything else is derived from: {@code TENDER_MASTER_KEY} (32 bytes, base64), or else a key file
 * {@code <data-dir>/master.key} generated on first start. Several instances on one database must share it.
 */
@Component
public class MasterKey {

    private static final Logger log = LoggerFactory.getLogger(MasterKey.class);

    private final byte[] key;

    MasterKey(@Value("${tender.master-key:}") String configured, @Value("${tender.data-dir}") Path dataDir) {
        this.key = StringUtils.hasText(configured) ? decode(configured) : fromFile(dataDir.resolve("master.key"));
    }

    /** A 32-byte key for one purpose, so that no two uses share key material (HKDF-style expand with HMAC-SHA256). */
    public byte[] derive(String purpose) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(("tender/" + purpose).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] decode(String configured) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(configured.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("TENDER_MASTER_KEY must be 32 bytes in base64");
        }
        if (bytes.length != 32) {
            throw new IllegalStateException("TENDER_MASTER_KEY must be 32 bytes in base64");
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
            return decode(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or create the master key file " + file, e);
        }
    }
}
