// Copy buttons (data-copy names a read-only field's id: a payment link, a new API key): each copies its field. The
// words go to the element with id <field>-status, or to a .copied element beside the button. Without JavaScript the
// button stays hidden and the field's text is selected and copied by hand.
(function () {
    function show(root) {
        root.querySelectorAll('button[data-copy]').forEach(function (button) { button.hidden = false; });
    }

    function copied(input, words, button) {
        var status = document.getElementById(input.id + '-status') || button.parentElement.querySelector('.copied');
        if (status) {
            status.textContent = words;
        }
    }

    document.addEventListener('click', function (event) {
        var button = event.target.closest('button[data-copy]');
        if (!button) {
            return;
        }
        var input = document.getElementById(button.getAttribute('data-copy'));
        if (!input) {
            return;
        }
        input.focus();
        input.select();
        if (navigator.clipboard && window.isSecureContext) {
            navigator.clipboard.writeText(input.value).then(function () {
                copied(input, 'Copied.', button);
            }, function () {
                copied(input, 'Selected: press Ctrl+C (or Cmd+C) to copy.', button);
            });
        } else {
            copied(input, document.execCommand && document.execCommand('copy') ? 'Copied.'
                : 'Selected: press Ctrl+C (or Cmd+C) to copy.', button);
        }
    });

    document.addEventListener('DOMContentLoaded', function () { show(document); });
    document.addEventListener('htmx:load', function (event) { show(event.target); });
})();
