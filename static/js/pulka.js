/* The pulka sheet at the table: the round's clock counts down, and the writer's own line among the players who
   confirm on this phone is hidden (he does not confirm his own deal). The page works without it. */
(function () {
  "use strict";
  var clock = document.querySelector("[data-ends-at]");
  if (clock) {
    var ends = Date.parse(clock.getAttribute("data-ends-at"));
    var skew = Date.parse(clock.getAttribute("data-now")) - Date.now();  // the server's clock, not the phone's
    var out = clock.querySelector("[data-role=left]");
    var over = clock.getAttribute("data-l-over");
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    var tick = function () {
      var left = Math.max(0, Math.floor((ends - (Date.now() + skew)) / 1000));
      if (left === 0) {
        out.textContent = over;
        clock.classList.add("pk-over");
        return;
      }
      out.textContent = Math.floor(left / 3600) + ":" + two(Math.floor(left % 3600 / 60)) + ":" + two(left % 60);
      setTimeout(tick, 1000 - (Date.now() + skew) % 1000);
    };
    if (!isNaN(ends) && !isNaN(skew)) tick();
  }
  document.querySelectorAll("select[data-role=writer]").forEach(function (select) {
    var form = select.form;
    var update = function () {
      var seat = select.options[select.selectedIndex].getAttribute("data-seat");
      form.querySelectorAll(".pk-other[data-seat]").forEach(function (line) {
        var mine = line.getAttribute("data-seat") === seat;
        line.hidden = mine;
        if (mine) line.querySelector("input").value = "";
      });
    };
    select.addEventListener("change", update);
    update();
  });
})();
