// A "Copy" button for a read-only field (data-copy names the field's id): shown only where this script runs, so the
// page without JavaScript keeps the plain field to select and copy by hand.
document.querySelectorAll('button[data-copy]').forEach(function (button) {
    var field = document.getElementById(button.getAttribute('data-copy'));
    var said = button.parentElement.querySelector('.copied');
    if (!field || !navigator.clipboard) {
        return;
    }
    button.hidden = false;
    button.addEventListener('click', function () {
        navigator.clipboard.writeText(field.value).then(function () {
            if (said) { said.textContent = 'Copied.'; }
        }, function () {
            field.select();
            if (said) { said.textContent = 'Select the key and copy it.'; }
        });
    });
});
