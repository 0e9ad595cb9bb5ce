/**
 * QR codes of payment links and payment pages (issue 14), so a merchant can print them: PNG or SVG, made with ZXing,
 * never cached (a payment request's link is a secret).
 */
@ApplicationModule(allowedDependencies = {"api"})
package io.tender.qr;

import org.springframework.modulith.ApplicationModule;
