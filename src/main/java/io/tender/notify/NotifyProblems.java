package io.tender.notify;

import io.tender.api.ApiException;
import io.tender.api.RejectionProblems;
import org.springframework.stereotype.Component;

/** The notify module's web edge: the problem each {@link NotifyRejection} answers. */
@Component
class NotifyProblems implements RejectionProblems<NotifyRejection> {

    @Override
    public ApiException problem(NotifyRejection rejection) {
        return switch (rejection) {
            case NotifyRejection.ChannelUnavailable r -> ApiException.notPossible(r.channel() == Channel.EMAIL
                    ? "This service has no mail server configured, so it cannot send notify.email."
                    : "This service has no SMS gateway configured for live mode, so it cannot send notify.sms.");
        };
    }
}
