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

  // A reconnect names the view the page holds now (the form's stamp, which every frame
  // keeps current), not the one it was first rendered with, so that the server sends
  // only what changed while away, or nothing (rummy.table.consumers.GameConsumer); and
  // the header's count as it shows now (the same socket keeps it live).
  // htmx's ws extension opens every socket, first and again, through this hook.
  if (window.htmx && window.htmx.createWebSocket) {
    var openSocket = window.htmx.createWebSocket;
    window.htmx.createWebSocket = function (url) {
      var stamp = document.getElementById("view-stamp");
      if (url.indexOf("/ws/games/") !== -1) {
        if (stamp && stamp.value) {
          url = url.replace(/([?&]stamp=)[^&]*/, "$1" + encodeURIComponent(stamp.value));
        }
        var count = document.getElementById("move-count");
        if (count) {
          var shown = parseInt(count.textContent, 10) || 0;
          url = url.replace(/([?&]moves=)[^&]*/, "$1" + shown);
        }
      }
      return openSocket(url);
    };
  }

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

  // Refusals (400 forbidden input, 403 not your turn, 409 stale, 429 a hint's limits)
  // carry a fresh view and a message in words: show them like any other answer.
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var status = evt.detail.xhr ? evt.detail.xhr.status : 0;
    if (status === 400 || status === 403 || status === 409 || status === 429) {
      evt.detail.shouldSwap = true;
      evt.detail.isError = false;
    }
  });
}());

// Nothing moves under the finger. The browser's own scroll anchoring is off (table.css):
// it chose a new anchor whenever the part holding it was swapped and the page jumped. Here
// the page keeps one element in place across every swap: the meld just tapped, else the
// first meld in view, so another player's move that changes a meld above does not shift
// the table under the reader either. "+ New meld" keeps the melds in view: the new meld
// takes the slot's place (under the finger) and the slot moves on to the next one.
(function () {
  var lastTap = null;
  var lastAction = null;
  var anchor = null;
  var shown = null;  // each meld's cards before the frame, by id
  var over = false;  // whether the page showed a finished game before this frame

  function meldOf(el) {
    return el && el.closest ? el.closest(".meld") : null;
  }

  document.addEventListener("click", function (evt) {
    var el = evt.target;
    if (!el || !el.closest || !el.closest("#game-view")) { return; }
    // With cards selected, a tap anywhere on a meld's frame puts them there: the frame
    // forwards the tap to the meld's "+" button (the same control without JavaScript).
    var meld = el.closest(".melds.editing .meld");
    if (meld && !el.closest("button")) {
      var target = meld.querySelector(".meld-target");
      if (target) { target.click(); }
      return;
    }
    var kept = meldOf(el);
    lastTap = kept && kept.id ? {id: kept.id, at: Date.now()} : null;
    var button = el.closest("button");
    lastAction = button ? {value: button.value, at: Date.now()} : null;
    if (el.closest("#flash")) { el.closest("#flash").classList.add("dismissed"); }
  }, true);

  function firstInView() {
    var melds = document.querySelectorAll("#table-melds .meld");
    for (var i = 0; i < melds.length; i++) {
      var r = melds[i].getBoundingClientRect();
      if (r.bottom > 0) { return melds[i]; }
    }
    return null;
  }

  function remember() {
    var el = null;
    if (lastTap && Date.now() - lastTap.at < 8000) { el = document.getElementById(lastTap.id); }
    if (!el) { el = firstInView(); }
    anchor = el && el.id ? {id: el.id, top: el.getBoundingClientRect().top} : null;
    over = !!document.querySelector("#final:not([hidden])");
    // A page that gets shorter (the editor closes, the dock shrinks) must not pull the
    // part in view down when the reader is near its end: it keeps at least the height
    // that the current scroll position needs, until the next swap.
    document.documentElement.style.minHeight = (window.scrollY + window.innerHeight) + "px";
    if (!shown) { shown = meldContents(); }
  }

  function cardsOf(meld) {
    return Array.prototype.map.call(meld.querySelectorAll("[data-card]"), function (c) {
      return c.getAttribute("data-card");
    }).join(" ");
  }

  function meldContents() {
    var seen = {};
    document.querySelectorAll("#table-melds .meld").forEach(function (m) {
      seen[m.id] = cardsOf(m);
    });
    return seen;
  }

  // A hint or a refused Play says something about melds (the ones the hint laid out, the
  // ones that are not valid): those are brought into the part of the screen that neither
  // the message nor the dock covers. Other taps scroll nothing.
  function showWhatTheMessageIsAbout(before) {
    var message = document.querySelector("#flash .message");
    var action = lastAction && Date.now() - lastAction.at < 8000 ? lastAction.value : "";
    if (!message || !before || !/^(hint|play|play_knock)$/.test(action)) { return; }
    lastAction = null;  // once: the next frame (another player's move) scrolls nothing
    var about = [];
    document.querySelectorAll("#table-melds .meld").forEach(function (m) {
      if (action === "hint" ? before[m.id] !== cardsOf(m) : m.classList.contains("invalid")) {
        about.push(m);
      }
    });
    if (!about.length) { return; }
    var top = about[0].getBoundingClientRect().top;
    var bottom = about[about.length - 1].getBoundingClientRect().bottom;
    var free = message.getBoundingClientRect().top - 8;
    var margin = 8;
    if (bottom - top > free - margin) { bottom = about[0].getBoundingClientRect().bottom; }
    var delta = 0;
    if (bottom > free) { delta = bottom - free; }
    if (top - delta < margin) { delta = top - margin; }
    if (Math.abs(delta) > 1) { window.scrollBy(0, delta); }
  }

  function restore() {
    var final = document.querySelector("#final:not([hidden])");
    if (final && !over) {
      // The game just ended: its result is the news, not the table.
      anchor = null;
      final.scrollIntoView({block: "start"});
      return;
    }
    if (!anchor) { return; }
    var el = document.getElementById(anchor.id);
    if (el) {
      var delta = el.getBoundingClientRect().top - anchor.top;
      if (Math.abs(delta) > 1) { window.scrollBy(0, delta); }
    }
    anchor = null;
  }

  function afterSwap() {
    restore();
    var before = shown;
    shown = null;
    showWhatTheMessageIsAbout(before);
    watchDock();
  }

  document.addEventListener("htmx:wsBeforeMessage", remember);
  document.addEventListener("htmx:wsAfterMessage", afterSwap);
  document.addEventListener("htmx:beforeSwap", remember);
  document.addEventListener("htmx:afterSettle", afterSwap);

  // The dock is fixed to the bottom: the page reserves its height below the table, so the
  // last meld and the players' panel can be scrolled clear of it. Growing the padding
  // at the bottom moves nothing above it.
  var observed = null;
  var observer = window.ResizeObserver ? new ResizeObserver(function (entries) {
    var h = Math.ceil(entries[0].target.getBoundingClientRect().height);
    document.documentElement.style.setProperty("--dock-h", h + "px");
  }) : null;

  function watchDock() {
    var dock = document.getElementById("dock");
    if (!observer || !dock || dock === observed) { return; }
    if (observed) { observer.unobserve(observed); }
    observer.observe(dock);
    observed = dock;
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watchDock);
  } else {
    watchDock();
  }
}());
