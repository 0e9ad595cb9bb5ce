package io.tender.notify;

/**
 * The SMS gateway SPI: an operator who wants payment links sent by SMS in live mode declares a bean of this type
 * (none is bundled). Test mode never uses it: its messages go to {@link LoggingSmsSender}. An implementation throws
 * to have the message retried; it must not log the text, which holds the payment link.
 */
public interface SmsSender {

    void send(String phoneE164, String text);
}
