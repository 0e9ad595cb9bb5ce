package io.tender.paymentrequest;

import io.tender.auth.Caller;
import io.tender.auth.Merchants;
import io.tender.notify.Channel;
import io.tender.notify.PaymentLinkMessage;
import io.tender.notify.PaymentLinkNotifications;
import org.springframework.stereotype.Component;

/**
 * A request's {@code notify} (decisions §7): checked when the request is made (a channel without a way to reach the
 * customer is 400; a channel this service cannot send on is 422 naming the setting), and the link queued in the
 * transaction that makes the request, so it goes out exactly when the request exists.
 */
@Component
record RequestNotifications(PaymentLinkNotifications notifications, Merchants merchants) {
    void check(Caller caller, PaymentRequest.Customer customer, PaymentRequest.Notify notify) {
        boolean noEmail = notify.email() && (customer == null || customer.email() == null);
        boolean noPhone = notify.sms() && (customer == null || customer.phone() == null);
        if (noEmail || noPhone) {
            throw new PaymentRequestRejection.NoWayToReach(noEmail, noPhone).thrown();
        }
        if (notify.email() && !notifications.emailAvailable()) {
            throw new PaymentRequestRejection.EmailUnavailable().thrown();
        }
        if (notify.sms() && !notifications.smsAvailable(caller.mode())) {
            throw new PaymentRequestRejection.SmsUnavailable(caller.mode().wire()).thrown();
        }
    }

    /** Queues the link by each channel asked for, in the caller's transaction. */
    void enqueue(Caller caller, PaymentRequest request, String link) {
        var notify = request.notifyChannels();
        if (!notify.email() && !notify.sms()) {
            return;
        }
        var customer = request.customer();
        var message = new PaymentLinkMessage(merchants.byId(caller.merchantId()).map(Merchants.Merchant::name)
                .orElse(""), customer.name(), customer.email(), customer.phone(), link, request.amount(),
                request.currency(), request.description(), request.expiresAt(), request.mode());
        if (notify.email()) {
            notifications.enqueue(caller, request.id(), Channel.EMAIL, message);
        }
        if (notify.sms()) {
            notifications.enqueue(caller, request.id(), Channel.SMS, message);
        }
    }
}
