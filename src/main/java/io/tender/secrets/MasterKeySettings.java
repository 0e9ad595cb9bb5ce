package io.tender.secrets;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * {@code tender.master-key} and {@code tender.master-key-previous} (checked by {@link MasterKey}: 32 bytes, base64).
 *
 * @param masterKey         encrypts secrets at rest and keys the API-key hashes; empty: generated into the data
 *                          directory (embedded database only)
 * @param masterKeyPrevious during a rotation, the key being replaced: still read, and everything sealed under it is
 *                          re-sealed under the master key
 */
@ConfigurationProperties("tender")
record MasterKeySettings(@DefaultValue("") String masterKey, @DefaultValue("") String masterKeyPrevious) {
}
