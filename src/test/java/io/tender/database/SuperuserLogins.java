package io.tender.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * Logging in to an embedded PostgreSQL over TCP as its superuser, as anyone else on the machine could try: with
 * JDBC, the port and a password (or none).
 */
final class SuperuserLogins {

    /** Where the service keeps the superuser's password, relative to its data folder. */
    static final String PASSWORD_FILE = "postgres.password";

    private SuperuserLogins() {
    }

    /** A connection as {@code postgres} to {@code host:port}, with {@code password} (null: none sent). */
    static Connection connect(String host, int port, String password) throws SQLException {
        Properties login = new Properties();
        login.setProperty("user", "postgres");
        if (password != null) {
            login.setProperty("password", password);
        }
        login.setProperty("connectTimeout", "10");
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/postgres", login);
    }

    /** Whatever the password file of {@code dataDir} holds (it must exist). */
    static String passwordIn(Path dataDir) {
        try {
            return Files.readString(dataDir.resolve(PASSWORD_FILE)).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The value of the first column of the first row {@code sql} answers. */
    static String queryOne(Connection connection, String sql) throws SQLException {
        try (var statement = connection.createStatement(); var rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getString(1);
        }
    }
}
