// Live pages (standings, series, projector): ask the tournament's tiny version endpoint
// every few seconds and reload only when something changed. The reload is a conditional
// GET, so an unchanged page costs a 304. The projector also turns to its next page of
// standings after a while (data-turn-url, data-turn-after in seconds).
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !window.fetch) return;
  var url = script.dataset.versionUrl;
  var version = script.dataset.version;
  var every = 10000;
  var timer = null;

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(check, every);
  }

  function check() {
    if (document.hidden) return schedule();
    fetch(url, { cache: "no-store", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        if (data && String(data.version) !== version) {
          window.location.reload();
        } else {
          schedule();
        }
      })
      .catch(schedule);
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) check();
  });
  schedule();

  var turn = script.dataset.turnUrl;
  var after = parseInt(script.dataset.turnAfter, 10);
  if (turn && after > 0) {
    setTimeout(function () { window.location.assign(turn); }, after * 1000);
  }
})();
