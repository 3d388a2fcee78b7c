/* Small behaviours any page may use, without inline scripts (the Content-Security-Policy allows none):
   a button with data-print prints the page; a select with data-autosubmit sends its form when it changes;
   a box that scrolls a wide table sideways can be reached and scrolled with the keyboard (a tab stop, named by
   the table's caption or the heading above it) — only while it does scroll.
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
  function nameOf(box) {
    var caption = box.querySelector("caption");
    if (caption) return caption.textContent.trim();
    for (var el = box; el; el = el.parentElement) {
      for (var prev = el.previousElementSibling; prev; prev = prev.previousElementSibling)
        if (/^H[1-6]$/.test(prev.tagName)) return prev.textContent.trim();
    }
    return document.title;
  }
  function markScrollBoxes() {
    var boxes = document.querySelectorAll(".table-wrap");
    for (var i = 0; i < boxes.length; i++) {
      var box = boxes[i], scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", nameOf(box));
        box.dataset.scrollBox = "1";
      } else if (!scrolls && box.dataset.scrollBox) {
        box.removeAttribute("tabindex"); box.removeAttribute("role"); box.removeAttribute("aria-label");
        delete box.dataset.scrollBox;
      }
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", markScrollBoxes);
  else markScrollBoxes();
  window.addEventListener("resize", markScrollBoxes);
  window.preferansMarkScrollBoxes = markScrollBoxes;
})();
