// A "Copy" button (data-copy = the id of the field to copy) puts the field's text on the
// clipboard; without the clipboard API the text is selected for the user to copy.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  field.select();
  const done = () => {
    button.textContent = button.dataset.copied || button.textContent;
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done, () => {});
  } else {
    document.execCommand && document.execCommand("copy") && done();
  }
});
