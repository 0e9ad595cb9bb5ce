package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.apiversion.ApiVersions;
import io.tender.apiversion.PinnedVersions;
import io.tender.apiversion.VersionChange;
import io.tender.auth.Merchants;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Developers → API version (decisions §15): the version the merchant's integration is pinned to, the newest, and in
 * the version changes' own words what upgrading changes. An owner upgrades to the newest after confirming who they
 * are, and may roll the upgrade back for 72 hours; both are audited. The pin is the merchant's, the same in both
 * modes; webhook endpoints keep versions of their own. The dashboard itself always shows the newest shapes.
 */
@Hidden
@Controller
record ApiVersionController(PinnedVersions pinned, Merchants merchants, Reauthentication reauth, AuditLog audit,
                            Clock clock) {

    /** A run of words, or of {@code code} (what a change's words put in backticks). */
    record Part(String text, boolean code) {
    }

    /** One change as the page lists it: its version, its title and its details, each in parts. */
    record ChangeWords(String version, List<Part> title, List<List<Part>> details) {
    }

    private static final Map<String, String> DONE = Map.of(
            "upgraded", "Upgraded. Requests without Tender-Version now get the newest version.",
            "rolled-back", "Rolled back. Requests without Tender-Version get the previous version again.");

    @GetMapping("/dashboard/{mode:test|live}/developers/api-version")
    String page(@PathVariable String mode, @RequestParam(name = "done", required = false) String done,
                @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        return page(user, mode, csrf, done == null ? null : DONE.get(done), null, model);
    }

    /** Upgrades to the newest version: {@code to} is the version the page offered, so a stale page changes nothing. */
    @PostMapping("/dashboard/{mode:test|live}/developers/api-version/upgrade")
    String upgrade(@PathVariable String mode, @RequestParam(name = "to", required = false) String to,
                   @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                   HttpServletResponse response, Model model) {
        if (!ApiVersions.NEWEST.wire().equals(to)) {
            response.setStatus(HttpStatus.CONFLICT.value());
            return page(user, mode, csrf, null, "This page was out of date. Read what upgrading changes below, then "
                    + "upgrade again.", model);
        }
        Optional<String> confirm = reauth.confirm(user, mode, "Upgrading the API version to " + to, request,
                response, model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        return changed(pinned.upgrade(user.merchantId(), ApiVersions.NEWEST), "api_version.upgraded", "upgraded",
                user, mode, csrf, request, response, model);
    }

    @PostMapping("/dashboard/{mode:test|live}/developers/api-version/rollback")
    String rollBack(@PathVariable String mode, @AuthenticationPrincipal SignedInUser user, CsrfToken csrf,
                    HttpServletRequest request, HttpServletResponse response, Model model) {
        Optional<String> confirm = reauth.confirm(user, mode, "Rolling the API version back", request, response,
                model);
        if (confirm.isPresent()) {
            return confirm.get();
        }
        return changed(pinned.rollBack(user.merchantId()), "api_version.rolled_back", "rolled-back", user, mode, csrf,
                request, response, model);
    }

    private String changed(PinnedVersions.Change change, String action, String done, SignedInUser user, String mode,
                           CsrfToken csrf, HttpServletRequest request, HttpServletResponse response, Model model) {
        return switch (change) {
            case PinnedVersions.Change.Refused(String reason) -> {
                response.setStatus(HttpStatus.CONFLICT.value());
                yield page(user, mode, csrf, null, reason, model);
            }
            case PinnedVersions.Change.Changed(PinnedVersions.Pin before, PinnedVersions.Pin after) -> {
                audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), action,
                        user.merchantId(), mode, "{\"api_version\": \"" + before.version().wire() + "\"}",
                        "{\"api_version\": \"" + after.version().wire() + "\"}"), request);
                response.setStatus(HttpStatus.SEE_OTHER.value());
                response.setHeader(HttpHeaders.LOCATION, "/dashboard/" + mode + "/developers/api-version?done=" + done);
                yield null;
            }
        };
    }

    private String page(SignedInUser user, String mode, CsrfToken csrf, String notice, String error, Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        PinnedVersions.Pin pin = pinned.pin(user.merchantId()).orElseThrow();
        model.addAttribute("pinned", pin.version().wire());
        model.addAttribute("newest", ApiVersions.NEWEST.wire());
        model.addAttribute("changes", ApiVersions.changesAfter(pin.version()).reversed().stream()
                .map(ApiVersionController::words).toList());
        boolean rollback = pin.canRollBack(clock.instant());
        model.addAttribute("previous", rollback ? pin.previous().wire() : null);
        model.addAttribute("rollbackUntil", rollback ? HomeSummary.moment(pin.rollbackUntil()) : null);
        model.addAttribute("isOwner", user.role() == Role.OWNER);
        model.addAttribute("notice", notice);
        model.addAttribute("error", error);
        return "dashboard/api-version";
    }

    private static ChangeWords words(VersionChange change) {
        return new ChangeWords(change.version().wire(), parts(change.title()),
                change.details().stream().map(ApiVersionController::parts).toList());
    }

    /** The words of a change, split at its backticks into text and code. */
    static List<Part> parts(String words) {
        List<Part> parts = new ArrayList<>();
        String[] runs = words.split("`", -1);
        for (int i = 0; i < runs.length; i++) {
            if (!runs[i].isEmpty()) {
                parts.add(new Part(runs[i], i % 2 == 1));
            }
        }
        return parts;
    }
}
