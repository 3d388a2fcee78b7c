/* The director's pages without a framework: the round's countdown, the dashboard refreshing itself, and the row
   form's third trick count. Everything works without this file: the end time is printed, a Refresh link reloads
   the page, and the server computes the third count (ui/typed_row.py). */
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
  /* The row form (ui/row_form.py): the second whister's (raspasy: the third hand's) tricks are 10 less the other
     two, as on the players' phones, shown as soon as both are chosen; a number the director picks there himself
     stays. Not at 4-player Sochi/Leningrad raspasy (data-three-hands): the three hands take 8 to 10 tricks. */
  function thirdCount(grid) {
    function field(name) { return grid.querySelector("select[name$='" + name + "']"); }
    var contract = field("contract"), first = field("declarer_tricks"), second = field("w1_tricks");
    var third = field("w2_tricks"), computed = false;
    if (!contract || !first || !second || !third) return;
    function allThree() { return contract.value === "-" && grid.hasAttribute("data-three-hands"); }
    function show(value) {
      third.value = value;
      computed = value !== "";
      third.classList.toggle("computed", computed);
    }
    function update() {
      if (allThree()) {  // written by hand: a number this script put there goes
        if (computed) show("");
        return;
      }
      if (third.value !== "" && !computed) return;
      var a = parseInt(first.value, 10), b = parseInt(second.value, 10);
      show(!isNaN(a) && !isNaN(b) && a + b <= 10 ? String(10 - a - b) : "");
    }
    third.addEventListener("change", function () { computed = false; third.classList.remove("computed"); });
    [contract, first, second].forEach(function (el) { el.addEventListener("change", update); });
    // a stored row being corrected: a third count that is 10 less the other two follows them when they change
    var a = parseInt(first.value, 10), b = parseInt(second.value, 10);
    computed = !allThree() && third.value !== "" && parseInt(third.value, 10) === 10 - a - b;
  }
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
    document.querySelectorAll("[data-refresh]").forEach(refresh);
    document.querySelectorAll("[data-third-count]").forEach(thirdCount);
  });
})();
