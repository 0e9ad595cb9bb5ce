// Tender's embedded checkout, for the merchant's page:
//   <script src="https://tender.example/checkout.js"></script>
//   var checkout = TenderCheckout.mount(sessionUrl, { container: "#pay", onOutcome: function (o) { ... } }); // inline
//   var checkout = TenderCheckout.open(sessionUrl, { onOutcome: function (o) { ... } });                   // overlay
//   checkout.submit();  // display_pay_button: false — the merchant's own button pays
// o is { payment_session: "ps_…", outcome: "paid" | "reserved" | "failed" | "cancelled" | "expired" }.
// Messages are accepted only from the checkout's own frame and origin, and sent to that origin only.
(function () {
    "use strict";

    function originOf(url) {
        return new URL(url, window.location.href).origin;
    }

    function frame(sessionUrl, options, onClose) {
        var origin = originOf(sessionUrl);
        var iframe = document.createElement("iframe");
        iframe.src = sessionUrl;
        iframe.title = options.title || "Secure payment";
        iframe.allow = "payment";
        iframe.style.cssText = "width:100%;border:0;display:block;min-height:420px;background:transparent";
        function onMessage(event) {
            if (event.origin !== origin || event.source !== iframe.contentWindow || !event.data) {
                return;
            }
            if (event.data.type === "tender:checkout.resize" && typeof event.data.height === "number") {
                iframe.style.height = Math.ceil(event.data.height) + "px";
            } else if (event.data.type === "tender:checkout.outcome" && options.onOutcome) {
                options.onOutcome({ payment_session: event.data.payment_session, outcome: event.data.outcome });
            }
        }
        window.addEventListener("message", onMessage);
        return {
            iframe: iframe,
            submit: function () {
                iframe.contentWindow.postMessage({ type: "tender:checkout.submit" }, origin);
            },
            close: function () {
                window.removeEventListener("message", onMessage);
                iframe.remove();
                if (onClose) { onClose(); }
            }
        };
    }

    function mount(sessionUrl, options) {
        options = options || {};
        var container = typeof options.container === "string" ? document.querySelector(options.container) : options.container;
        if (!container) { throw new Error("TenderCheckout.mount: no container " + options.container); }
        var checkout = frame(sessionUrl, options);
        container.appendChild(checkout.iframe);
        return checkout;
    }

    function open(sessionUrl, options) {
        options = options || {};
        var overlay = document.createElement("div");
        overlay.setAttribute("role", "dialog");
        overlay.setAttribute("aria-modal", "true");
        overlay.setAttribute("aria-label", options.title || "Secure payment");
        overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;background:rgba(17,24,39,.6);display:flex;"
            + "align-items:flex-start;justify-content:center;overflow:auto;padding:24px 12px";
        var box = document.createElement("div");
        box.style.cssText = "position:relative;width:100%;max-width:480px;background:#fff;border-radius:16px;overflow:hidden";
        var close = document.createElement("button");
        close.type = "button";
        close.textContent = "×";
        close.setAttribute("aria-label", "Close payment");
        close.style.cssText = "position:absolute;top:6px;right:8px;z-index:1;width:40px;height:40px;border:0;"
            + "background:transparent;font-size:26px;cursor:pointer";
        var previous = document.activeElement;
        var checkout = frame(sessionUrl, options, function () {
            overlay.remove();
            if (previous && previous.focus) { previous.focus(); }
        });
        close.addEventListener("click", checkout.close);
        overlay.addEventListener("keydown", function (event) { if (event.key === "Escape") { checkout.close(); } });
        box.appendChild(close);
        box.appendChild(checkout.iframe);
        overlay.appendChild(box);
        document.body.appendChild(overlay);
        close.focus();
        return checkout;
    }

    window.TenderCheckout = { mount: mount, open: open };
})();
