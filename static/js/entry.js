/* Entry at the table on a phone ([data-entry]): rows are kept on the phone until sent.

   Each saved row goes into a queue in localStorage (one per link) as
   {client_id, number, data, label, state}. The queue is sent in order whenever the phone
   is online: on saving, on the `online` event, and again with a growing pause after a
   failed request. The server enters a row once per client_id, so a row whose answer was
   lost on the way is simply sent again. After each row the server answers with the sheet
   as it stands (JSON with its HTML), which replaces the one on the page. A row the server
   refuses (a typing mistake, a game entered elsewhere meanwhile) stops the queue until it
   is corrected or discarded, so that the numbers of the rows after it stay right.

   The phone remembers the ids of the rows it entered ("mine"): while its last row is the
   sheet's last and still provisional, "Take back game n" deletes it again (the server
   checks the id, so nobody takes back another phone's row). The declarer and the game
   are chosen with large buttons; the selects stay in the form, out of sight, and keep the
   value.

   Nothing here scores a game; the live value comes from sheet.js and the server. Without
   this file the form still works as a plain POST. On the "unknown link" page
   ([data-entry-orphan]) the rows still kept for that link are listed. */
(function () {
  "use strict";

  var PREFIX = "skat-entry:";
  var texts = readJson("entry-texts") || {};

  function readJson(id) {
    var node = document.getElementById(id);
    try {
      return node ? JSON.parse(node.textContent) : null;
    } catch (error) {
      return null;
    }
  }

  function fill(text, values) {
    return String(text || "").replace(/\{(\w+)\}/g, function (all, key) {
      return values[key] !== undefined ? values[key] : all;
    });
  }

  // localStorage may be missing or full (private windows): then the queue lives in memory.
  var memory = {};
  function loadQueue(key) {
    var raw = null;
    try {
      raw = window.localStorage.getItem(PREFIX + key);
    } catch (error) {
      raw = memory[key] || null;
    }
    try {
      var items = JSON.parse(raw || "[]");
      return Array.isArray(items) ? items : [];
    } catch (error) {
      return [];
    }
  }
  function saveQueue(key, items) {
    var raw = JSON.stringify(items);
    try {
      if (items.length) {
        window.localStorage.setItem(PREFIX + key, raw);
      } else {
        window.localStorage.removeItem(PREFIX + key);
      }
    } catch (error) {
      memory[key] = raw;
    }
  }

  // A version 4 UUID; crypto.randomUUID needs https, getRandomValues does not.
  function uuid() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map
      .call(bytes, function (b) {
        return (b + 0x100).toString(16).slice(1);
      })
      .join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function drawQueue(list, items, handlers) {
    list.textContent = "";
    items.forEach(function (item, index) {
      var li = element("li", item.state === "rejected" ? "rejected" : "waiting");
      li.setAttribute("data-client-id", item.client_id);
      li.appendChild(element("span", "no", String(item.number)));
      li.appendChild(element("span", "what", item.label));
      var status = item.state === "rejected" || (handlers && handlers.gone) ? texts.refused : index === 0 && handlers && handlers.sending ? texts.sending : texts.waiting;
      li.appendChild(element("span", "flag", status));
      if (item.state === "rejected") {
        li.appendChild(element("span", "error", item.error || ""));
        if (handlers) {
          var actions = element("div", "actions");
          var fix = element("button", "primary", texts.fix);
          fix.type = "button";
          fix.addEventListener("click", function () {
            handlers.fix(item);
          });
          var discard = element("button", "danger", texts.discard);
          discard.type = "button";
          discard.addEventListener("click", function () {
            handlers.discard(item);
          });
          actions.appendChild(fix);
          actions.appendChild(discard);
          li.appendChild(actions);
        }
      }
      list.appendChild(li);
    });
  }

  // Large buttons for a select (the declarer, the game): one per option but the empty
  // one; the select stays the form's field (hidden) and the buttons follow it.
  function choiceButtons(select) {
    var field = select.closest(".field");
    var label = field && field.querySelector("label");
    var group = element("div", "choices choices-" + select.name);
    group.setAttribute("role", "group");
    if (label) {
      label.id = label.id || "label-" + select.name;
      group.setAttribute("aria-labelledby", label.id);
    }
    var buttons = [];
    Array.prototype.forEach.call(select.options, function (option) {
      if (!option.value) {
        return;
      }
      var button = element("button", "choice", option.textContent.trim());
      button.type = "button";
      button.setAttribute("data-value", option.value);
      button.addEventListener("click", function () {
        select.value = option.value;
        select.dispatchEvent(new Event("change", { bubbles: true }));
      });
      buttons.push(button);
      group.appendChild(button);
    });
    // Out of sight and out of the Tab order, but still the form's field (and still
    // operable by a script or a test that picks an option; the buttons follow it).
    select.classList.add("choice-source");
    select.setAttribute("tabindex", "-1");
    select.setAttribute("aria-hidden", "true");
    select.insertAdjacentElement("afterend", group);
    function sync() {
      buttons.forEach(function (button) {
        var option = select.querySelector('option[value="' + button.getAttribute("data-value") + '"]');
        button.setAttribute("aria-pressed", String(select.value === button.getAttribute("data-value")));
        button.disabled = select.disabled || !option || option.disabled;
      });
    }
    sync();
    return sync;
  }

  function orphan(root) {
    var items = loadQueue(root.getAttribute("data-key"));
    var box = root.querySelector("[data-orphan-rows]");
    if (items.length && box) {
      box.hidden = false;
      drawQueue(box.querySelector("[data-queue]"), items, null);
    }
  }

  function setup(root) {
    var key = root.getAttribute("data-key");
    var form = root.querySelector("form[data-entry-form]");
    var list = root.querySelector("[data-queue]");
    var sheetBox = root.querySelector("[data-sheet]");
    var totalsBox = root.querySelector("[data-totals]");
    var statusLine = root.querySelector("[data-status]");
    var banner = root.querySelector("[data-connection]");
    var gamesUrl = root.getAttribute("data-games-url");
    var stateUrl = root.getAttribute("data-state-url");
    var size = parseInt(root.getAttribute("data-table-size"), 10);
    var accepting = root.getAttribute("data-open") === "1";
    var seats = texts.seats || {};
    var state = readJson("entry-state") || {};
    var queue = loadQueue(key);
    var sending = false;
    var stopped = ""; // "gone", "closed" or "reload": the server will not take rows now
    var delay = 1000;
    var retryTimer = null;
    var editing = null; // the refused row being corrected in the form
    var mineKey = key + ":mine";
    var mine = loadQueue(mineKey); // [{client_id, number}] of the rows this phone entered
    var undoBox = root.querySelector("[data-undo]");
    var undoButton = undoBox && undoBox.querySelector("button");
    var undoing = false;
    var syncs = [];
    if (form) {
      ["declarer", "game"].forEach(function (name) {
        var select = form.elements.namedItem(name);
        if (select && select.tagName === "SELECT") {
          syncs.push(choiceButtons(select));
        }
      });
      // sheet.js enables and disables the fields as the game changes: the buttons follow.
      form.addEventListener("change", function () {
        syncs.forEach(function (sync) {
          sync();
        });
      });
    }

    function base() {
      return state.next ? state.next.number : (state.played || 0) + 1;
    }

    function formNumber() {
      if (editing) {
        return editing.number;
      }
      return base() + queue.length;
    }

    function csrfToken() {
      var input = form && form.querySelector('input[name="csrfmiddlewaretoken"]');
      if (input) {
        return input.value;
      }
      var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
      return match ? decodeURIComponent(match[1]) : "";
    }

    function save() {
      saveQueue(key, queue);
    }

    // The form shows the game it will save: its number, who deals, who cannot declare.
    function fitForm() {
      if (!form) {
        return;
      }
      var number = formNumber();
      var length = parseInt(form.getAttribute("data-length"), 10) || state.length;
      var full = !editing && number > length;
      form.hidden = full || stopped === "closed" || stopped === "gone";
      form.elements.namedItem("number").value = String(number);
      var dealer = ((number - 1) % size) + 1;
      root.querySelectorAll("[data-next-number]").forEach(function (node) {
        node.textContent = String(number);
      });
      var dealerNode = form.querySelector("[data-next-dealer]");
      if (dealerNode) {
        dealerNode.textContent = fill(size === 4 ? texts.deals_out : texts.deals, {
          seat: dealer,
          name: seats[dealer] || "",
        });
      }
      var declarer = form.elements.namedItem("declarer");
      if (declarer && declarer.options) {
        Array.prototype.forEach.call(declarer.options, function (option) {
          option.disabled = size === 4 && option.value === String(dealer);
          if (option.disabled && option.selected) {
            declarer.value = "";
          }
        });
      }
      root.querySelectorAll(".totals .total").forEach(function (node) {
        node.classList.toggle("deals", node.getAttribute("data-seat") === String(dealer));
      });
      syncs.forEach(function (sync) {
        sync();
      });
    }

    // This phone's last row, while it is the sheet's last and provisional: it can go.
    function undoable() {
      var last = mine[mine.length - 1];
      if (!last || !accepting || stopped || queue.length || sending || editing) {
        return null;
      }
      var rows = state.rows || [];
      var row = rows[rows.length - 1];
      if (!row || row.number !== last.number || state.played !== last.number || !row.provisional) {
        return null;
      }
      return last;
    }

    function showUndo() {
      if (!undoBox) {
        return;
      }
      var last = undoable();
      undoBox.hidden = !last;
      if (last) {
        undoButton.textContent = fill(texts.undo, { n: last.number });
        undoButton.disabled = undoing;
      }
    }

    function undo() {
      var last = undoable();
      if (!last || undoing || !window.confirm(fill(texts.undo_ask, { n: last.number }))) {
        return;
      }
      undoing = true;
      showUndo();
      fetch(root.getAttribute("data-undo-url"), {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": csrfToken(),
        },
        body: JSON.stringify({ client_id: last.client_id }),
      })
        .then(function (response) {
          return response.json().catch(function () {
            return null;
          });
        })
        .then(function (body) {
          undoing = false;
          if (body && body.ok) {
            mine = mine.filter(function (item) {
              return item.client_id !== last.client_id;
            });
            saveQueue(mineKey, mine);
            say(fill(texts.undone, { n: body.number }), false);
            if (!form) {
              window.location.reload(); // the sheet was full: the page brings the form back
              return;
            }
            applyState(body.state);
            renumber();
          } else {
            // Confirmed or overtaken meanwhile: it stays; say why and forget it here.
            mine = [];
            saveQueue(mineKey, mine);
            say((body && body.error) || "", true);
            refresh();
          }
          render();
        })
        .catch(function () {
          undoing = false;
          render();
        });
    }
    if (undoButton) {
      undoButton.addEventListener("click", undo);
    }

    function showBanner() {
      if (!banner) {
        return;
      }
      var waiting = queue.length;
      var text = "";
      var kind = "";
      if (stopped) {
        text = fill(texts[stopped], { n: waiting });
        kind = "stuck";
      } else if (!waiting) {
        text = "";
      } else if (queue[0].state === "rejected") {
        text = fill(texts.stuck, { n: waiting });
        kind = "stuck";
      } else if (navigator.onLine === false) {
        text = fill(texts.offline, { n: waiting });
      } else if (retryTimer) {
        text = fill(texts.retry, { n: waiting });
      } else {
        text = fill(texts.sending_n, { n: waiting });
        kind = "sending";
      }
      banner.hidden = !text;
      banner.textContent = text;
      banner.className = "connection" + (kind ? " " + kind : "");
    }

    function render() {
      drawQueue(list, queue, { fix: fix, discard: discard, sending: sending, gone: stopped === "gone" });
      fitForm();
      showBanner();
      showUndo();
    }

    function applyState(next) {
      if (!next) {
        return;
      }
      state = next;
      if (sheetBox && typeof next.html === "string") {
        sheetBox.innerHTML = next.html;
      }
      if (totalsBox && typeof next.totals_html === "string") {
        totalsBox.innerHTML = next.totals_html;
      }
      if (window.skatFitTables) {
        window.skatFitTables();
      }
      if (!next.open && accepting) {
        accepting = false;
        stopped = "closed";
      }
    }

    // The row as typed: the form's enabled fields (sheet.js disables what does not belong).
    function collect() {
      var data = {};
      new FormData(form).forEach(function (value, name) {
        if (name !== "csrfmiddlewaretoken" && name !== "client_id" && name !== "number" && value !== "") {
          data[name] = value;
        }
      });
      return data;
    }

    function optionText(name) {
      var field = form.elements.namedItem(name);
      if (!field || field.disabled || !field.value || !field.options) {
        return "";
      }
      return field.options[field.selectedIndex].textContent.trim();
    }

    function describe(data) {
      var parts = [];
      var who = optionText("declarer");
      if (who) {
        parts.push(who.replace(/^\d+\s*/, ""));
      }
      parts.push(optionText("game"));
      if (data.trump) {
        parts.push(optionText("trump"));
      }
      if (data.matadors) {
        var m = parseInt(data.matadors, 10);
        parts.push(fill(m < 0 || data.without ? texts.without : texts["with"], { n: Math.abs(m) }));
      }
      form.querySelectorAll(".entry-flags input:checked").forEach(function (box) {
        if (box.name !== "without") {
          parts.push(box.closest("label").textContent.trim());
        }
      });
      if (data.card_points) {
        parts.push(fill(texts.points, { n: data.card_points }));
      } else if (data.won) {
        parts.push(optionText("won"));
      }
      if (data.ramsch) {
        parts.push(optionText("ramsch"));
      }
      if (data.bid) {
        parts.push(fill(texts.bid, { n: data.bid }));
      }
      return parts.filter(Boolean).join(" · ");
    }

    function say(text, waiting) {
      if (statusLine) {
        statusLine.textContent = text;
        statusLine.className = "status" + (waiting ? " waiting" : "");
      }
    }

    function resetForm() {
      form.reset();
      var live = form.querySelector("[data-live]");
      if (live) {
        live.textContent = "";
        live.className = "live";
      }
      form.querySelectorAll(".field.invalid").forEach(function (node) {
        node.classList.remove("invalid");
      });
      var errors = form.querySelector(".message.error");
      if (errors) {
        errors.remove();
      }
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }

    function load(item) {
      resetForm();
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!field.name || field.type === "hidden" || field.type === "submit") {
          return;
        }
        var value = item.data[field.name];
        if (field.type === "checkbox") {
          field.checked = !!value;
        } else {
          field.value = value === undefined ? "" : value;
        }
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
      var output = form.querySelector("[data-live]");
      if (output && item.error) {
        output.textContent = item.error;
        output.className = "live bad";
      }
    }

    function renumber() {
      var first = base();
      queue.forEach(function (item, index) {
        item.number = first + index;
      });
    }

    function fix(item) {
      editing = item;
      load(item);
      render();
      form.scrollIntoView({ block: "start" });
    }

    function discard(item) {
      queue = queue.filter(function (other) {
        return other.client_id !== item.client_id;
      });
      if (editing && editing.client_id === item.client_id) {
        editing = null;
        resetForm();
      }
      renumber();
      save();
      render();
      flush();
    }

    function refuse(item, body) {
      item.state = "rejected";
      item.error = (body && body.error) || "";
      save();
      // Nothing else is being typed: put the row back into the form with the reason.
      var game = form.elements.namedItem("game");
      if (queue[0] === item && game && !game.value && !editing) {
        editing = item;
        load(item);
      }
    }

    function scheduleRetry() {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(function () {
        retryTimer = null;
        flush();
      }, delay);
      delay = Math.min(delay * 2, 30000);
    }

    function flush() {
      var item = queue[0];
      if (sending || stopped || !item || item.state === "rejected") {
        render();
        return;
      }
      if (navigator.onLine === false) {
        render();
        return; // the `online` event sends them
      }
      clearTimeout(retryTimer);
      retryTimer = null;
      sending = true;
      render();
      fetch(gamesUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-CSRFToken": csrfToken(),
        },
        body: JSON.stringify({ client_id: item.client_id, number: item.number, data: item.data }),
      })
        .then(function (response) {
          var type = response.headers.get("Content-Type") || "";
          var body = type.indexOf("application/json") !== -1 ? response.json() : Promise.resolve(null);
          return body.then(function (json) {
            return { status: response.status, body: json };
          });
        })
        .then(function (result) {
          sending = false;
          var body = result.body;
          if (body && body.ok) {
            queue = queue.filter(function (other) {
              return other.client_id !== item.client_id;
            });
            save();
            mine = mine
              .filter(function (other) {
                return other.client_id !== item.client_id;
              })
              .concat([{ client_id: item.client_id, number: body.number }])
              .slice(-5);
            saveQueue(mineKey, mine);
            say(fill(texts.entered, { n: body.number }), false);
            delay = 1000;
            applyState(body.state);
            flush();
          } else if (result.status === 404 && body) {
            stopped = "gone";
            render();
          } else if (result.status === 410 && body && body.code === "gone_entered") {
            // The link was revoked after this row went in (its answer was lost): it is on
            // the sheet, so it leaves the queue; the rows after it go to the director.
            queue = queue.filter(function (other) {
              return other.client_id !== item.client_id;
            });
            save();
            say(fill(texts.entered, { n: body.number }), false);
            stopped = "gone";
            render();
          } else if (result.status === 410 && body && body.code === "deleted") {
            // The director deleted this row after it went in: it is not entered again.
            queue = queue.filter(function (other) {
              return other.client_id !== item.client_id;
            });
            save();
            say(body.error || "", false);
            renumber();
            flush();
          } else if (result.status === 410) {
            stopped = "closed";
            applyState(null);
            render();
          } else if (result.status === 403) {
            stopped = "reload"; // the CSRF cookie is gone: a reload brings a new one
            render();
          } else if (body && result.status >= 400 && result.status < 500) {
            if (body.state) {
              // The sheet moved on (a game entered at the desk, say): show it and number
              // the waiting rows after it, so the refused row becomes the next game.
              applyState(body.state);
              renumber();
            }
            refuse(item, body);
            render();
          } else {
            scheduleRetry(); // the server's trouble: the same row again later
            render();
          }
        })
        .catch(function () {
          sending = false;
          say(fill(texts.kept, { n: item.number }), true);
          scheduleRetry(); // no answer: maybe entered, maybe not; the client_id decides
          render();
        });
    }

    function refresh() {
      if (queue.length || sending || navigator.onLine === false) {
        return;
      }
      fetch(stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) {
          return response.ok ? response.json() : null;
        })
        .then(function (body) {
          if (body && body.ok && !queue.length) {
            applyState(body.state);
            render();
          }
        })
        .catch(function () {});
    }

    if (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        if (stopped) {
          render();
          return;
        }
        var data = collect();
        var output = form.querySelector("[data-live]");
        if (!data.game) {
          if (output) {
            output.textContent = texts.choose_game;
            output.className = "live bad";
          }
          return;
        }
        var item = {
          client_id: editing ? editing.client_id : uuid(),
          number: formNumber(),
          data: data,
          label: describe(data),
          state: "waiting",
        };
        if (editing) {
          var at = queue.indexOf(editing);
          queue[at === -1 ? queue.length : at] = item;
          editing = null;
          renumber();
        } else {
          queue.push(item);
        }
        save();
        resetForm();
        delay = 1000;
        say(fill(navigator.onLine === false ? texts.kept : texts.queued, { n: item.number }), true);
        render();
        flush();
      });
    }

    window.addEventListener("online", function () {
      delay = 1000;
      flush();
      refresh();
    });
    window.addEventListener("offline", render);
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") {
        flush();
        refresh();
      }
    });

    if (!accepting && queue.length) {
      stopped = "closed";
    }
    render();
    flush();
  }

  var root = document.querySelector("[data-entry]");
  if (root) {
    setup(root);
  }
  var lost = document.querySelector("[data-entry-orphan]");
  if (lost) {
    orphan(lost);
  }
})();
