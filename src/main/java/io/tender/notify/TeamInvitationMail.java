package io.tender.notify;

import jakarta.mail.MessagingException;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.mail.MailException;
import org.springframework.mail.javamail.JavaMailSender;
import org.springframework.mail.javamail.MimeMessageHelper;
import org.springframework.stereotype.Component;
import org.thymeleaf.ITemplateEngine;
import org.thymeleaf.context.Context;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;

/**
 * A dashboard invitation by email (decisions §11: "owners invite teammates by email, through the mail settings of
 * §7"): the same SMTP server ({@code spring.mail.*}) and From ({@code tender.notifications.mail-from}) as payment
 * links. Sent at once, not queued: the owner who invites is looking at the page and is told whether it went, and
 * is shown the link to hand over when it did not. The link is a secret: no log line carries it.
 */
@Component
public class TeamInvitationMail {

    /** What the invitation says: who is invited to which merchant's dashboard by whom, and the link until when. */
    public record Invitation(String email, String merchantName, String invitedBy, String role, String url,
                             Instant validUntil) {
    }

    /** Whether the email went to the mail server. */
    public enum Delivery {
        SENT, NO_MAIL_SERVER, FAILED
    }

    private static final Logger log = LoggerFactory.getLogger(TeamInvitationMail.class);
    private static final DateTimeFormatter UNTIL =
            DateTimeFormatter.ofPattern("d MMMM uuuu, HH:mm 'UTC'", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private final ObjectProvider<JavaMailSender> senders;
    private final ITemplateEngine templates;
    private final NotificationSettings settings;

    TeamInvitationMail(ObjectProvider<JavaMailSender> senders, ITemplateEngine templates,
                       NotificationSettings settings) {
        this.senders = senders;
        this.templates = templates;
        this.settings = settings;
    }

    public Delivery send(Invitation invitation) {
        JavaMailSender sender = senders.getIfAvailable();
        if (sender == null) {
            return Delivery.NO_MAIL_SERVER;
        }
        try {
            MimeMessage mime = sender.createMimeMessage();
            var helper = new MimeMessageHelper(mime, true, "UTF-8");
            helper.setFrom(settings.mailFrom());
            helper.setTo(new InternetAddress(invitation.email()));
            helper.setSubject(subject(invitation));
            helper.setText(text(invitation), html(invitation));
            sender.send(mime);
            return Delivery.SENT;
        } catch (MessagingException | MailException | IllegalArgumentException e) {
            log.warn("A dashboard invitation was not emailed: {}", e.getClass().getSimpleName());
            return Delivery.FAILED;
        }
    }

    static String subject(Invitation i) {
        return i.invitedBy() + " invited you to " + i.merchantName() + "'s Tender dashboard";
    }

    static String text(Invitation i) {
        return "Hello,\n\n" + i.invitedBy() + " invited you to the Tender dashboard of " + i.merchantName()
                + " as " + article(i.role()) + " " + i.role() + ".\n\n"
                + "Open this link to choose your password and sign in. It works once, until "
                + UNTIL.format(i.validUntil()) + " (24 hours):\n\n" + i.url() + "\n\n"
                + "If you did not expect this invitation, you can ignore this email.\n";
    }

    private String html(Invitation i) {
        var context = new Context(Locale.ENGLISH, Map.of("invitation", i, "subject", subject(i),
                "article", article(i.role()), "until", UNTIL.format(i.validUntil())));
        return templates.process("mail/team-invitation", context);
    }

    private static String article(String role) {
        return role.startsWith("o") ? "an" : "a";
    }
}
