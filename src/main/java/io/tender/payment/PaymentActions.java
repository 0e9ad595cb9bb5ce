package io.tender.payment;

import io.tender.auth.Caller;
import io.tender.auth.Mode;
import io.tender.idempotency.IdempotentRequests;
import io.tender.idempotency.StoredResponse;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.stereotype.Service;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * The money actions of the dashboard's payment page (decisions §11): a capture, a void and a refund, through the very
 * flows the API's {@code POST /collect/payments/{id}/captures}, {@code …/voids} and {@code …/refunds} run
 * ({@link CapturesAndVoids}, {@link PaymentRefunds}), under an Idempotency-Key the form carries, bound to the API
 * request it stands for: a form sent twice does its work once and answers the first outcome again. Each answers as
 * the API would ({@link StoredResponse}: its status and JSON, or the problem).
 */
@Service
public class PaymentActions {

    /** The reasons a refund may give, in wire form. */
    public static final java.util.List<String> REFUND_REASONS = Refund.Reason.WIRE;

    private final CapturesAndVoids capturesAndVoids;
    private final PaymentRefunds refunds;
    private final IdempotentRequests idempotent;

    PaymentActions(CapturesAndVoids capturesAndVoids, PaymentRefunds refunds, IdempotentRequests idempotent) {
        this.capturesAndVoids = capturesAndVoids;
        this.refunds = refunds;
        this.idempotent = idempotent;
    }

    /** Captures {@code amount} minor units (null: all that is held). */
    public StoredResponse capture(String merchantId, Mode mode, String paymentId, String key, Long amount,
                                  HttpServletRequest page) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        if (amount != null) {
            body.put("amount", amount);
        }
        return capturesAndVoids.capture(Caller.system(merchantId, mode), paymentId,
                idempotent.keyed(key, "POST", "/collect/payments/" + paymentId + "/captures", body, page), null,
                amount, Map.of());
    }

    /** Voids what the authorization still holds. */
    public StoredResponse voidPayment(String merchantId, Mode mode, String paymentId, String key,
                                      HttpServletRequest page) {
        return capturesAndVoids.voidPayment(Caller.system(merchantId, mode), paymentId,
                idempotent.keyed(key, "POST", "/collect/payments/" + paymentId + "/voids",
                        JsonNodeFactory.instance.objectNode(), page), null, Map.of());
    }

    /** Refunds {@code amount} minor units (null: all that is refundable) for {@code reason} (a wire name, or null). */
    public StoredResponse refund(String merchantId, Mode mode, String paymentId, String key, Long amount,
                                 String reason, HttpServletRequest page) {
        Refund.Reason why = reason == null ? null : Refund.Reason.fromWire(reason)
                .orElseThrow(() -> new IllegalArgumentException("no refund reason " + reason));
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        if (amount != null) {
            body.put("amount", amount);
        }
        if (why != null) {
            body.put("reason", why.wire());
        }
        return refunds.refund(Caller.system(merchantId, mode), paymentId,
                idempotent.keyed(key, "POST", "/collect/payments/" + paymentId + "/refunds", body, page), null,
                new PaymentRefunds.NewRefund(amount, why, Map.of()));
    }
}
