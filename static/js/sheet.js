/* Score-sheet entry (forms with data-preview-url): the live value of the row being typed,
   only the fields that belong to the chosen game, and Enter saves the row from any field.

   No libraries. Nothing here scores a game: the value comes from the server's preview
   (the rules engine). Without this file the form still works as a plain POST. */
(function () {
  "use strict";

  function setup(form) {
    var url = form.getAttribute("data-preview-url");
    var output = form.querySelector("[data-live]");
    var game = form.elements.namedItem("game");
    var declarer = form.elements.namedItem("declarer");
    var timer = null;
    var sequence = 0;
    var submitting = false;

    function belongs(el, kind) {
      return !kind || el.getAttribute("data-games").split(" ").indexOf(kind) !== -1;
    }

    // Fields that do not belong to the game are hidden and disabled, so Tab skips them
    // and they are not sent. Which fields show depends on the game chosen only, never on
    // what is typed in them: the Tab order of a row is the same from game to game.
    function fitFields() {
      var kind = game ? game.value : "";
      form.querySelectorAll("[data-games]").forEach(function (el) {
        var wrap = el.closest(".field");
        var on = belongs(el, kind);
        if (wrap && wrap.classList.contains("invalid")) {
          on = true; // the server flagged it: keep it in sight
        }
        el.disabled = !on;
        if (!wrap) {
          return;
        }
        if (el.getAttribute("data-off") === "dim") {
          wrap.classList.toggle("off", !on);
        } else {
          wrap.hidden = !on;
        }
      });
    }

    // The dealer of a 4-table typed as declarer: the reason stays in sight until a seat
    // that plays is chosen (the select itself stays empty, so the preview alone would
    // only say that a declarer is missing).
    var sitsOut = "";

    function show(text, kind) {
      if (!output) {
        return;
      }
      if (sitsOut && declarer && !declarer.value) {
        text = sitsOut + (text && kind === "bad" ? " · " + text : "");
        kind = "bad";
      }
      output.textContent = text;
      output.className = "live" + (kind ? " " + kind : "");
    }

    function labelOf(field) {
      var label = field && form.querySelector('label[for="id_' + field + '"]');
      return label ? label.textContent.trim() + ": " : "";
    }

    function csrfToken() {
      var input = form.querySelector('input[name="csrfmiddlewaretoken"]');
      return input ? input.value : "";
    }

    function preview() {
      if (!url || !output) {
        return;
      }
      var mine = ++sequence;
      if (!game || !game.value) {
        show("", "");
        return;
      }
      fetch(url, {
        method: "POST",
        body: new FormData(form),
        credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken(), Accept: "application/json" },
      })
        .then(function (response) {
          var type = response.headers.get("Content-Type") || "";
          if (!response.ok || type.indexOf("application/json") === -1) {
            throw new Error("no preview");
          }
          return response.json();
        })
        .then(function (data) {
          if (mine !== sequence) {
            return; // an older answer arriving late
          }
          if (data.ok) {
            show(data.text, data.won === false ? "is-lost" : data.won ? "is-won" : "");
          } else {
            show(labelOf(data.field) + data.error, "bad");
          }
        })
        .catch(function () {
          if (mine === sequence) {
            show("", "");
          }
        });
    }

    function changed() {
      if (declarer && declarer.value) {
        sitsOut = "";
      }
      fitFields();
      clearTimeout(timer);
      sequence++; // an answer still on its way is for what was typed before
      timer = setTimeout(preview, 150);
    }

    form.addEventListener("input", changed);
    form.addEventListener("change", changed);

    // Enter saves the row from a select or a box too (text fields do it natively).
    form.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.isComposing || event.altKey) {
        return;
      }
      var el = event.target;
      if (el.tagName === "SELECT" || (el.tagName === "INPUT" && el.type === "checkbox")) {
        event.preventDefault();
        if (form.requestSubmit) {
          form.requestSubmit();
        } else {
          form.submit();
        }
      }
    });

    // The dealer of a 4-table cannot declare: say so when their digit is typed.
    if (declarer && declarer.tagName === "SELECT") {
      declarer.addEventListener("keydown", function (event) {
        if (!/^[1-4]$/.test(event.key)) {
          return;
        }
        var option = declarer.querySelector('option[value="' + event.key + '"]');
        if (option && option.disabled && form.getAttribute("data-sits-out")) {
          sitsOut = option.textContent + ": " + form.getAttribute("data-sits-out");
          show("", "bad");
        }
      });
    }

    form.addEventListener("submit", function (event) {
      if (submitting) {
        event.preventDefault(); // one row, one POST
        return;
      }
      submitting = true;
      clearTimeout(timer);
    });
    window.addEventListener("pageshow", function () {
      submitting = false;
    });

    fitFields();
    if (game && game.value) {
      preview();
    }
    // Browsers skip autofocus when the URL has a #fragment (after each saved row: #entry)
    // and focus the fragment's target instead: the form passes that focus on.
    function focusFirst() {
      var first = form.querySelector("[autofocus]");
      if (first && !first.disabled) {
        first.focus({ preventScroll: true });
      }
    }
    form.addEventListener("focus", function (event) {
      if (event.target === form) {
        focusFirst();
      }
    });
    if (!document.activeElement || document.activeElement === document.body) {
      focusFirst();
    }
  }

  document.querySelectorAll("form[data-preview-url]").forEach(setup);
})();
