/* The director's pages without a framework: the round's countdown, and the dashboard refreshing itself.
   Everything works without this file: the end time is printed, and a Refresh link reloads the page. */
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach(function (el) {
      var ends = Date.parse(el.getAttribute("data-ends-at"));
      if (isNaN(ends)) return;
      var left = Math.round((ends - Date.now()) / 1000);
      var sign = left < 0 ? "−" : "";
      var s = Math.abs(left);
      var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60);
      el.textContent = sign + (h ? h + ":" + pad(m) : m) + ":" + pad(s % 60);  // 1:50:16 in a two-hour pulka round
      el.classList.toggle("overdue", left < 0);
    });
  }
  function refresh(box) {
    var url = box.getAttribute("data-refresh");
    var every = parseInt(box.getAttribute("data-interval") || "15", 10) * 1000;
    setInterval(function () {
      if (document.hidden) return;
      if (box.contains(document.activeElement) && document.activeElement !== document.body) return;
      fetch(url, { headers: { "X-Requested-With": "fetch" }, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) { if (html !== null) { box.innerHTML = html; tick(); } })
        .catch(function () { /* offline for a moment: try again next time */ });
    }, every);
  }
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
    document.querySelectorAll("[data-refresh]").forEach(refresh);
  });
})();
