// Copy buttons of the Collect pages (templates/dashboard/collect.html :: copy): each copies its readonly field.
// Without JavaScript the button stays hidden and the field's text is selected and copied by hand.
(function () {
    function show(root) {
        root.querySelectorAll('button[data-copy]').forEach(function (button) { button.hidden = false; });
    }

    function copied(input, words) {
        var status = document.getElementById(input.id + '-status');
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
                copied(input, 'Copied.');
            }, function () {
                copied(input, 'Selected: press Ctrl+C (or Cmd+C) to copy.');
            });
        } else {
            copied(input, document.execCommand && document.execCommand('copy') ? 'Copied.'
                : 'Selected: press Ctrl+C (or Cmd+C) to copy.');
        }
    });

    document.addEventListener('DOMContentLoaded', function () { show(document); });
    document.addEventListener('htmx:load', function (event) { show(event.target); });
})();
