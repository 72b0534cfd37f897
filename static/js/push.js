// Turning web push on for this device, from the notification settings page
// (<form data-push-form data-application-server-key=...>). Browsers grant notifications
// only from a tap, so nothing here runs before the button is pressed. Then: permission,
// the service worker (/sw.js, registered here if the page has not done it yet),
// pushManager.subscribe with the site's VAPID public key, and one POST of the
// subscription (rummy.notifications.push_views.subscribe). Every message shown comes
// from the page's data-msg-* attributes, already translated. No inline script: the CSP.
"use strict";
(function () {
  function keyBytes(base64url) {
    var padded = base64url.replace(/-/g, "+").replace(/_/g, "/");
    padded += "===".slice((padded.length + 3) % 4);
    var raw = atob(padded);
    var bytes = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  function worker() {
    return navigator.serviceWorker.getRegistration("/").then(function (registration) {
      return registration || navigator.serviceWorker.register("/sw.js", { scope: "/" });
    }).then(function () {
      return navigator.serviceWorker.ready;
    });
  }

  function setUp(form) {
    var button = form.querySelector("[data-push-subscribe]");
    var status = form.querySelector("[data-push-status]");
    var say = function (name) { status.textContent = form.getAttribute("data-msg-" + name) || ""; };
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
      say("unsupported");
      return;
    }
    button.hidden = false;
    button.addEventListener("click", function () {
      button.disabled = true;
      say("working");
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") throw new Error("denied");
        return worker();
      }).then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(form.getAttribute("data-application-server-key")),
        });
      }).then(function (subscription) {
        return fetch(form.action, {
          method: "POST",
          credentials: "same-origin",
          headers: {
            "Content-Type": "application/json",
            "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value,
          },
          body: JSON.stringify(subscription.toJSON()),
        });
      }).then(function (response) {
        if (response.ok) {
          window.location.reload();  // the list of devices now shows this one
          return null;
        }
        return response.json().then(function (answer) {
          status.textContent = answer.error || form.getAttribute("data-msg-failed");
          button.disabled = false;
        });
      }).catch(function (error) {
        say(error && error.message === "denied" ? "denied" : "failed");
        button.disabled = false;
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form[data-push-form]").forEach(setUp);
  });
})();
