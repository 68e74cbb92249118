/* Forms whose fields depend on the rule set (form[data-rules-from]: the id of the rule-set
   select): a field wrapped in [data-only-rules="ispa"] shows only while that rule set is
   chosen, so a North American tournament is not asked for Seeger-Fabian bonuses (nor offered
   Gewinner-Ramsch: an <option> may carry the attribute too). The
   server hides them the same way when the page is drawn. No libraries. */
(function () {
  "use strict";

  document.querySelectorAll("form[data-rules-from]").forEach(function (form) {
    var rules = document.getElementById(form.getAttribute("data-rules-from"));
    if (!rules) {
      return;
    }
    function fit() {
      form.querySelectorAll("[data-only-rules]").forEach(function (wrap) {
        wrap.hidden = wrap.getAttribute("data-only-rules") !== rules.value;
        // An option of the other rule set (Gewinner-Ramsch under NA rules) that was
        // chosen is no longer offered: the select falls back to the rule set's own.
        if (wrap.tagName === "OPTION" && wrap.hidden && wrap.selected) {
          wrap.parentNode.value = "";
        }
      });
    }
    rules.addEventListener("change", fit);
    fit();
  });
})();
