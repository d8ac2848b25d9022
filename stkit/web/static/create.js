// Guided creation's pickers: the dots placed in each group, counted as the selects change (the server
// counts again, and decides, when the step is sent).
(function () {
  "use strict";
  function count(fieldset) {
    var base = Number(fieldset.getAttribute("data-base")) || 0;
    var shown = fieldset.querySelector(".placed");
    if (!shown) { return; }
    var total = 0;
    var selects = fieldset.querySelectorAll("select");
    for (var i = 0; i < selects.length; i++) {
      total += Math.max(0, Math.min(Number(selects[i].value) || 0, base ? 5 : 3) - base);
    }
    if (fieldset.querySelector("select[name^='f:background:']")) {
      total = 0;
      for (var j = 0; j < selects.length; j++) { total += Number(selects[j].value) || 0; }
    }
    shown.textContent = String(total);
    var allot = Number(fieldset.getAttribute("data-allot"));
    fieldset.classList.toggle("over", allot > 0 && total > allot);
  }
  document.addEventListener("change", function (e) {
    var fs = e.target && e.target.closest ? e.target.closest("fieldset.dots") : null;
    if (fs) { count(fs); }
  });
})();
