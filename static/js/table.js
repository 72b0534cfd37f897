// The table page's progressive enhancement (the page works without it: every control
// is a submit button of one POST form). With JavaScript, htmx's ws extension sends the
// form over the table's socket; this file only covers the moments the socket is down,
// so that a tap still reaches the server (over HTTP, htmx-style) instead of waiting in
// the socket's queue.
"use strict";
(function () {
  var socketOpen = false;

  function isGameSocket(evt) {
    return evt.target && evt.target.id === "game";
  }

  function setConnection(text) {
    var el = document.getElementById("connection");
    if (el) { el.textContent = text; }
  }

  document.addEventListener("htmx:wsOpen", function (evt) {
    if (!isGameSocket(evt)) { return; }
    socketOpen = true;
    setConnection("");
  });

  document.addEventListener("htmx:wsClose", function (evt) {
    if (!isGameSocket(evt)) { return; }
    socketOpen = false;
    var game = document.getElementById("game");
    setConnection(game ? game.getAttribute("data-offline-text") || "" : "");
  });

  // Socket down: send the same fields over HTTP instead (CSRF comes from <body hx-headers>).
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    if (socketOpen) { return; }
    var form = evt.target.closest ? evt.target.closest("form") : null;
    if (!form || !window.htmx) { return; }
    evt.preventDefault();
    if (evt.detail && evt.detail.triggeringEvent) { evt.detail.triggeringEvent.preventDefault(); }
    window.htmx.ajax("POST", form.getAttribute("action"), {
      source: form, values: evt.detail.parameters, swap: "none"
    });
  });

  // Refusals (400 forbidden input, 403 not your turn, 409 stale) carry a fresh view and a
  // message in words: show them like any other answer.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if (status === 400 || status === 403 || status === 409) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });
}());
