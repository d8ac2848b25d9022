// The printable sheet's Print button (/sheet/ID/print): the page's Content-Security-Policy allows no
// inline handler, so the button carries data-print and this file gives it its click.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("button[data-print]")) {
    button.addEventListener("click", () => window.print());
  }
});
