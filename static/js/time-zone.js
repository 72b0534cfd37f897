// The browser's time zone (its IANA name, e.g. "Europe/Riga") for the server, which
// shows times and writes emails in the player's zone (config.middleware.UserLocale,
// leagues.models.User.time_zone). No inline script: the CSP forbids it.
// - Fills every <input data-time-zone> (the hidden field of the sign-up and log-in forms).
// - Shows it in every [data-device-time-zone] (the settings page), unhiding its box.
// - When the page asks for it (<body data-time-zone-report="URL">: a logged-in player
//   with no zone stored yet), reports it with one small POST.
"use strict";
(function () {
  function browserZone() {
    try {
      return Intl.DateTimeFormat().resolvedOptions().timeZone || "";
    } catch (e) {
      return "";
    }
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) {
      return "";
    }
  }

  function report(url, zone) {
    if (!window.fetch || !window.URLSearchParams) return;
    var body = new URLSearchParams();
    body.set("time_zone", zone);
    fetch(url, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken() },
    }).catch(function () { /* the next page load tries again */ });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var zone = browserZone();
    if (!zone) return;
    document.querySelectorAll("input[data-time-zone]").forEach(function (el) {
      el.value = zone;
    });
    document.querySelectorAll("[data-device-time-zone]").forEach(function (el) {
      el.textContent = zone;
      var box = el.closest("[hidden]");
      if (box) box.hidden = false;
    });
    var url = document.body.getAttribute("data-time-zone-report");
    if (url) report(url, zone);
  });
})();
