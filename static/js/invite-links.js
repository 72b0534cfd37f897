// The invites page's "Copy link" and "Share…" buttons. Without JavaScript they stay
// hidden and the whole link is shown as selectable text (templates/leagues/invites.html).
// An external file: the CSP allows no inline script.
"use strict";
(function () {
  // The page's live region says it; the button that was tapped shows it for a moment
  // too, since the region may be scrolled out of sight.
  function say(key, button) {
    var status = document.getElementById("invite-copy-status");
    if (!status) { return; }
    var text = status.getAttribute(key) || "";
    // Emptied first so that a second "copied" in a row is announced again.
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
    if (button && key === "data-copied") {
      if (!button.getAttribute("data-label")) {
        button.setAttribute("data-label", button.textContent);
      }
      button.textContent = text;
      window.clearTimeout(button.copiedTimer);
      button.copiedTimer = window.setTimeout(function () {
        button.textContent = button.getAttribute("data-label");
      }, 2500);
    }
  }

  function selectText(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  // Plain http (no secure context) has no navigator.clipboard: the old way still copies
  // a selection in most browsers.
  function copyBySelection(el, button) {
    selectText(el);
    var done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    // Failed: the link stays selected, ready for the phone's own "Copy".
    say(done ? "data-copied" : "data-failed", button);
  }

  function copy(el, button) {
    var text = el.textContent.trim();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(
        function () { say("data-copied", button); },
        function () { copyBySelection(el, button); }
      );
    } else {
      copyBySelection(el, button);
    }
  }

  function setUp(box) {
    var link = document.getElementById(box.getAttribute("data-invite-link"));
    if (!link) { return; }
    box.hidden = false;
    var copyButton = box.querySelector("[data-copy]");
    if (copyButton) {
      copyButton.addEventListener("click", function () { copy(link, copyButton); });
    }
    var shareButton = box.querySelector("[data-share]");
    if (shareButton && typeof navigator.share === "function") {
      shareButton.hidden = false;
      shareButton.addEventListener("click", function () {
        // A cancelled share sheet rejects: nothing to say then.
        navigator.share({
          title: box.getAttribute("data-share-title") || document.title,
          url: link.textContent.trim()
        }).catch(function () {});
      });
    }
  }

  function init() {
    var boxes = document.querySelectorAll("[data-invite-link]");
    for (var i = 0; i < boxes.length; i += 1) { setUp(boxes[i]); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
}());
