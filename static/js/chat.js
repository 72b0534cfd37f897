// The game page's chat drawer (templates/chat/_drawer.html). The server sends each new
// message to the game's socket, appended to #chat-log by htmx; this file only counts
// what arrived while the drawer was closed, tells the server what was read, empties the
// field after a typed message was stored, and names the newest message shown when the
// socket opens again, so that only what was missed comes.
"use strict";
(function () {
  var drawer = document.getElementById("chat-drawer");
  if (!drawer) { return; }
  var me = drawer.getAttribute("data-me");
  var unread = parseInt((document.querySelector("#chat-unread .count") || {}).textContent, 10) || 0;

  function newest() {
    var top = 0;
    document.querySelectorAll("#chat-log li.chat-msg").forEach(function (li) {
      top = Math.max(top, parseInt(li.getAttribute("data-id"), 10) || 0);
    });
    return top;
  }

  var seen = newest();
  var told = seen;

  function showUnread() {
    var badge = document.getElementById("chat-unread");
    if (!badge) { return; }
    badge.querySelector(".count").textContent = String(unread);
    badge.hidden = unread === 0;
  }

  function toBottom() {
    var log = document.getElementById("chat-log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }

  function markRead() {
    unread = 0;
    showUnread();
    var last = newest();
    var form = document.getElementById("chat-read");
    if (!form || !window.htmx || last <= told) { return; }
    told = last;
    document.getElementById("chat-read-last").value = String(last);
    window.htmx.trigger(form, "chat-read");
  }

  function arrivals() {
    var top = seen;
    document.querySelectorAll("#chat-log li.chat-msg").forEach(function (li) {
      var id = parseInt(li.getAttribute("data-id"), 10) || 0;
      if (id > seen) {
        if (li.getAttribute("data-author") !== me && !drawer.open) { unread += 1; }
        top = Math.max(top, id);
      }
    });
    var arrived = top > seen;
    seen = top;
    var clear = document.getElementById("chat-clear");
    if (clear && clear.getAttribute("data-clear")) {
      clear.removeAttribute("data-clear");
      var text = document.getElementById("chat-text");
      if (text) { text.value = ""; }
    }
    if (!arrived) { return; }
    if (drawer.open) { toBottom(); markRead(); } else { showUnread(); }
  }

  // The closed tab lives in the dock: at the right end of the hand's head row (which
  // keeps its room free, css/chat.css), or at the dock's bottom-right corner when there
  // is no hand. The drawer is outside the dock (the dock is inside the game's form and
  // is swapped by the server), so the tab is fixed and placed here each time the dock
  // may have changed: a swap, the dock's size, the window's.
  var tab = drawer.querySelector("summary");
  function place() {
    var dock = document.getElementById("dock");
    if (!dock || !tab) { return; }
    var d = dock.getBoundingClientRect();
    var head = dock.querySelector(".hand-head");
    var width = document.documentElement.clientWidth;
    var bottom, right;
    if (head) {
      var h = head.getBoundingClientRect();
      bottom = d.bottom - h.bottom + (h.height - tab.offsetHeight) / 2;
      right = width - h.right;
    } else {
      var style = getComputedStyle(dock);
      bottom = parseFloat(style.paddingBottom) || 0;
      right = width - d.right + 10;
    }
    tab.style.bottom = Math.round(bottom) + "px";
    tab.style.right = Math.round(right) + "px";
  }
  var placedDock = null;
  var sizes = window.ResizeObserver ? new ResizeObserver(place) : null;
  function watch() {
    var dock = document.getElementById("dock");
    if (sizes && dock && dock !== placedDock) {
      if (placedDock) { sizes.unobserve(placedDock); }
      sizes.observe(dock);
      placedDock = dock;
    }
    place();
  }
  watch();
  window.addEventListener("resize", place);
  document.addEventListener("htmx:afterSettle", watch);
  document.addEventListener("htmx:wsAfterMessage", watch);
  document.addEventListener("htmx:oobAfterSwap", watch);

  document.addEventListener("htmx:wsAfterMessage", arrivals);
  document.addEventListener("htmx:oobAfterSwap", arrivals);
  drawer.addEventListener("toggle", function () {
    if (drawer.open) { toBottom(); markRead(); }
  });

  if (window.htmx && window.htmx.createWebSocket) {
    var openSocket = window.htmx.createWebSocket;
    window.htmx.createWebSocket = function (url) {
      if (url.indexOf("/ws/games/") !== -1) {
        url = url.replace(/([?&])chat=[^&]*&?/, "$1").replace(/[?&]$/, "");
        url += (url.indexOf("?") === -1 ? "?" : "&") + "chat=" + newest();
      }
      return openSocket(url);
    };
  }
}());
