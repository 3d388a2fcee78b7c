/* Table entry page: show only the fields the chosen contract needs, compute the third trick count,
   and ask the server (the scoring core) for the vists while the row is filled in. The page works without it. */
(function () {
  "use strict";
  var root = document.querySelector(".tb[data-preview-url]");
  if (!root) return;
  var previewUrl = root.getAttribute("data-preview-url");

  function val(form, name) {
    var el = form.querySelector("input[name=" + name + "]:checked");
    return el ? el.value : "";
  }
  function kind(contract) {
    if (!contract) return "";
    if (contract === "-") return "raspasy";
    if (contract === "MIS") return "misere";
    return "contract";
  }
  function level(contract) { return parseInt(contract, 10) || 0; }
  function setHidden(el, hidden) { if (el) el.hidden = hidden; }

  // PINs never go into a draft or a preview's query string (pin, writer_pin, pin_N, …)
  function secret(name) { return name === "csrfmiddlewaretoken" || /(^|_)pin(_|$)/.test(name); }

  function draftKey(form) { return "tb-draft-" + location.pathname + "-" + form.querySelector("input[name=board]").value; }
  function saveDraft(form) {
    try {
      var data = {};
      new FormData(form).forEach(function (v, k) { if (!secret(k)) data[k] = v; });
      sessionStorage.setItem(draftKey(form), JSON.stringify(data));
    } catch (e) { /* private mode: no drafts */ }
  }
  function restoreDraft(form) {
    try {
      var raw = sessionStorage.getItem(draftKey(form));
      if (!raw || form.querySelector("input[name=contract]:checked")) return;
      var data = JSON.parse(raw);
      Object.keys(data).forEach(function (k) {
        form.querySelectorAll("[name='" + k + "']").forEach(function (el) {
          if (el.type === "radio" || el.type === "checkbox") el.checked = (el.value === data[k]);
          else if (el.type !== "hidden" || k === "key") el.value = data[k];
        });
      });
    } catch (e) { /* ignore */ }
  }

  function setup(form) {
    var meta = JSON.parse(form.getAttribute("data-meta"));
    var t = [form.querySelector("input[name=t1]"), form.querySelector("input[name=t2]"), form.querySelector("input[name=t3]")];
    var labels = [form.querySelector("[data-role=c1]"), form.querySelector("[data-role=c2]"), form.querySelector("[data-role=c3]")];
    var defaults = labels.map(function (l) { return l.textContent; });
    var save = form.querySelector("[data-role=save]");
    var check = form.querySelector("[data-role=check]");
    var preview = form.querySelector("[data-role=preview]");
    var timer = null, seq = 0;
    var i18n = {};
    ["declarer", "d1", "d2", "h1", "h2", "h3"].forEach(function (k) { i18n[k] = form.getAttribute("data-l-" + k) || k; });
    var whoD1 = form.querySelector("[data-role=d1]"), whoD2 = form.querySelector("[data-role=d2]");
    var whoDefaults = [whoD1.textContent, whoD2.textContent];

    function update() {
      var contract = val(form, "contract"), k = kind(contract), decl = val(form, "declarer");
      var c1 = val(form, "call1"), c2 = val(form, "call2");
      var dw = form.querySelector("input[name=dealer_whist]");
      var whisted = k === "misere" || k === "raspasy" || c1 === "whist" || c2 === "whist" || (dw && dw.checked);
      var unplayed = k === "contract" && c1 && c2 && !whisted;
      form.querySelectorAll("[data-show]").forEach(function (el) {
        var want = el.getAttribute("data-show").split(" ");
        var show = want.some(function (w) {
          if (w === "played") return k !== "" && !unplayed && (k !== "contract" || whisted || !(c1 && c2));
          if (w === "unplayed") return unplayed;
          return w === k;
        });
        el.hidden = !show;
      });
      // the play choice matters only when someone whisted
      setHidden(form.querySelector(".tb-play"), !(k === "contract" && whisted));
      // half-whist only on a six or a seven
      form.querySelectorAll("[data-call^=half]").forEach(function (el) {
        var off = k === "contract" && level(contract) >= 8;
        el.hidden = off;
        if (off) el.querySelector("input").checked = false;
      });
      // column names: who the defenders are, or the three hands of raspasy
      var cols;
      if (k === "raspasy") {
        cols = meta.hands.map(function (s, i) { return [i18n["h" + (i + 1)] || s, s]; });
      } else if (decl && meta.after[decl]) {
        cols = [[i18n.declarer, decl], [i18n.d1, meta.after[decl][0]], [i18n.d2, meta.after[decl][1]]];
      }
      labels.forEach(function (l, i) {
        l.textContent = cols ? cols[i][0] + " " + cols[i][1] : defaults[i];
      });
      if (k === "contract" && decl && meta.after[decl]) {
        whoD1.textContent = whoDefaults[0].split("(")[0].trim() + ": " + meta.names[meta.after[decl][0]];
        whoD2.textContent = whoDefaults[1].split("(")[0].trim() + ": " + meta.names[meta.after[decl][1]];
      } else { whoD1.textContent = whoDefaults[0]; whoD2.textContent = whoDefaults[1]; }
      // the third number follows from the other two (not for 4-player Sochi/Leningrad raspasy: 8 to 10)
      var three = k === "raspasy" && meta.three;
      t[2].readOnly = !three;
      if (!three) {
        var a = parseInt(t[0].value, 10), b = parseInt(t[1].value, 10);
        t[2].value = (!isNaN(a) && !isNaN(b) && a + b <= 10) ? String(10 - a - b) : "";
      }
      schedule();
    }

    function render(data) {
      preview.textContent = "";
      if (data.ok) {
        var p = document.createElement("p"); p.className = "tb-ptitle";
        p.textContent = root.getAttribute("data-l-vists") || "Vists";
        var table = document.createElement("table"); table.className = "tb-vists";
        var body = document.createElement("tbody"); table.appendChild(body);
        data.vists.forEach(function (v) {
          var tr = document.createElement("tr");
          var th = document.createElement("th"); th.textContent = v.seat;
          var td = document.createElement("td"); td.textContent = v.number + " " + v.name;
          var num = document.createElement("td"); num.className = "num" + (v.negative ? " neg" : ""); num.textContent = v.display;
          tr.appendChild(th); tr.appendChild(td); tr.appendChild(num); body.appendChild(tr);
        });
        preview.appendChild(p); preview.appendChild(table);
        save.hidden = false;
        check.hidden = true;  // the live preview already did what «Check» does
      } else {
        save.hidden = true;
        check.hidden = false;
        if (data.errors && data.errors.length) {
          var box = document.createElement("div"); box.className = "tb-alert tb-alert-error"; box.setAttribute("role", "alert");
          var ul = document.createElement("ul");
          data.errors.forEach(function (m) { var li = document.createElement("li"); li.textContent = m; ul.appendChild(li); });
          box.appendChild(ul); preview.appendChild(box);
        }
      }
    }

    function schedule() {
      saveDraft(form);
      clearTimeout(timer);
      timer = setTimeout(ask, 250);
    }
    function ask() {
      if (!val(form, "contract")) { save.hidden = true; preview.textContent = ""; return; }
      var params = new URLSearchParams();
      new FormData(form).forEach(function (v, k) {
        if (!secret(k) && k !== "number") params.append(k, v);
      });
      var mine = ++seq;
      fetch(previewUrl + "?" + params.toString(), { headers: { "Accept": "application/json" }, credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (data) { if (mine === seq) render(data); })
        .catch(function () { check.hidden = false; /* offline: «Check» posts the form instead */ });
    }

    restoreDraft(form);
    form.addEventListener("change", update);
    form.addEventListener("input", function (e) { if (e.target.name === "t1" || e.target.name === "t2" || e.target.name === "t3") update(); });
    form.addEventListener("submit", function (e) {
      var btn = e.submitter;
      if (btn && btn.value === "save") {
        // a second tap while the first is on its way would only replay the same key; show it is in progress
        setTimeout(function () { btn.disabled = true; }, 0);
      }
    });
    update();
  }

  document.querySelectorAll("form.tb-form").forEach(setup);
  // a saved board clears its draft
  document.querySelectorAll("details.tb-board").forEach(function (d) {
    if (!d.querySelector("form.tb-form")) {
      try { sessionStorage.removeItem("tb-draft-" + location.pathname + "-" + d.id.replace("board-", "")); } catch (e) { /* ignore */ }
    }
  });
})();
