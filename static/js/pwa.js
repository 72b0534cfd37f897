// The site as an app (rummy.pwa): registers the service worker, and offers "Install"
// where the browser allows it. No inline script: the CSP forbids it.
// - The worker's address comes from this script's data-service-worker attribute
//   (base.html), so no URL is written twice.
// - The install hint (#install-hint in base.html) shows only after the browser's
//   beforeinstallprompt (Chromium browsers; Safari has none: the iPhone how-to on the
//   notification settings page covers it). "Not now" is remembered on this device.
"use strict";
(function () {
  var script = document.currentScript;
  var DISMISSED = "carousel.install-dismissed";

  if ("serviceWorker" in navigator && script && script.dataset.serviceWorker) {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(script.dataset.serviceWorker, {scope: "/"})
        .catch(function () { /* no worker: the site works as before, only not offline */ });
    });
  }

  function dismissed() {
    try {
      return window.localStorage.getItem(DISMISSED) === "1";
    } catch (e) {
      return false;  // storage blocked: offer the hint, it can still be closed for now
    }
  }

  function remember() {
    try {
      window.localStorage.setItem(DISMISSED, "1");
    } catch (e) { /* storage blocked: hidden for this page only */ }
  }

  var offer = null;
  window.addEventListener("beforeinstallprompt", function (event) {
    // Keep the browser's own mini-bar away and offer ours, which can be dismissed.
    event.preventDefault();
    offer = event;
    var hint = document.getElementById("install-hint");
    if (hint && !dismissed()) hint.hidden = false;
  });

  function hide() {
    var hint = document.getElementById("install-hint");
    if (hint) hint.hidden = true;
  }

  window.addEventListener("appinstalled", function () {
    offer = null;
    hide();
  });

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    if (target.closest("#install-button") && offer) {
      var prompt = offer;
      offer = null;  // a prompt can be shown once only
      hide();
      prompt.prompt();
      // A "no" to the browser's own dialog counts as "Not now": Chromium offers again
      // right away, and the hint must not come straight back.
      if (prompt.userChoice) {
        prompt.userChoice.then(function (choice) {
          if (choice.outcome === "dismissed") {
            remember();
            hide();
          }
        });
      }
    } else if (target.closest("#install-dismiss")) {
      remember();
      hide();
    }
  });
})();
