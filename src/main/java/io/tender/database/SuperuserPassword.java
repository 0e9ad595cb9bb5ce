package io.tender.database;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The embedded PostgreSQL's superuser password (decisions §12): 32 random bytes, generated on the first start of a
 * data folder into {@code <data-dir>/postgres.password}, a file created readable and writable by its owner alone.
 * The value never reaches a log line or an exception message; {@link #toString} shows only the file.
 */
final class SuperuserPassword {

    static final String FILE_NAME = "postgres.password";

    private static final Logger log = LoggerFactory.getLogger(SuperuserPassword.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private final Path file;
    private final String value;

    private SuperuserPassword(Path file, String value) {
        this.file = file;
        this.value = value;
    }

    /** The password file of {@code dataDir}, whether or not it exists yet. */
    static Path fileIn(Path dataDir) {
        return dataDir.resolve(FILE_NAME);
    }

    /** Reads the password from {@code file}, generating it first if the file does not exist. */
    static SuperuserPassword readOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                create(file);
            }
            keepToOwner(file);
            String value = Files.readString(file).strip();
            if (value.isEmpty()) {
                throw new IllegalStateException("The embedded PostgreSQL's password file " + file + " is empty");
            }
            return new SuperuserPassword(file, value);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read or create the embedded PostgreSQL's password file " + file, e);
        }
    }

    private static void create(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        try {
            // Created with owner-only permissions, so there is no moment at which anyone else may read it.
            Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        } catch (FileAlreadyExistsException raced) {
            return; // another process created it first; use theirs
        }
        Files.writeString(file, Base64.getUrlEncoder().withoutPadding().encodeToString(random) + "\n");
        log.info("Generated the embedded PostgreSQL's superuser password into {}", file);
    }

    private static void keepToOwner(Path file) throws IOException {
        if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
            log.warn("{} could be read by others than its owner; it is now readable by its owner alone", file);
        }
    }

    Path file() {
        return file;
    }

    String value() {
        return value;
    }

    @Override
    public String toString() {
        return "the password in " + file;
    }
}
