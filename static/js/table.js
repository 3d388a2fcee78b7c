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
      // a computed count is shown, not typed: it takes no tab stop (the keyboard goes from the second count on)
      if (three) t[2].removeAttribute("tabindex"); else t[2].setAttribute("tabindex", "-1");
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
        .catch(function () {
          var queued = form.querySelector("[data-role=queued]");
          if (!queued || queued.hidden) check.hidden = false;  /* offline: «Check» posts the form instead */
        });
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
  if (root.hasAttribute("data-outbox")) outboxSetup();

  /* Offline-tolerant saving (the duplicate table page only). «Save» is sent by fetch; when the hall's Wi-Fi drops,
     the row waits in localStorage (its idempotency key with it) and goes when the network returns, so it is never
     lost (it survives a reload) and never stored twice (the server replays a key it has seen). The PIN never goes
     into localStorage: it waits in sessionStorage (this tab) and is dropped once sent. Without JavaScript the form
     posts as before. */
  function outboxSetup() {
    var STORE = "tb-outbox", path = location.pathname, busy = false, timer = null;
    var sentKey = "tb-outbox-sent-" + path;
    function read() { try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; } }
    function write(list) { try { localStorage.setItem(STORE, JSON.stringify(list)); } catch (e) { /* full or private */ } }
    function mine() { return read().filter(function (x) { return x.path === path; }); }
    function drop(key) {
      write(read().filter(function (x) { return x.key !== key; }));
      try { sessionStorage.removeItem("tb-outbox-pin-" + key); } catch (e) { /* ignore */ }
    }
    function csrf() { var el = document.querySelector("input[name=csrfmiddlewaretoken]"); return el ? el.value : ""; }
    function formOf(board) {
      var found = null;
      document.querySelectorAll("form.tb-form").forEach(function (f) {
        if (f.querySelector("input[name=board]").value === String(board)) found = f;
      });
      return found;
    }
    function say(text) {
      document.querySelectorAll("[data-role=outbox]").forEach(function (el) { el.textContent = text; el.hidden = !text; });
    }
    function showQueued() {
      var list = mine();
      document.querySelectorAll("form.tb-form [data-role=queued]").forEach(function (el) { el.hidden = true; });
      list.forEach(function (x) {
        var f = formOf(x.board);
        if (!f) return;
        var el = f.querySelector("[data-role=queued]");
        el.hidden = false;
        f.querySelector("[data-role=save]").hidden = true;
        f.querySelector("[data-role=check]").hidden = true;
      });
      if (list.length) say(root.getAttribute("data-l-offline"));
      clearInterval(timer);
      if (list.length) timer = setInterval(flush, 5000);
    }
    function send(x) {
      var body = new FormData();
      x.fields.forEach(function (kv) { body.append(kv[0], kv[1]); });
      body.append("csrfmiddlewaretoken", csrf());
      var pin = null;
      try { pin = sessionStorage.getItem("tb-outbox-pin-" + x.key); } catch (e) { /* ignore */ }
      if (pin) body.append("pin", pin);
      return fetch(path, { method: "POST", body: body, credentials: "same-origin" }).then(function (r) {
        drop(x.key);  // the server has answered: stored, replayed or refused — no more resending
        if (x.queued) { try { sessionStorage.setItem(sentKey, x.board); } catch (e) { /* ignore */ } }
        if (r.redirected && r.ok) {
          var to = r.url.split("#")[0];
          if (to === location.href.split("#")[0]) { location.hash = "tb-now"; location.reload(); }
          else location.assign(to + "#tb-now");
        } else {
          return r.text().then(function (html) { document.open(); document.write(html); document.close(); });
        }
        return true;
      });
    }
    function flush() {
      if (busy) return;
      var list = mine();
      if (!list.length) return;
      busy = true;
      send(list[0]).catch(function () {
        var all = read();
        all.forEach(function (x) { if (x.key === list[0].key) x.queued = true; });
        write(all);
        showQueued();
      }).then(function () { busy = false; });
    }
    document.querySelectorAll("form.tb-form").forEach(function (form) {
      form.addEventListener("submit", function (e) {
        var btn = e.submitter;
        if (!btn || btn.value !== "save" || !window.fetch) return;
        e.preventDefault();
        var fields = [["action", "save"]];
        var pin = "";
        new FormData(form).forEach(function (v, k) {
          if (k === "pin") pin = v;
          else if (!secret(k)) fields.push([k, v]);
        });
        var key = form.querySelector("input[name=key]").value;
        var board = form.querySelector("input[name=board]").value;
        write(read().filter(function (x) { return x.key !== key; }).concat([{ path: path, key: key, board: board, fields: fields }]));
        try { if (pin) sessionStorage.setItem("tb-outbox-pin-" + key, pin); } catch (err) { /* ignore */ }
        flush();
      }, true);
    });
    window.addEventListener("online", flush);
    var sent = null;
    try { sent = sessionStorage.getItem(sentKey); sessionStorage.removeItem(sentKey); } catch (e) { /* ignore */ }
    if (sent) say(root.getAttribute("data-l-sent"));
    showQueued();
    flush();
  }
  // a saved board clears its draft
  document.querySelectorAll("details.tb-board").forEach(function (d) {
    if (!d.querySelector("form.tb-form")) {
      try { sessionStorage.removeItem("tb-draft-" + location.pathname + "-" + d.id.replace("board-", "")); } catch (e) { /* ignore */ }
    }
  });
})();
