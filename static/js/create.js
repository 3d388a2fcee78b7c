/* The new-tournament form: Olympic, compensation and Swiss events play whole games, so the duplicate-only fields
   are hidden for them (they are still sent with their defaults, which such an event does not use). */
(function () {
  "use strict";
  function start() {
    var select = document.getElementById("id_form");
    if (!select) return;
    var duplicateOnly = ["deals_per_set", "minutes_per_deal", "unequal_results", "artificial_minus",
                         "artificial_average", "artificial_plus"];
    function update() {
      var pulka = select.value && select.value !== "duplicate";
      duplicateOnly.forEach(function (name) {
        var box = document.getElementById("field-" + name);
        if (box) box.hidden = pulka;
      });
    }
    select.addEventListener("change", update);
    update();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
