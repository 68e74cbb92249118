/* Every page: a table wider than the screen scrolls sideways in its .table-wrap; such a
   wrap becomes a named region in the Tab order, so the keyboard can scroll it too (WCAG
   2.1.1). Wraps that fit are left out of the Tab order. No libraries. */
(function () {
  "use strict";

  function nameOf(wrap) {
    var table = wrap.querySelector("table");
    var caption = table && table.querySelector("caption");
    if (caption) {
      return caption.textContent.trim();
    }
    // The nearest heading before the table names it ("Series 1", "Payments").
    var el = wrap;
    while (el) {
      var previous = el.previousElementSibling;
      while (previous) {
        if (/^H[1-6]$/.test(previous.tagName)) {
          return previous.textContent.replace(/\s+/g, " ").trim();
        }
        previous = previous.previousElementSibling;
      }
      el = el.parentElement;
    }
    return document.title;
  }

  function fit() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      if (scrolls && !wrap.hasAttribute("tabindex")) {
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", nameOf(wrap));
        wrap.setAttribute("data-scrolls", "");
      } else if (!scrolls && wrap.hasAttribute("data-scrolls")) {
        ["tabindex", "role", "aria-label", "data-scrolls"].forEach(function (name) {
          wrap.removeAttribute(name);
        });
      }
    });
  }

  var timer = null;
  window.addEventListener("resize", function () {
    clearTimeout(timer);
    timer = setTimeout(fit, 100);
  });
  // A table inside <details> has no width until it is opened.
  document.addEventListener("toggle", fit, true);
  // Pages that rebuild a sheet (the phone's) call it again.
  window.skatFitTables = fit;
  fit();

  // A filter that applies when chosen (the category of the standings); without script,
  // its form's own button (in <noscript>) does it.
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field.hasAttribute && field.hasAttribute("data-submit-on-change") && field.form) {
      field.form.submit();
    }
  });
})();
