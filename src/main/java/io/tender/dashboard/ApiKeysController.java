package io.tender.dashboard;

import io.swagger.v3.oas.annotations.Hidden;
import io.tender.api.Timestamps;
import io.tender.auth.ApiKeys;
import io.tender.auth.KeyKind;
import io.tender.auth.Merchants;
import io.tender.auth.Mode;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
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
import org.springframework.web.util.WebUtils;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Developers → API keys (decisions §11): the merchant's keys of the URL's mode by their prefix and last four, when
 * each was created and last used and whether it works; creating a key, rolling one with an overlap in which the old key
 * still works, revoking one after a confirmation. A new key's secret is on the answer to the POST that made it, once:
 * {@link ApiKeys} keeps only its hash, and no page shows it again.
 * <p>
 * Who may do what is {@link DashboardSecurity}'s rules by URL (a viewer reads; test keys: owners and developers; live
 * keys: owners), checked before any handler here; creating or rolling a live key then asks the owner to confirm who
 * they are ({@link Reauthentication}). Revoking a live key does not: it only ever takes access away, and a leaked key
 * should stop at the first click. Every change is one row of the audit log.
 */
@Hidden
@Controller
record ApiKeysController(ApiKeys keys, Merchants merchants, Reauthentication reauth, AuditLog audit, JsonMapper json) {

