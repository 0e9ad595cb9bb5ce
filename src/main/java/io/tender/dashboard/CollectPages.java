package io.tender.dashboard;

import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.ui.Model;
import org.springframework.web.util.UriComponentsBuilder;

import java.util.List;
import java.util.regex.Pattern;

/** What the Collect pages share: the not-found page, status lists and their links, and the form key's shape. */
final class CollectPages {

    /** A form's Idempotency-Key: a UUID the page made. */
    static final Pattern KEY = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");

    private CollectPages() {
    }

    /** The 404 page for an id that is not the merchant's in this mode (another's, the other mode's, or none). */
    static String notFound(String what, String id, String listUrl, String listName, HttpServletResponse response,
                           Model model) {
        response.setStatus(HttpStatus.NOT_FOUND.value());
        model.addAttribute("what", what);
        model.addAttribute("id", id);
        model.addAttribute("listUrl", listUrl);
        model.addAttribute("listName", listName);
        return "dashboard/id-not-found";
    }

    /** A list's link with its status filter and the page at {@code cursor} (null: the first). */
    static String listUrl(String base, String status, String cursor) {
        UriComponentsBuilder uri = UriComponentsBuilder.fromPath(base);
        if (status != null) {
            uri.queryParam("status", status);
        }
        if (cursor != null) {
            uri.queryParam("cursor", cursor);
        }
        return uri.encode().build().toUriString();
    }

    /**
     * A list page of the merchant's things at {@code base}, a keyset page at a time from {@code cursor} (null: the
     * first), filtered to {@code status} (null: all).
     */
    record StatusList(String base, List<String> statuses, String status, String cursor) {

        /** The list as asked: a status not among {@code statuses} shows them all. */
        static StatusList asked(String base, List<String> statuses, String status, String cursor) {
            return new StatusList(base, statuses, status != null && statuses.contains(status) ? status : null,
                    cursor);
        }

        /** What the list's template shows: the filter, the rows, and the links to the next page and the first. */
        void show(Model model, List<?> rows, String nextCursor) {
            model.addAttribute("status", status);
            model.addAttribute("statuses", statuses);
            model.addAttribute("rows", rows);
            model.addAttribute("listUrl", base);
            model.addAttribute("nextUrl", nextCursor == null ? null : listUrl(base, status, nextCursor));
            model.addAttribute("firstUrl", cursor == null ? null : listUrl(base, status, null));
        }
    }
}
