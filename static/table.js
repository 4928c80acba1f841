// So Clover! table: the little that HTMX cannot do on its own.
// - choosing a card, then a spot (and the keyboard equivalents);
// - keeping the chosen card and the focus across live updates;
// - the reconnecting banner, copy buttons, the screen wake lock.
// Every change to the room still goes through the server's one action path.
(function () {
  "use strict";

  var chosen = null; // {card: id, spot: number|null, rotation: number}

  function table() { return document.getElementById("table"); }
  function code() { var t = table(); return t ? t.dataset.code : null; }
  function flash(message) {
    var area = document.getElementById("flash");
    if (!area) return;
    area.textContent = "";
    var p = document.createElement("p");
    p.className = "flash";
    p.textContent = message;
    area.appendChild(p);
  }
  function clearFlash() { var a = document.getElementById("flash"); if (a) a.textContent = ""; }

  function act(values) {
    clearFlash();
    return htmx.ajax("POST", "/r/" + code() + "/act", {
      values: values, target: "#flash", swap: "innerHTML", source: table()
    });
  }

  // --- choosing and placing cards -----------------------------------------------------

  function markChosen() {
    var stage = document.getElementById("stage");
    if (!stage) return;
    stage.querySelectorAll(".card[data-card]").forEach(function (el) {
      var on = !!chosen && el.dataset.card === chosen.card;
      el.classList.toggle("chosen", on);
      if (el.classList.contains("pooled")) el.setAttribute("aria-pressed", on ? "true" : "false");
    });
    if (chosen) {
      var el = stage.querySelector('.card[data-card="' + chosen.card + '"]');
      if (!el || el.disabled) { chosen = null; }
      else if (el.classList.contains("placed")) {
        chosen.spot = Number(el.dataset.spot);
        chosen.rotation = Number(el.dataset.rotation);
      } else { chosen.spot = null; }
    }
    var onBoard = !!chosen && chosen.spot !== null;
    stage.querySelectorAll(".toolbar [data-do]").forEach(function (b) { b.disabled = !onBoard; });
  }

  function choose(el) {
    if (chosen && chosen.card === el.dataset.card) { chosen = null; }
    else {
      chosen = { card: el.dataset.card, spot: null, rotation: 0 };
    }
    markChosen();
  }

  function placeOn(spot) {
    if (!chosen) { flash("Tap a card first, then a spot."); return; }
    act({ type: "place", card: chosen.card, spot: spot, rotation: chosen.spot === null ? 0 : chosen.rotation });
  }

  function rotate(turns) {
    if (chosen && chosen.spot !== null) act({ type: "rotate", spot: chosen.spot, turns: turns });
  }

  function takeBack() {
    if (chosen && chosen.spot !== null) act({ type: "remove", spot: chosen.spot });
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest("button");
    if (!target || target.disabled || !target.closest("#stage")) return;
    if (target.matches(".card[data-card]")) { choose(target); return; }
    if (target.matches(".place[data-spot]")) { placeOn(Number(target.dataset.spot)); return; }
    if (target.dataset.do === "rotate") { rotate(Number(target.dataset.turns)); return; }
    if (target.dataset.do === "remove") { takeBack(); }
  });

  // Arrow keys walk the four spots as they lie; R turns, Delete takes back.
  var NEIGHBOURS = { // spot: [up, right, down, left]
    0: [0, 1, 3, 0], 1: [1, 1, 2, 0], 2: [1, 2, 2, 3], 3: [0, 2, 3, 3]
  };
  var ARROWS = { ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3 };

  document.addEventListener("keydown", function (event) {
    var stage = document.getElementById("stage");
    if (!stage || !stage.querySelector(".resolve") || event.altKey || event.ctrlKey || event.metaKey) return;
    var focused = document.activeElement;
    if (focused && (focused.tagName === "INPUT" || focused.tagName === "TEXTAREA" || focused.tagName === "SELECT")) return;
    var spotEl = focused && focused.closest ? focused.closest(".board .spot") : null;
    if (event.key in ARROWS && spotEl) {
      var from = Number(spotEl.className.match(/spot-(\d)/)[1]);
      var to = NEIGHBOURS[from][ARROWS[event.key]];
      var next = stage.querySelector(".board .spot-" + to + " button");
      if (next) { next.focus(); event.preventDefault(); }
    } else if (event.key === "r" || event.key === "R") {
      if (spotEl && focused.matches(".card.placed") && (!chosen || chosen.card !== focused.dataset.card)) choose(focused);
      rotate(event.shiftKey ? -1 : 1);
      event.preventDefault();
    } else if (event.key === "Delete" || event.key === "Backspace") {
      if (spotEl && focused.matches(".card.placed") && (!chosen || chosen.card !== focused.dataset.card)) choose(focused);
      takeBack();
      event.preventDefault();
    }
  });

  // --- live updates: keep the chosen card and the focus -------------------------------

  var focusKey = null;
  function describe(el) {
    if (!el || !el.closest || !el.closest("#stage")) return null;
    if (el.dataset.card) return '[data-card="' + el.dataset.card + '"]';
    if (el.dataset.spot) return '.place[data-spot="' + el.dataset.spot + '"], .card[data-spot="' + el.dataset.spot + '"]';
    if (el.dataset.do) return '[data-do="' + el.dataset.do + '"]' + (el.dataset.turns ? '[data-turns="' + el.dataset.turns + '"]' : "");
    if (el.id) return "#" + el.id;
    return null;
  }

  document.addEventListener("htmx:sseBeforeMessage", function () { focusKey = describe(document.activeElement); });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.elt;
    if (!target || target.id !== "stage") return;
    markChosen();
    if (focusKey && (!document.activeElement || document.activeElement === document.body)) {
      var el = target.querySelector(focusKey);
      if (el && !el.disabled) el.focus({ preventScroll: true });
    }
    focusKey = null;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt;
    if (event.detail.successful && event.detail.xhr && event.detail.xhr.status < 300) {
      clearFlash();
      if (elt && elt.matches && elt.matches("form.js-reset")) elt.reset();
    }
  });

  // Mirror a clue being typed onto its leaf.
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.id || input.id.indexOf("clue-") !== 0) return;
    var mirror = document.querySelector('[data-mirror="' + input.id + '"]');
    if (mirror) mirror.textContent = input.value.trim() || "…";
  });

  // --- connection banner -------------------------------------------------------------------

  function banner(show) {
    var el = document.getElementById("reconnecting");
    if (el) el.hidden = !show;
  }
  document.addEventListener("htmx:sseError", function () { banner(true); });
  document.addEventListener("htmx:sseOpen", function () { banner(false); });

  // A stream can outlive a dropped network without knowing it is dead (or, in
  // some browsers, go on as if nothing happened, the banner then staying up).
  // Offline: close it. Online again: open a fresh one through the extension's
  // own reconnect path (a closed source's error); a new stream is sent every
  // region, so the page catches up what it missed.
  var stream = null;
  if (window.htmx && htmx.createEventSource) {
    var openStream = htmx.createEventSource;
    htmx.createEventSource = function (url) { stream = openStream(url); return stream; };
  }
  window.addEventListener("offline", function () {
    banner(true);
    if (stream) stream.close();
  });
  window.addEventListener("online", function () {
    if (!stream) return;
    stream.close();
    stream.dispatchEvent(new Event("error"));
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted && table()) location.reload(); });

  // --- copy buttons ---------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.copy");
    if (!button) return;
    var source = document.getElementById(button.dataset.copy);
    if (!source) return;
    source.select();
    var done = function () { button.textContent = "Copied"; setTimeout(function () { button.textContent = "Copy"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(source.value).then(done, function () {});
    else { try { document.execCommand("copy"); done(); } catch (e) { /* the text stays selected */ } }
  });

  // --- addresses and the chat ------------------------------------------------------------

  // A live update is shared by every screen of a seat, so its invite link may come
  // without an address in front (/r/CODE): this page puts its own there.
  function completeLinks(root) {
    (root || document).querySelectorAll("input[data-path]").forEach(function (input) {
      if (input.value.charAt(0) === "/") input.value = location.origin + input.dataset.path;
    });
  }
  document.addEventListener("DOMContentLoaded", function () { completeLinks(); });
  document.addEventListener("htmx:load", function (event) { completeLinks(event.detail.elt); });

  // New chat lines are appended: keep the newest in sight and the list short.
  var CHAT_SHOWN = 100;
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || (elt.id !== "chat-lines" && elt.id !== "chat")) return;
    var lines = document.getElementById("chat-lines");
    if (!lines) return;
    while (lines.children.length > CHAT_SHOWN) lines.removeChild(lines.firstElementChild);
    var log = document.getElementById("chat");
    if (log) log.scrollTop = log.scrollHeight;
  });

  // "Play on another device": the seat's secret is in the address after "#", which
  // never reaches a server or its logs; it is posted from here, then wiped.
  document.addEventListener("DOMContentLoaded", function () {
    var token = document.getElementById("seat-token");
    if (!token) return;
    var secret = location.hash.slice(1);
    history.replaceState(null, "", location.pathname);
    if (!secret) {
      document.getElementById("seat-wait").textContent = "This seat link is incomplete: copy it again from your first device.";
      return;
    }
    token.value = secret;
    document.getElementById("seat-form").submit();
  });

  // --- keep the screen awake during a game ----------------------------------------------

  var lock = null;
  function wake() {
    if (!table() || !("wakeLock" in navigator) || document.visibilityState !== "visible" || lock) return;
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      l.addEventListener("release", function () { lock = null; });
    }).catch(function () { lock = null; });
  }
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("DOMContentLoaded", wake);
})();
