// The table page's live glue (htmx and its SSE extension do the rest).
// - The stream resumes after the last event this page has shown: the page's own newest id at first, then
//   the id of every event received; a stream htmx has to reopen asks for what came after that id.
// - A feed item already on the page is never added twice.
(function () {
  "use strict";
  var last = parseInt(document.body.getAttribute("data-after") || "0", 10);
  function seen(evt) {
    var id = parseInt((evt.detail && evt.detail.lastEventId) || "0", 10);
    if (id > last) { last = id; }
  }
  document.body.addEventListener("htmx:sseBeforeMessage", function (evt) {
    var id = evt.detail && evt.detail.lastEventId;
    if (id && document.getElementById("ev-" + id)) { evt.preventDefault(); }
    seen(evt);
    var empty = document.getElementById("feed-empty");
    if (empty) { empty.remove(); }
  });
  document.body.addEventListener("htmx:sseMessage", seen);
  document.body.addEventListener("htmx:sseOpen", function () {
    var live = document.getElementById("live");
    if (live) { live.textContent = "live"; live.className = "live"; }
  });
  document.body.addEventListener("htmx:sseError", function () {
    var live = document.getElementById("live");
    if (live) { live.textContent = "reconnecting..."; live.className = "offline"; }
  });
  htmx.createEventSource = function (url) {
    return new EventSource(url.replace(/after=\d+/, "after=" + last));
  };
  document.documentElement.classList.add("js");
})();