    /** The overlaps a roll offers, by their form value: how long the old key keeps working. */
    static final Map<String, Duration> OVERLAPS = overlaps();
    private static final String DEFAULT_OVERLAP = "24h";
    private static final Pattern FORM_KEY = Pattern.compile(
            "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    private static final String SENT_FORMS = ApiKeysController.class.getName() + ".sentForms";
    /** The form keys a session remembers, to refuse a second send of the same form. */
    private static final int SENT_FORMS_KEPT = 50;
    private static final String EXPIRED_FORM = "This form has expired. Open the page again and repeat the action.";

    private static Map<String, Duration> overlaps() {
        Map<String, Duration> overlaps = new LinkedHashMap<>();
        overlaps.put("1h", Duration.ofHours(1));
        overlaps.put("24h", Duration.ofHours(24));
        overlaps.put("7d", Duration.ofDays(7));
        overlaps.put("now", Duration.ZERO);
        return overlaps;
    }

    @GetMapping("/dashboard/{mode:test|live}/developers")
    void developers(@PathVariable String mode, HttpServletResponse response) {
        response.setStatus(HttpStatus.FOUND.value());
        response.setHeader(HttpHeaders.LOCATION, "/dashboard/" + mode + "/developers/keys");
    }

    @GetMapping("/dashboard/{mode:test|live}/developers/keys")
    String list(@PathVariable String mode, @RequestParam(name = "done", required = false) String done,
                @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, Model model) {
        model.addAttribute("notice", done == null ? null : DONE.get(done));
        return listPage(user, mode, csrf, null, model);
    }

    /** What the list says after an action. */
    private static final Map<String, String> DONE = Map.of(
            "revoked", "The key is revoked. Requests with it are refused from now on.",
            "already", "That form was already sent: the key was made then, and its secret shown once. "
                    + "If the secret was not kept, roll the key.");

    /** Creates a key of the URL's mode; the answer shows its secret, once. */
    @PostMapping("/dashboard/{mode:test|live}/developers/keys")
    String create(@PathVariable String mode, @RequestParam(name = "kind", required = false) String kindName,
                  @RequestParam(name = "idempotency_key", required = false) String formKey,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        Mode inMode = Mode.fromWire(mode);
        KeyKind kind = kind(inMode, kindName);
        if (kind == null || formKey == null || !FORM_KEY.matcher(formKey).matches()) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
            return listPage(user, mode, csrf, kind == null ? "Choose a secret or a publishable key." : EXPIRED_FORM,
                    model);
        }
        if (inMode == Mode.LIVE) {
            Optional<String> confirm = reauth.confirm(user, mode, "Creating a live API key", request, response, model);
            if (confirm.isPresent()) {
                return confirm.get();
            }
        }
        if (!firstSend(request, formKey)) {
            return seeOther(response, "/dashboard/" + mode + "/developers/keys?done=already");
        }
        ApiKeys.IssuedKey issued = keys.issue(user.merchantId(), kind);
        ApiKeys.KeyInfo info = keys.byId(issued.id()).orElseThrow();
        audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), "api_key.created",
                issued.id(), mode, null, json.writeValueAsString(described(info))), request);
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        model.addAttribute("issued", issued.plainKey());
        model.addAttribute("key", KeyRow.of(info, keys.now()));
        model.addAttribute("rolledFrom", null);
        return "dashboard/key-secret";
    }

    @GetMapping("/dashboard/{mode:test|live}/developers/keys/{id}/roll")
    String rollPage(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                    CsrfToken csrf, HttpServletResponse response, Model model) {
        return withKey(user, mode, id, csrf, response, model, found -> {
            if (!found.activeAt(keys.now()) || found.expiresAt() != null) {
                response.setStatus(HttpStatus.CONFLICT.value());
                return listPage(user, mode, csrf, "Key " + found.display() + " is already rolled or revoked.", model);
            }
            return rollForm(user, mode, found, DEFAULT_OVERLAP, null, model);
        });
    }

    /** Rolls the key: a new one of the same kind, shown once; the old one works for the chosen overlap. */
    @PostMapping("/dashboard/{mode:test|live}/developers/keys/{id}/roll")
    String roll(@PathVariable String mode, @PathVariable String id,
                @RequestParam(name = "overlap", required = false) String overlapName,
                @RequestParam(name = "idempotency_key", required = false) String formKey,
                @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                HttpServletResponse response, Model model) {
        return withKey(user, mode, id, csrf, response, model, found -> {
            ApiKeys.KeyInfo old = found;
            Duration overlap = overlapName == null ? null : OVERLAPS.get(overlapName);
            if (overlap == null || formKey == null || !FORM_KEY.matcher(formKey).matches()) {
                response.setStatus(HttpStatus.BAD_REQUEST.value());
                return rollForm(user, mode, old, DEFAULT_OVERLAP,
                        overlap == null ? "Choose how long the old key keeps working." : EXPIRED_FORM, model);
            }
            if (Mode.fromWire(mode) == Mode.LIVE) {
                Optional<String> confirm = reauth.confirm(user, mode, "Rolling a live API key", request, response, model);
                if (confirm.isPresent()) {
                    return confirm.get();
                }
            }
            if (!firstSend(request, formKey)) {
                return seeOther(response, "/dashboard/" + mode + "/developers/keys?done=already");
            }
            Optional<ApiKeys.Rolled> rolled = keys.roll(old.id(), overlap);
            if (rolled.isEmpty()) {
                response.setStatus(HttpStatus.CONFLICT.value());
                return listPage(user, mode, csrf, "Key " + old.display() + " is already rolled or revoked.", model);
            }
            ApiKeys.Rolled done = rolled.get();
            ObjectNode before = json.createObjectNode().put("key_id", old.id()).putNull("expires_at");
            ObjectNode after = json.createObjectNode().put("key_id", old.id())
                    .put("expires_at", Timestamps.format(done.oldExpiresAt())).put("new_key_id", done.key().id());
            audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), "api_key.rolled", old.id(),
                    mode, before.toString(), after.toString()), request);
            Instant now = keys.now();
            model.addAttribute("issued", done.key().plainKey());
            model.addAttribute("key", KeyRow.of(keys.byId(done.key().id()).orElseThrow(), now));
            model.addAttribute("rolledFrom", KeyRow.of(keys.byId(old.id()).orElseThrow(), now));
            return "dashboard/key-secret";
        });
    }

    @GetMapping("/dashboard/{mode:test|live}/developers/keys/{id}/revoke")
    String revokePage(@PathVariable String mode, @PathVariable String id, @AuthenticationPrincipal SignedInUser user,
                      CsrfToken csrf, HttpServletResponse response, Model model) {
        return withKey(user, mode, id, csrf, response, model,
                found -> revokeForm(user, mode, found, csrf, response, model));
    }

    /** Without {@code confirmed=yes}, the confirmation page; with it, revokes the key and goes back to the list. */
    @PostMapping("/dashboard/{mode:test|live}/developers/keys/{id}/revoke")
    String revoke(@PathVariable String mode, @PathVariable String id,
                  @RequestParam(name = "confirmed", required = false) String confirmed,
                  @AuthenticationPrincipal SignedInUser user, CsrfToken csrf, HttpServletRequest request,
                  HttpServletResponse response, Model model) {
        return withKey(user, mode, id, csrf, response, model, found -> {
            ApiKeys.KeyInfo key = found;
            if (!"yes".equals(confirmed)) {
                return revokeForm(user, mode, key, csrf, response, model);
            }
            if (keys.revoke(key.id())) {
                // Explicit nulls (a tree keeps them; the mapper would drop them): "not revoked", "no expiry".
                ObjectNode before = json.createObjectNode().put("key_id", key.id())
                        .put("expires_at", Timestamps.format(key.expiresAt())).putNull("revoked_at");
                ObjectNode after = before.deepCopy()
                        .put("revoked_at", Timestamps.format(keys.byId(key.id()).orElseThrow().revokedAt()));
                audit.append(new AuditLog.Entry(user.merchantId(), user.userId(), user.email(), "api_key.revoked",
                        key.id(), mode, before.toString(), after.toString()), request);
            }
            return seeOther(response, "/dashboard/" + mode + "/developers/keys?done=revoked");
        });
    }

    private String listPage(SignedInUser user, String mode, CsrfToken csrf, String error, Model model) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        Instant now = keys.now();
        Mode inMode = Mode.fromWire(mode);
        List<KeyRow> rows = keys.of(user.merchantId()).stream().filter(k -> k.kind().mode() == inMode)
                .sorted(Comparator.comparing(ApiKeys.KeyInfo::createdAt).reversed())
                .map(k -> KeyRow.of(k, now)).toList();
        model.addAttribute("usable", rows.stream().filter(KeyRow::usable).toList());
        model.addAttribute("ended", rows.stream().filter(r -> !r.usable()).toList());
        model.addAttribute("canChange", canChange(user, inMode));
        model.addAttribute("needsOwner", inMode == Mode.LIVE && user.role() == Role.DEVELOPER);
        model.addAttribute("formKey", UUID.randomUUID().toString());
        model.addAttribute("secretPrefix", inMode == Mode.TEST ? KeyKind.SK_TEST.prefix() : KeyKind.SK_LIVE.prefix());
        model.addAttribute("publishablePrefix",
                inMode == Mode.TEST ? KeyKind.PK_TEST.prefix() : KeyKind.PK_LIVE.prefix());
        model.addAttribute("error", error);
        if (!model.containsAttribute("notice")) {
            model.addAttribute("notice", null);
        }
        return "dashboard/keys";
    }

    private String rollForm(SignedInUser user, String mode, ApiKeys.KeyInfo key, String overlap, String error,
                            Model model) {
        model.addAttribute("key", KeyRow.of(key, keys.now()));
        model.addAttribute("canChange", canChange(user, Mode.fromWire(mode)));
        model.addAttribute("overlap", overlap);
        model.addAttribute("formKey", UUID.randomUUID().toString());
        model.addAttribute("error", error);
        return "dashboard/key-roll";
    }

    private String revokeForm(SignedInUser user, String mode, ApiKeys.KeyInfo key, CsrfToken csrf,
                              HttpServletResponse response, Model model) {
        if (key.revokedAt() != null) {
            response.setStatus(HttpStatus.CONFLICT.value());
            return listPage(user, mode, csrf, "Key " + key.display() + " is already revoked.", model);
        }
        model.addAttribute("key", KeyRow.of(key, keys.now()));
        model.addAttribute("canChange", canChange(user, Mode.fromWire(mode)));
        return "dashboard/key-revoke";
    }

    /** Whether the user's role may change keys of this mode: as {@link DashboardSecurity}'s rules say. */
    private static boolean canChange(SignedInUser user, Mode mode) {
        return user.role() == Role.OWNER || (user.role() == Role.DEVELOPER && mode == Mode.TEST);
    }

    /**
     * {@code page} of the merchant's key {@code id} in the URL's mode, under the page's chrome; the not-found page for
     * another merchant's, the other mode's or an unknown one. A page may answer null (a redirect already set), so the
     * key found is not mapped through an Optional, which would take that null for "not found".
     */
    private String withKey(SignedInUser user, String mode, String id, CsrfToken csrf, HttpServletResponse response,
                           Model model, java.util.function.Function<ApiKeys.KeyInfo, String> page) {
        Chrome.add(model, user, mode, "developers", csrf, merchants);
        Optional<ApiKeys.KeyInfo> found = find(user, mode, id);
        return found.isPresent() ? page.apply(found.get()) : notFound(id, response, model);
    }

    /** The key of this id if it is the user's merchant's and of the URL's mode. */
    private Optional<ApiKeys.KeyInfo> find(SignedInUser user, String mode, String id) {
        if (!id.startsWith("key_") || id.length() > 64) {
            return Optional.empty();
        }
        return keys.byId(id).filter(k -> k.merchantId().equals(user.merchantId())
                && k.kind().mode() == Mode.fromWire(mode));
    }

    private static KeyKind kind(Mode mode, String name) {
        if ("secret".equals(name)) {
            return mode == Mode.TEST ? KeyKind.SK_TEST : KeyKind.SK_LIVE;
        }
        if ("publishable".equals(name)) {
            return mode == Mode.TEST ? KeyKind.PK_TEST : KeyKind.PK_LIVE;
        }
        return null;
    }

    /**
     * True the first time this form's key is sent in this session: a form sent twice (a double click, a reload of the
     * answer) makes one key, whose secret was on the first answer.
     */
    private static boolean firstSend(HttpServletRequest request, String formKey) {
        HttpSession session = request.getSession();
        synchronized (WebUtils.getSessionMutex(session)) {
            @SuppressWarnings("unchecked")
            LinkedHashSet<String> sent = session.getAttribute(SENT_FORMS) instanceof LinkedHashSet<?> set
                    ? (LinkedHashSet<String>) set : new LinkedHashSet<>();
            if (!sent.add(formKey)) {
                return false;
            }
            while (sent.size() > SENT_FORMS_KEPT) {
                sent.remove(sent.iterator().next());
            }
            session.setAttribute(SENT_FORMS, sent);
            return true;
        }
    }

    private static Map<String, Object> described(ApiKeys.KeyInfo key) {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("key_id", key.id());
        described.put("kind", key.kind().wire());
        described.put("display", key.display());
        return described;
    }

    private static String notFound(String id, HttpServletResponse response, Model model) {
        response.setStatus(HttpStatus.NOT_FOUND.value());
        model.addAttribute("id", id);
        return "dashboard/key-not-found";
    }

    private static String seeOther(HttpServletResponse response, String location) {
        response.setStatus(HttpStatus.SEE_OTHER.value());
        response.setHeader(HttpHeaders.LOCATION, location);
        return null;
    }

    /**
     * One key as the pages show it: its prefix and last four, never its secret; its status in words ({@code state}
     * names the badge's look: {@code active}, {@code expiring}, {@code ended}).
     */
    public record KeyRow(String id, String kind, String display, String created, String lastUsed, String status,
                         String state, String expires, boolean usable, boolean rollable) {

        static KeyRow of(ApiKeys.KeyInfo key, Instant now) {
            String status;
            String state;
            if (key.revokedAt() != null) {
                status = "Revoked " + HomeSummary.moment(key.revokedAt());
                state = "ended";
            } else if (key.expiresAt() != null && !now.isBefore(key.expiresAt())) {
                status = "Expired " + HomeSummary.moment(key.expiresAt()) + " (rolled)";
                state = "ended";
            } else if (key.expiresAt() != null) {
                status = "Rolled, works until " + HomeSummary.moment(key.expiresAt());
                state = "expiring";
            } else {
                status = "Active";
                state = "active";
            }
            boolean usable = key.activeAt(now);
            return new KeyRow(key.id(), key.kind().secret() ? "Secret" : "Publishable", key.display(),
                    HomeSummary.moment(key.createdAt()),
                    key.lastUsedAt() == null ? "Never" : HomeSummary.moment(key.lastUsedAt()), status, state,
                    key.expiresAt() == null ? null : HomeSummary.moment(key.expiresAt()), usable,
                    usable && key.expiresAt() == null);
        }
    }
}
