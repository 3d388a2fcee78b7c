// The playing hall's projector: the clock (countdown to the round's end, else the event's wall clock), the
// next round's seats and the standings page by page (in turn, when both are shown), and a reload
// whenever the hall's state changes (polled as small JSON).
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
      var hours = Math.floor(left / 3600), minutes = Math.floor(left / 60) % 60;  // a pulka round: 2 hours
      el.textContent = (hours ? hours + ":" + two(minutes) : two(minutes)) + ":" + two(left % 60);
      var over = document.getElementById("pj-clock-over");
      if (over) over.hidden = left > 0;
      el.classList.toggle("pj-late", left === 0);
    }
    tick();
    setInterval(tick, 1000);
  }

  // Split ``items`` inside ``box`` into pages (whole rows only: items side by side in a grid share a row) and
  // return {count, show(page)}; ``label`` says «2 / 3» when there is more than one page.
  function pager(items, box, label) {
    var room = box ? box.clientHeight : 0, rows = [];
    items.forEach(function (el) { el.hidden = false; });
    items.forEach(function (el) {
      var last = rows[rows.length - 1];
      if (last && last.top === el.offsetTop) { last.items.push(el); last.height = Math.max(last.height, el.offsetHeight); }
      else rows.push({ top: el.offsetTop, height: el.offsetHeight, items: [el] });
    });
    var gap = rows.length > 1 ? rows[1].top - rows[0].top - rows[0].height : 0;
    var pageOf = [], used = 0, count = 1;
    rows.forEach(function (row) {  // a page ends where the next row would be cut
      if (used > 0 && used + row.height > room) { count += 1; used = 0; }
      used += row.height + gap;
      row.items.forEach(function () { pageOf.push(count - 1); });
    });
    return {
      count: count,
      show: function (page) {
        items.forEach(function (el, i) { el.hidden = pageOf[i] !== page; });
        if (label) label.textContent = count > 1 ? (page + 1) + " / " + count : "";
      }
    };
  }

  function children(selector) {
    var parent = document.querySelector(selector);
    return parent ? Array.prototype.slice.call(parent.children) : [];
  }

  // The next round's seats and the standings: each page by page; when both are there, they take the whole screen
  // in turn (the seats' pages first), every PAGE_SECONDS. Without script both stand side by side, unpaged.
  function pages() {
    var main = document.querySelector(".pj-main");
    var panels = [
      { el: document.getElementById("pj-seats"), box: ".pj-tables", label: "pj-seats-page" },
      { el: document.getElementById("pj-standings"), box: ".pj-lines", label: "pj-page" }
    ].filter(function (p) { return p.el; });
    if (!panels.length) return;
    var cycle = panels.length > 1;
    if (cycle && main) main.classList.add("pj-cycle");
    var steps = [];
    panels.forEach(function (p) {
      if (cycle) panels.forEach(function (q) { q.el.hidden = q !== p; });
      p.pager = pager(children(p.box), document.querySelector(p.box), document.getElementById(p.label));
      for (var i = 0; i < p.pager.count; i++) steps.push({ panel: p, page: i });
    });
    var k = 0;
    function step() {
      var s = steps[k];
      if (cycle) panels.forEach(function (q) { q.el.hidden = q !== s.panel; });
      s.panel.pager.show(s.page);
      k = (k + 1) % steps.length;
    }
    step();
    if (steps.length > 1) setInterval(step, PAGE_SECONDS * 1000);
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
