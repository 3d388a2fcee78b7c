// Results pages: refresh the live standings while a session runs; follow export jobs' progress.
(function () {
  "use strict";

  function refreshLive() {
    var region = document.getElementById("live-region");
    if (!region || region.dataset.live !== "1") return;
    var seconds = parseInt(region.dataset.refresh || "30", 10);
    setInterval(function () {
      if (document.hidden) return;
      fetch(window.location.href, { headers: { "X-Requested-With": "fetch" }, cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (html) {
          if (!html) return;
          var doc = new DOMParser().parseFromString(html, "text/html");
          var fresh = doc.getElementById("live-region");
          if (fresh) { region.innerHTML = fresh.innerHTML; if (window.preferansMarkScrollBoxes) window.preferansMarkScrollBoxes(); }
          var badge = doc.querySelector(".status-line");
          var old = document.querySelector(".status-line");
          if (badge && old) old.innerHTML = badge.innerHTML;
        })
        .catch(function () {});
    }, seconds * 1000);
  }

  function followJobs() {
    var table = document.getElementById("jobs");
    if (!table) return;
    var rows = table.querySelectorAll("tr[data-job]");
    rows.forEach(function (row) {
      var status = row.dataset.status;
      if (status !== "pending" && status !== "running") return;
      var timer = setInterval(function () {
        fetch(row.dataset.statusUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
          .then(function (r) { return r.json(); })
          .then(function (job) {
            var bar = row.querySelector("progress");
            if (bar) bar.value = job.progress;
            row.querySelector(".job-status").textContent = job.status_display;
            if (job.status === "done" || job.status === "failed") {
              clearInterval(timer);
              if (bar) bar.remove();
              row.dataset.status = job.status;
              if (job.download) {
                var a = document.createElement("a");
                a.className = "btn btn-small";
                a.href = job.download;
                a.textContent = "⬇";
                row.querySelector(".job-link").appendChild(a);
              }
              if (job.message) row.querySelector(".job-state").append(" " + job.message);
            }
          })
          .catch(function () {});
      }, 1000);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    refreshLive();
    followJobs();
  });
})();
