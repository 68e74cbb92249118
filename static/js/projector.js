/* The projector: as many rows of the standings per page as the screen holds.

   The server pages the standings `rows` at a time. Unless somebody chose `rows` in the
   address (without `fit=1`), this measures the height of a row and of the screen below the
   table's head and, when a different number of rows fits, asks for that many, starting
   from the page that holds the first rank shown now. No libraries. */
(function () {
  "use strict";

  var box = document.querySelector("[data-projector]");
  var table = box && box.querySelector(".projector-standings");
  if (!box || !table || !box.hasAttribute("data-fit")) {
    return;
  }
  var body = table.tBodies[0];
  if (!body || !body.rows.length) {
    return;
  }

  function fitted() {
    var height = 0;
    Array.prototype.forEach.call(body.rows, function (row) {
      height = Math.max(height, row.getBoundingClientRect().height);
    });
    var top = body.getBoundingClientRect().top + window.scrollY;
    var room = window.innerHeight - top - 12; // a little air above the screen's edge
    return Math.min(200, Math.max(5, Math.floor(room / height)));
  }

  var rows = parseInt(box.getAttribute("data-rows"), 10);
  var first = parseInt(box.getAttribute("data-first"), 10) || 0;
  var want = fitted();
  if (want !== rows) {
    var page = Math.floor(first / want) + 1;
    window.location.replace("?page=" + page + "&rows=" + want + "&fit=1");
  }
})();
