/**
 * The service's master key and what is derived from it: AES-GCM sealing of voucher credentials at rest and the
 * keyed hashes that stand in for API keys and voucher PINs wherever a lookup is needed.
 */
@ApplicationModule(allowedDependencies = {"database"})
package io.tender.secrets;

import org.springframework.modulith.ApplicationModule;
