// The playing hall's projector: the clock (countdown to the round's end, else the event's wall clock), the
// standings shown page by page, and a reload whenever the hall's state changes (polled as small JSON).
(function () {
  "use strict";
  var PAGE_SECONDS = 8;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function clock(body) {
    var el = document.getElementById("pj-clock");
    if (!el) return;
    var offset = Date.parse(body.dataset.now) - Date.now();  // the server's clock, not the laptop's
    var endsAt = body.dataset.endsAt ? Date.parse(body.dataset.endsAt) : null;
    var wall = new Intl.DateTimeFormat(body.dataset.lang || "ru", {
      hour: "2-digit", minute: "2-digit", hour12: false, timeZone: body.dataset.zone || undefined
    });
    function tick() {
      var now = Date.now() + offset;
      if (endsAt === null) { el.textContent = wall.format(new Date(now)); return; }
      var left = Math.max(0, Math.round((endsAt - now) / 1000));
      el.textContent = two(Math.floor(left / 60)) + ":" + two(left % 60);
      var over = document.getElementById("pj-clock-over");
      if (over) over.hidden = left > 0;
      el.classList.toggle("pj-late", left === 0);
    }
    tick();
    setInterval(tick, 1000);
  }

  function pages() {
    var list = document.querySelector(".pj-lines");
    var box = document.getElementById("pj-standings");
    if (!list || !box) return;
    var lines = Array.prototype.slice.call(list.children);
    if (!lines.length) return;
    var room = box.clientHeight - (list.offsetTop - box.offsetTop);
    var pageOf = [], used = 0, count = 1;
    lines.forEach(function (li) {  // whole lines only: a page ends where the next line would be cut
      var h = li.offsetHeight;
      if (used > 0 && used + h > room) { count += 1; used = 0; }
      used += h;
      pageOf.push(count - 1);
    });
    var label = document.getElementById("pj-page");
    var page = 0;
    function show() {
      lines.forEach(function (li, i) { li.hidden = pageOf[i] !== page; });
      if (label) label.textContent = count > 1 ? (page + 1) + " / " + count : "";
      page = (page + 1) % count;
    }
    show();
    if (count > 1) setInterval(show, PAGE_SECONDS * 1000);
  }

  function poll(body) {
    var seconds = parseInt(body.dataset.refresh || "15", 10);
    setInterval(function () {
      fetch(body.dataset.dataUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (state) {
          if (state && state.version !== body.dataset.version) window.location.reload();
        })
        .catch(function () {});  // the hall's Wi-Fi may drop: keep showing what we have
    }, seconds * 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var body = document.getElementById("projector");
    if (!body) return;
    clock(body);
    pages();
    poll(body);
  });
})();
