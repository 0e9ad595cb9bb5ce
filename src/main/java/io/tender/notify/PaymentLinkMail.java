package io.tender.notify;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.mail.MailPreparationException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import org.thymeleaf.ITemplateEngine;
import org.thymeleaf.context.Context;

import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Payment links by email through Spring Boot's {@link JavaMailSender}, which exists only when {@code spring.mail.host}
 * is set. Each email has a text part and an HTML part (multipart/alternative); the HTML comes from
 * {@code templates/mail/payment-link.html}, escaped by Thymeleaf, with no remote asset.
 */
@Component
record PaymentLinkMail(ObjectProvider<JavaMailSender> senders, ITemplateEngine templates,
                       NotificationSettings settings) {
    boolean available() {
        return senders.getIfAvailable() != null;
    }

    /** Sends the email; throws when it did not go out (the caller retries). */
    void send(String notificationId, PaymentLinkMessage m) {
        JavaMailSender sender = senders.getIfAvailable();
        if (sender == null) {
            throw new IllegalStateException("no mail server is configured (spring.mail.host)");
        }
        sender.send(compose(sender.createMimeMessage(), notificationId, m));
    }

    private MimeMessage compose(MimeMessage mime, String notificationId, PaymentLinkMessage m) {
        try {
            var helper = new MimeMessageHelper(mime, MimeMessageHelper.MULTIPART_MODE_RELATED,
                    StandardCharsets.UTF_8.name());
            helper.setFrom(settings.mailFrom());
            helper.setTo(new InternetAddress(m.email(), m.recipientName(), StandardCharsets.UTF_8.name()));
            helper.setSubject(PaymentLinkTexts.subject(m));
            helper.setText(PaymentLinkTexts.emailText(m), html(m));
            // Lets an operator match a message in the mail server's logs to its row; not a secret.
            mime.setHeader("X-Tender-Notification", notificationId);
            return mime;
        } catch (MessagingException | UnsupportedEncodingException e) {
            throw new MailPreparationException("The email could not be composed: " + e.getMessage(), e);
        }
    }

    private String html(PaymentLinkMessage m) {
        var context = new Context(Locale.ENGLISH, Map.of(
                "message", m,
                "amount", PaymentLinkTexts.amount(m),
                "subject", PaymentLinkTexts.subject(m),
                "test", PaymentLinkTexts.test(m)));
        if (m.expiresAt() != null) {
            context.setVariable("expiry", PaymentLinkTexts.expiry(m.expiresAt()));
        }
        return templates.process("mail/payment-link", context);
    }
}
