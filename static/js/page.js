/* Small behaviours any page may use, without inline scripts (the Content-Security-Policy allows none):
   a button with data-print prints the page; a select with data-autosubmit sends its form when it changes.
   A page may include this file more than once (from several partials): it acts once. */
(function () {
  "use strict";
  if (window.preferansPage) return;
  window.preferansPage = true;
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) { event.preventDefault(); window.print(); }
  });
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field.matches && field.matches("[data-autosubmit]") && field.form) field.form.submit();
  });
})();
