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

  // Show ``items`` page by page inside ``box`` (whole rows only: items side by side in a grid share a row),
  // turning every PAGE_SECONDS; ``label`` says «2 / 3» when there is more than one page.
  function paginate(items, box, label) {
    if (!items.length || !box) return;
    var room = box.clientHeight, rows = [];
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
    var page = 0;
    function show() {
      items.forEach(function (el, i) { el.hidden = pageOf[i] !== page; });
      if (label) label.textContent = count > 1 ? (page + 1) + " / " + count : "";
      page = (page + 1) % count;
    }
    show();
    if (count > 1) setInterval(show, PAGE_SECONDS * 1000);
  }

  function children(selector) {
    var parent = document.querySelector(selector);
    return parent ? Array.prototype.slice.call(parent.children) : [];
  }

  function pages() {
    // the next round's tables: as many as the screen holds, the rest on the next page (the rests stay in view)
    paginate(children(".pj-tables"), document.querySelector(".pj-tables"), document.getElementById("pj-seats-page"));
    var list = document.querySelector(".pj-lines");
    if (list) paginate(children(".pj-lines"), list, document.getElementById("pj-page"));
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
