// Turn deadlines as live countdowns (see rummy/templatetags/clock_tags.py).
// The server renders the time left and the deadline itself, in the viewer's language
// and time zone; this keeps the time left current. The deadline stays as the server
// wrote it: one style of a deadline everywhere (rummy/clock/text.py).
// Labels come translated from data attributes on each <time class="countdown">.
"use strict";
(function () {
  var REFRESH_MS = 30000;

  function duration(seconds, units, less) {
    var d = Math.floor(seconds / 86400);
    var h = Math.floor((seconds % 86400) / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    if (d) return h ? d + " " + units[0] + " " + h + " " + units[1] : d + " " + units[0];
    if (h) return m ? h + " " + units[1] + " " + m + " " + units[2] : h + " " + units[1];
    if (m) return m + " " + units[2];
    return less;
  }

  function update(el, now) {
    var deadline = new Date(el.dataset.deadline);
    if (isNaN(deadline.getTime())) return;
    var left = Math.floor((deadline.getTime() - now) / 1000);
    var units = (el.dataset.units || "d h min").split(" ");
    var text = left <= 0
      ? el.dataset.overdue
      : (el.dataset.in || "%(time)s").replace("%(time)s", duration(left, units, el.dataset.less));
    var leftEl = el.querySelector(".countdown-left");
    if (leftEl && leftEl.textContent !== text) leftEl.textContent = text;
    el.classList.toggle("overdue", left <= 0);
    el.classList.toggle("soon", left > 0 && left < 3600);
  }

  function updateAll() {
    var now = Date.now();
    document.querySelectorAll("time.countdown").forEach(function (el) { update(el, now); });
  }

  document.addEventListener("DOMContentLoaded", updateAll);
  // Fragments swapped in by htmx (over the socket or a request) carry new countdowns.
  document.addEventListener("htmx:afterSettle", updateAll);
  document.addEventListener("htmx:wsAfterMessage", updateAll);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) updateAll();
  });
  setInterval(updateAll, REFRESH_MS);
})();
