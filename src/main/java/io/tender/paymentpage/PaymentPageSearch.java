package io.tender.paymentpage;

import io.tender.api.Ids;
import io.tender.api.ListQuery;
import io.tender.auth.Caller;
import io.tender.auth.Mode;
import org.springframework.stereotype.Service;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Payment pages for the dashboard's Links pages (decisions §11): a merchant's pages in one mode and one page's
 * transactions, through the API's own lists ({@code GET /collect/payment_pages}, {@code …/{id}/transactions}), as
 * plain records a template reads. Another merchant's or mode's id is never found; a deleted page neither.
 */
@Service
public class PaymentPageSearch {

    /** The statuses a page can have, in wire form. */
    public static final List<String> STATUSES = List.of("active", "inactive", "expired");
    private static final Pattern ID = Ids.publicPattern("pp_");
    private static final Pattern TRANSACTION = Ids.pattern("pt_");

    /** A page as the dashboard shows it: a fixed {@code amount}, or the payer's choice from {@code min} to {@code max}. */
    public record Page(String id, String status, String title, String description, String currency, Long amount,
                       Long min, Long max, String url, Instant createdAt) {
    }

    /** One attempt through a page: {@code succeeded} or {@code failed}, with the payer's details when it asked them. */
    public record Transaction(String id, String status, long amount, String currency, String payerName,
                              String payerEmail, String paymentId, Instant createdAt) {
    }

    /** Some rows and the cursor of the next (null: the last). */
    public record Rows<T>(List<T> rows, String nextCursor) {
    }

    private final PaymentPageService service;

    PaymentPageSearch(PaymentPageService service) {
        this.service = service;
    }

    public Rows<Page> pages(String merchantId, Mode mode, String status, String cursor, int limit) {
        var list = service.list(Caller.system(merchantId, mode), ListQuery.page(ID, cursor, limit),
                status != null && STATUSES.contains(status) ? status : null, null);
        return new Rows<>(list.data().stream().map(PaymentPageSearch::page).toList(), list.nextCursor());
    }

    public Optional<Page> find(String merchantId, Mode mode, String id) {
        if (id == null || !ID.matcher(id).matches()) {
            return Optional.empty();
        }
        return service.find(Caller.system(merchantId, mode), id).map(PaymentPageSearch::page);
    }

    /** The page's transactions, newest first (the caller has found the page for its merchant). */
    public Rows<Transaction> transactions(String merchantId, Mode mode, String pageId, String cursor, int limit) {
        var list = service.transactions(Caller.system(merchantId, mode), pageId,
                ListQuery.page(TRANSACTION, cursor, limit),
                null);
        return new Rows<>(list.data().stream().map(t -> new Transaction(t.id(), t.status(), t.amount(), t.currency(),
                t.customer() == null ? null : t.customer().name(), t.customer() == null ? null : t.customer().email(),
                t.paymentId(), Instant.parse(t.createdAt()))).toList(), list.nextCursor());
    }

    private static Page page(PaymentPageView v) {
        var options = v.amountOptions();
        return new Page(v.id(), v.status(), v.title(), v.description(), v.currency(), v.amount(),
                options == null ? null : options.min(), options == null ? null : options.max(), v.pageUrl(),
                Instant.parse(v.createdAt()));
    }
}
