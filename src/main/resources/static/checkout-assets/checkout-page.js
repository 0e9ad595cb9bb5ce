// The checkout page's own script. Everything works without it (the server checks every form); with it the customer
// gets the same checks before submitting, a waiting page that polls, and, when the page is embedded, messages to
// the merchant's page at its return_url origin only.
(function () {
    "use strict";
    var body = document.body;
    var embedded = body.getAttribute("data-embedded") === "true";
    var merchantOrigin = body.getAttribute("data-merchant-origin");

    function tell(message) {
        if (embedded && merchantOrigin && window.parent !== window) {
            window.parent.postMessage(message, merchantOrigin);
        }
    }

    function luhn(digits) {
        var sum = 0, twice = false;
        for (var i = digits.length - 1; i >= 0; i--) {
            var d = digits.charCodeAt(i) - 48;
            if (twice) { d *= 2; if (d > 9) { d -= 9; } }
            sum += d;
            twice = !twice;
        }
        return sum % 10 === 0;
    }

    function setError(input, message) {
        var field = input.closest(".field");
        var id = input.id + "-error";
        var error = document.getElementById(id);
        var hint = document.getElementById(input.id + "-hint");
        if (message) {
            if (!error) {
                error = document.createElement("p");
                error.className = "field-error";
                error.id = id;
                field.appendChild(error);
            }
            error.textContent = message;
            field.classList.add("invalid");
            input.setAttribute("aria-invalid", "true");
            input.setAttribute("aria-describedby", hint ? id + " " + hint.id : id);
        } else {
            if (error) { error.remove(); }
            field.classList.remove("invalid");
            input.removeAttribute("aria-invalid");
            if (hint) { input.setAttribute("aria-describedby", hint.id); } else { input.removeAttribute("aria-describedby"); }
        }
    }

    function checkCard(form) {
        var number = form.elements["card_number"], expiry = form.elements["expiry"], code = form.elements["security_code"];
        var digits = number.value.replace(/[\s-]/g, "");
        var errors = [];
        var numberError = !digits ? "Enter your card number."
            : (!/^\d{12,19}$/.test(digits) || !luhn(digits)) ? "This card number is not valid. Check it and try again." : null;
        setError(number, numberError);
        if (numberError) { errors.push(number); }

        var m = /^(\d{1,2})\s*\/?\s*(\d{2}|\d{4})$/.exec(expiry.value.trim());
        var expiryError = null;
        if (!expiry.value.trim()) {
            expiryError = "Enter the expiry date, as MM/YY.";
        } else if (!m || +m[1] < 1 || +m[1] > 12) {
            expiryError = "Enter the expiry date as MM/YY, for example 09/29.";
        } else {
            var year = +m[2] < 100 ? 2000 + +m[2] : +m[2];
            var now = new Date();
            if (year * 12 + (+m[1]) < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1) {
                expiryError = "This card has expired. Use another card.";
            }
        }
        setError(expiry, expiryError);
        if (expiryError) { errors.push(expiry); }

        var length = /^3[47]/.test(digits) ? 4 : 3;
        var codeError = !code.value.trim() ? "Enter the security code from the back of your card."
            : !new RegExp("^\\d{" + length + "}$").test(code.value.trim())
                ? "The security code is the " + length + " digits on the " + (length === 4 ? "front" : "back") + " of your card." : null;
        setError(code, codeError);
        if (codeError) { errors.push(code); }
        return errors;
    }

    var form = document.getElementById("pay-form");
    if (form) {
        var number = form.elements["card_number"];
        if (number) {
            number.addEventListener("input", function () {
                var digits = number.value.replace(/\D/g, "").slice(0, 19);
                var grouped = digits.replace(/(\d{4})(?=\d)/g, "$1 ");
                if (grouped !== number.value) { number.value = grouped; }
            });
        }
        form.addEventListener("submit", function (event) {
            var invalid = form.getAttribute("data-method") === "card" ? checkCard(form) : [];
            if (invalid.length) {
                event.preventDefault();
                invalid[0].focus();
                return;
            }
            var button = form.querySelector("button[type=submit]");
            // Disabled after this submit has been sent, so that a second click sends nothing.
            setTimeout(function () { button.disabled = true; button.textContent = "Processing…"; }, 0);
        });
        window.addEventListener("message", function (event) {
            if (embedded && event.origin === merchantOrigin && event.source === window.parent
                && event.data && event.data.type === "tender:checkout.submit") {
                form.requestSubmit();
            }
        });
    }

    var poll = body.getAttribute("data-poll");
    if (poll) {
        var check = function () {
            fetch(poll, { headers: { "Accept": "application/json" }, cache: "no-store" })
                .then(function (r) {
                    // Over the address's page views (429): wait and ask again rather than leave the page.
                    if (r.status === 429) { throw new Error("too many requests"); }
                    return r.json();
                })
                .then(function (status) {
                    if (status.state !== "waiting") { window.location.replace(body.getAttribute("data-page")); }
                    else { setTimeout(check, 1500); }
                })
                .catch(function () { setTimeout(check, 3000); });
        };
        setTimeout(check, 1500);
    }

    var outcome = body.getAttribute("data-outcome");
    if (outcome) {
        tell({ type: "tender:checkout.outcome", payment_session: body.getAttribute("data-payment-session"), outcome: outcome });
    }
    function resize() { tell({ type: "tender:checkout.resize", height: document.documentElement.scrollHeight }); }
    window.addEventListener("load", resize);
    if (window.ResizeObserver) { new ResizeObserver(resize).observe(document.body); }
})();
