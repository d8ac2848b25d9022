// The night's log page: times shown in the reader's own time zone (the server writes UTC).
(function () {
  "use strict";
  function two(n) { return (n < 10 ? "0" : "") + n; }
  var times = document.querySelectorAll("time[datetime]");
  for (var i = 0; i < times.length; i++) {
    var d = new Date(times[i].getAttribute("datetime"));
    if (!isNaN(d.getTime())) {
      times[i].textContent = two(d.getHours()) + ":" + two(d.getMinutes()) + ":" + two(d.getSeconds());
      times[i].title = d.toString();
    }
  }
})();
