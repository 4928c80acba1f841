// So Clover! table: the little that HTMX cannot do on its own.
// - choosing a card, then a spot (and the keyboard equivalents);
// - keeping the chosen card and the focus across live updates, and a click whole
//   across one (its region redrawn after the release);
// - the reconnecting banner, copy buttons, the screen wake lock;
// - words fitted to their card or leaf, the chat sheet, the help sheet and its
//   settings, the moments nobody should miss (in view, and a sound if wanted).
// Every change to the room still goes through the server's one action path.
(function () {
  "use strict";

  var chosen = null; // {card: id, spot: number|null, rotation: number}

  // What this script says comes translated on the page's <body> (data-say-*), from the
  // templates; the English here is only for a page without it.
  function say(name, english) {
    var said = document.body && document.body.dataset["say" + name];
    return said || english;
  }
  // The page's interface language (<html lang>), for Intl: as this browser writes it if it
  // asks for the same language ("en-GB" for "en": its own clock), else as the page says.
  function pageLang() {
    var lang = document.documentElement.lang;
    if (!lang) return undefined;
    var primary = lang.split("-")[0].toLowerCase();
    var asked = navigator.languages || [navigator.language];
    for (var i = 0; i < asked.length; i++) {
      if (asked[i] && asked[i].split("-")[0].toLowerCase() === primary) return asked[i];
    }
    return lang;
  }

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
  // A refusal floats over the table until the next move goes through; a tap puts it away.
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#flash .flash")) clearFlash();
  });

  function act(values) {
    clearFlash();
    // A request that fails is said in #flash (below): nothing is left for the promise.
    return htmx.ajax("POST", "/r/" + code() + "/act", {
      values: values, target: "#flash", swap: "innerHTML", source: table()
    }).catch(function () {});
  }

  // A move made offline is not lost in silence: it is not sent, and the page says so (the
  // chosen card stays chosen, to be laid again once the connection is back). The same
  // when a request fails on its way. A clue's check as it is typed just waits for the next.
  // Once the phone is back online, the move held is sent again, once: the warning goes,
  // and the answer says what became of it (nothing when it went through, the reason
  // when the table refuses it, the board having moved on meanwhile). It carries the step
  // of the game it was tapped at (the stage's data-moment): the table refuses it if it
  // has gone on to another clover or try meanwhile, rather than play it there.
  var unsent = null; // {verb, path, values} of the last move not sent
  function offlineSaid() {
    if (unsent) flash(say("Held", "Not sent: you are offline. It goes by itself once you are back."));
    else flash(say("Offline", "Not sent: you are offline. Try again once you are back."));
    var shown = document.querySelector("#flash .flash");
    if (shown) shown.dataset.offline = "1";
  }
  function toTable(detail) {
    var target = detail && (detail.target || (detail.requestConfig && detail.requestConfig.target));
    return !!target && target.id === "flash";
  }
  function heldMove(detail) {
    var config = detail && detail.requestConfig;
    if (!config || !config.formData) return null;
    var values = {};
    config.formData.forEach(function (value, key) { if (typeof value === "string") values[key] = value; });
    // A move held again (lost on its way back) keeps the step it was first tapped at.
    var stage = document.getElementById("stage");
    if (!values.moment && stage && stage.dataset.moment) values.moment = stage.dataset.moment;
    return { verb: config.verb || "post", path: config.path, values: values };
  }
  // The table's answer to a held move speaks of the step the phone was away from: the
  // new step its stream brings as it comes back must not put it away unread (noteMoment).
  var heldSent = false;
  function sendHeld() {
    var move = unsent;
    unsent = null;
    var shown = document.querySelector("#flash .flash[data-offline]");
    if (shown) clearFlash();
    if (!move || !move.path || !table()) return;
    heldSent = true;
    htmx.ajax(move.verb, move.path, {
      values: move.values, target: "#flash", swap: "innerHTML", source: table()
    }).catch(function () {});
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    if (!heldSent || !toTable(event.detail)) return;
    heldSent = false;
    var answer = document.querySelector("#flash .flash");
    if (answer) answer.dataset.held = "1";
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine === false && toTable(event.detail)) {
      event.preventDefault();
      unsent = heldMove(event.detail);
      offlineSaid();
    }
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (!toTable(event.detail)) return;
    // Lost on its way while the phone still thinks it is online: no "online" will come
    // to send it again, so it is tried again by hand.
    unsent = navigator.onLine === false ? heldMove(event.detail) : null;
    offlineSaid();
  });
  window.addEventListener("online", sendHeld);

  // --- choosing and placing cards -----------------------------------------------------

  function markChosen() {
    var stage = document.getElementById("stage");
    if (!stage) return;
    if (chosen) {
      var el = stage.querySelector('.card[data-card="' + chosen.card + '"]');
      // Gone, locked, or sent back to the pool (by anyone): nothing is chosen any more.
      if (!el || el.disabled || (chosen.spot !== null && !el.classList.contains("placed"))) chosen = null;
      else if (el.classList.contains("placed")) {
        chosen.spot = Number(el.dataset.spot);
        chosen.rotation = Number(el.dataset.rotation);
      }
    }
    stage.querySelectorAll(".card[data-card]").forEach(function (card) {
      var on = !!chosen && card.dataset.card === chosen.card;
      card.classList.toggle("chosen", on);
      if (card.classList.contains("pooled")) card.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var onBoard = !!chosen && chosen.spot !== null;
    stage.querySelectorAll(".toolbar [data-do]").forEach(function (b) { b.disabled = !onBoard; });
    keepChosen();
  }

  // A card of the pool is picked, or put down again by a second tap. A card on the board
  // is picked by a tap, and stays picked however often it is tapped: it was just laid, or
  // the player means to move it, and the next tap on a spot moves it there.
  function choose(el) {
    if (chosen && chosen.card === el.dataset.card && !el.classList.contains("placed")) { chosen = null; }
    else {
      chosen = { card: el.dataset.card, spot: null, rotation: 0 };
    }
    markChosen();
    keepChosen();
  }

  // The chosen card outlives a reload of this page (this tab only): a card id says
  // nothing the page does not show already.
  function keepChosen() {
    if (!code()) return;
    try {
      var key = "soclover-chosen-" + code();
      if (chosen) sessionStorage.setItem(key, chosen.card); else sessionStorage.removeItem(key);
    } catch (e) { /* storage off: the choice lasts as long as the page */ }
  }
  document.addEventListener("DOMContentLoaded", function () {
    if (!code()) return;
    var kept = null;
    try { kept = sessionStorage.getItem("soclover-chosen-" + code()); } catch (e) { kept = null; }
    var stage = document.getElementById("stage");
    var el = kept && stage ? stage.querySelector('.card[data-card="' + kept + '"]') : null;
    if (el && !el.disabled) {
      chosen = { card: kept, spot: el.classList.contains("placed") ? Number(el.dataset.spot) : null, rotation: 0 };
      markChosen();
    }
  });

  function placeOn(spot) {
    if (!chosen) { flash(say("PickFirst", "Tap a card first, then a spot.")); return; }
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
    // A draft saved as it was typed says nothing: what Save or Done was told stays up.
    if (elt && elt.id === "clue-draft") return;
    if (event.detail.successful && event.detail.xhr && event.detail.xhr.status < 300) {
      // An action that went through takes the last refusal away; a clue checked as it
      // is typed answers in its own place and leaves the message alone.
      var target = event.detail.target;
      if (target && target.id === "flash") clearFlash();
      if (elt && elt.matches && elt.matches("form.js-reset")) elt.reset();
    }
  });

  // A clue's verdict as it is typed answers the text that was sent: an answer to an older
  // text (a slow server, the field typed in since) is dropped, and the verdict shown is
  // put away while the field says something else than what it judged.
  var judged = new WeakMap(); // field -> the text its verdict on the page answers
  var putAway = new WeakMap(); // field -> its verdict, while the field says another text
  function checkOf(field) { return document.getElementById("check-" + field.id.slice("clue-".length)); }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var config = event.detail.requestConfig;
    if (!target || !config || target.id.indexOf("check-") !== 0 || !config.elt) return;
    var field = config.elt;
    var sent = config.formData && config.formData.get(field.name);
    if (sent !== field.value) { event.detail.shouldSwap = false; return; }
    judged.set(field, sent);
    putAway.delete(field);
  });
  document.addEventListener("input", function (event) {
    var field = event.target;
    if (!field.id || field.id.indexOf("clue-") !== 0 || !field.closest("#clue-form")) return;
    var check = checkOf(field);
    if (!check) return;
    var text = judged.has(field) ? judged.get(field) : field.defaultValue;
    var away = putAway.get(field);
    if (field.value !== text && !away) {
      putAway.set(field, { html: check.innerHTML, className: check.className });
      check.textContent = "";
      check.className = "check";
    } else if (field.value === text && away) {
      check.innerHTML = away.html;
      check.className = away.className;
      putAway.delete(field);
    }
  });

  // A folded box of the stage (the lobby's settings) that its reader opened stays open when
  // the stage is drawn again, as it is on every change: a setting changed redraws it.
  // A tap on its summary is remembered at once: the box's own toggle event comes a moment
  // later, and a stage drawn again meanwhile takes that box out of the page, where its
  // event reaches nobody.
  var opened = {};
  document.addEventListener("toggle", function (event) {
    var box = event.target;
    if (box.tagName === "DETAILS" && box.id && box.closest("#stage")) opened[box.id] = box.open;
  }, true);
  document.addEventListener("click", function (event) {
    var summary = event.target.closest("#stage details[id] > summary");
    if (summary) opened[summary.parentElement.id] = !summary.parentElement.open;
  }, true);
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || elt.id !== "stage") return;
    Object.keys(opened).forEach(function (id) {
      var box = document.getElementById(id);
      if (box && opened[id] && !box.open) box.open = true;
    });
  });

  // A clue cut into script runs as the server cuts it (app/web/vertical.py, which says
  // why): on a Chinese room's side leaves a Latin word lies sideways, Chinese stands.
  var UPRIGHT = "\u1100-\u11ff\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3100-\u31ff" +
    "\u3200-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff" +
    "\ufe10-\ufe1f\ufe30-\ufe4f\uff00-\uffef\u{20000}-\u{3ffff}";
  var SPLIT = new RegExp("([" + UPRIGHT + "]+)", "u");
  var WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
  var COMBINED = /^[A-Za-z0-9]{1,2}$/;
  function runsOf(text) {
    var runs = [];
    var add = function (kind, part) {
      if (!part) return;
      var last = runs[runs.length - 1];
      if (kind === "upright" && last && last[0] === "upright") last[1] += part;
      else runs.push([kind, part]);
    };
    text.split(SPLIT).forEach(function (part, i) {
      if (i % 2 === 1) { add("upright", part); return; }
      var chars = Array.from(part);
      var first = -1, last = -1;
      chars.forEach(function (ch, k) { if (WORD_CHAR.test(ch)) { if (first < 0) first = k; last = k + 1; } });
      if (first < 0) { add("upright", part); return; }
      var core = chars.slice(first, last).join("");
      add("upright", chars.slice(0, first).join(""));
      add(COMBINED.test(core) ? "combined" : "sideways", core);
      add("upright", chars.slice(last).join(""));
    });
    return runs;
  }
  function showRuns(el, text) {
    el.textContent = "";
    runsOf(text).forEach(function (run) {
      if (run[0] === "upright") { el.appendChild(document.createTextNode(run[1])); return; }
      var span = document.createElement("span");
      span.className = "run " + run[0];
      span.textContent = run[1];
      el.appendChild(span);
    });
  }

  // Mirror a clue being typed onto its leaf.
  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.id || input.id.indexOf("clue-") !== 0) return;
    var mirror = document.querySelector('[data-mirror="' + input.id + '"]');
    if (mirror) showRuns(mirror, input.value.trim() || "…");
  });

  // --- clues saved as they are typed ---------------------------------------------------

  // The clue form outlives the stage's redraws (hx-preserve), so what is typed here is
  // never replaced. Two things are left to do by hand: the leaves of the clover are
  // drawn again from what was saved, so they mirror the fields once more; and a leaf
  // that another screen of this seat saved anew is taken into its field, unless this
  // screen is editing that field (focused, or typed in since its text last went out).
  // What this screen sent itself is never taken back: a redraw from an older draft
  // can come after a newer one went out, and a refused clue leaves an older one saved.
  var seenSaved = new WeakMap(); // field -> the saved clue this page last saw for it
  var sentHere = new WeakMap(); // field -> the texts this page sent for it, latest last
  var unsent = new WeakSet(); // fields typed in since their text last went out
  var SENT_KEPT = 50;
  function clueFields() { return document.querySelectorAll("#clue-form input[name^='clue']"); }
  function asSaved(text) { return text.normalize("NFC").trim(); } // as the server keeps it
  document.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest("#clue-form")) unsent.add(event.target);
  });
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (!elt || (elt.id !== "clue-draft" && elt.id !== "clue-form")) return;
    clueFields().forEach(function (field) {
      unsent.delete(field);
      var sent = sentHere.get(field) || [];
      sent.push(asSaved(field.value));
      if (sent.length > SENT_KEPT) sent.shift();
      sentHere.set(field, sent);
    });
    // Save or Done waits behind a draft still on its way: the button pressed goes
    // with it even if the focus has moved on since.
    var submitted = event.detail.triggeringEvent;
    var button = submitted && submitted.submitter;
    if (elt.id === "clue-form" && button && button.name) event.detail.parameters[button.name] = button.value;
  });
  function takeSaved() {
    clueFields().forEach(function (field) {
      var leaf = document.querySelector('label.leaf[for="' + field.id + '"]');
      if (!leaf) return;
      var saved = leaf.dataset.saved || "";
      var before = seenSaved.get(field);
      seenSaved.set(field, saved);
      var mine = (sentHere.get(field) || []).indexOf(saved) >= 0;
      if (before !== undefined && saved !== before && !mine && field !== document.activeElement && !unsent.has(field)) {
        field.value = saved;
        htmx.trigger(field, "recheck");
      }
      var mirror = leaf.querySelector('[data-mirror="' + field.id + '"]');
      if (mirror) showRuns(mirror, field.value.trim() || "…");
    });
  }
  document.addEventListener("DOMContentLoaded", takeSaved);
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "stage") takeSaved();
  });

  // This seat moved to another device: the page reloads, and the room says so.
  document.addEventListener("htmx:sseMessage", function (event) {
    if (!event.detail || event.detail.type !== "moved") return;
    if (stream) stream.close(); // the server ends it: no reconnecting, no error
    location.reload();
  });

  // --- the table's clock ---------------------------------------------------------------------

  // Every screen counts down to the server's deadline. This device's own clock may be
  // off by minutes, so the page learns the server's time (the page says it) and counts
  // by that: two phones show the same second. The server wrote that time just before the
  // page's first byte left, so it is matched with the moment that byte arrived, not with
  // the end of loading: a busy phone may take seconds over the styles and scripts, and
  // those seconds would otherwise be added to every clock the page shows.
  var skew = 0;
  function arrival() {
    var perf = window.performance;
    var nav = perf && perf.getEntriesByType ? perf.getEntriesByType("navigation")[0] : null;
    if (nav && nav.responseStart > 0 && perf.timeOrigin > 0) return perf.timeOrigin + nav.responseStart;
    return Date.now();
  }
  function learnTime(serverMs) {
    var n = Number(serverMs);
    if (n > 0) skew = n - arrival();
  }
  function clockText(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(s / 60);
    s = s % 60;
    return m + ":" + (s < 10 ? "0" : "") + s;
  }
  function tickClocks() {
    document.querySelectorAll(".clock[data-length]").forEach(function (clock) {
      var running = clock.dataset.ends !== "";
      var ms = running ? Number(clock.dataset.ends) - (Date.now() + skew) : Number(clock.dataset.left);
      if (running) ms = Math.min(ms, Number(clock.dataset.length)); // never more than it was set to
      var time = clock.querySelector(".clock-time");
      var text = clockText(ms);
      if (time && time.textContent !== text) time.textContent = text;
      clock.classList.toggle("low", running && ms > 0 && ms <= 30000);
      var over = running && ms <= 0;
      if (over && !clock.classList.contains("over") && clock.dataset.rang !== clock.dataset.ends) {
        clock.dataset.rang = clock.dataset.ends; // a gentle signal, once per deadline
        cue("time");
      }
      clock.classList.toggle("over", over);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var t = table();
    if (t) learnTime(t.dataset.now);
    tickClocks();
  });
  document.addEventListener("htmx:afterSettle", tickClocks);
  setInterval(tickClocks, 250);

  // --- connection banner -------------------------------------------------------------------

  function banner(show) {
    var el = document.getElementById("reconnecting");
    if (el) el.hidden = !show;
  }
  document.addEventListener("htmx:sseError", function () { banner(true); });
  document.addEventListener("htmx:sseOpen", function () { banner(false); });

  // The page says when its stream has caught up: <html data-live>, put on as a stream's
  // first update is drawn (a new stream is sent every region, those the page came with
  // included: they are drawn again) and taken away when the stream drops. Like
  // data-fitted, it is for whoever waits on the page, so that nothing read there is
  // redrawn under them. (Before the message: the event after it goes to the element
  // swapped, which an outerHTML swap has taken out of the page.)
  document.addEventListener("htmx:sseBeforeMessage", function () {
    document.documentElement.dataset.live = "";
  });
  document.addEventListener("htmx:sseError", function () {
    delete document.documentElement.dataset.live;
  });

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

  // A click is a press and a release on the same button. A live update that redraws the
  // button's region between the two takes the pressed button out of the page, and the
  // browser then drops the click: another guesser's Agree, landing while this one pressed
  // Agree, lost this one's. So the updates of the region holding a pressed button wait for
  // the release, and are drawn just after it and its click (a press held longer than any
  // click lets them through). A phone's tap finds its button on release and never was lost.
  // The action still carries the moment it was pressed at (the stage's data-moment), and
  // the table refuses it if the game has moved on meanwhile.
  var press = null; // {pointer: id, control: the button pressed, timer: a press held too long}
  var held = []; // the newest update of each region that came during the press, in order
  function letGo() {
    if (press) clearTimeout(press.timer);
    press = null;
    var updates = stream ? held : [];
    held = [];
    // through the extension's own listeners again, as if they came now
    updates.forEach(function (u) {
      stream.dispatchEvent(new MessageEvent(u.type, { data: u.data, lastEventId: u.lastEventId }));
    });
  }
  document.addEventListener("pointerdown", function (event) {
    var control = event.isPrimary && event.target.closest ? event.target.closest("button, a, summary") : null;
    if (!control || !control.closest("[sse-swap]")) return;
    if (press) clearTimeout(press.timer);
    press = { pointer: event.pointerId, control: control, timer: setTimeout(letGo, 1500) };
  }, true);
  ["pointerup", "pointercancel"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      // the click comes in the same task as the release: the updates are drawn after it
      if (press && event.pointerId === press.pointer) setTimeout(letGo, 0);
    }, true);
  });
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var update = event.detail;
    if (!press || !update || !event.target.contains(press.control)) return;
    held = held.filter(function (u) { return u.type !== update.type; });
    held.push(update);
    event.preventDefault(); // not swapped now...
    event.stopImmediatePropagation(); // ...so nothing readies the page for it
  }, true);

  // --- copy buttons ---------------------------------------------------------------------------

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.copy");
    if (!button) return;
    var source = document.getElementById(button.dataset.copy);
    if (!source) return;
    source.select();
    // The button's own words come back after a moment ("Copy", "Copy link").
    if (!button.dataset.label) button.dataset.label = button.textContent;
    var label = button.dataset.label || say("Copy", "Copy");
    var done = function () {
      button.textContent = say("Copied", "Copied");
      setTimeout(function () { button.textContent = label; }, 1500);
    };
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

  // --- the chat: a sheet on phones, the newest line in sight, an unread count -------

  var unread = 0;
  var atBottom = true;
  function chatBox() { return document.getElementById("chat-box"); }
  function chatLog() { return document.getElementById("chat"); }
  // The sheet exists only where the open button shows (phones); elsewhere the chat is always in view.
  function chatHidden() {
    var opener = document.getElementById("chat-open");
    var box = chatBox();
    return !!opener && opener.offsetParent !== null && !!box && !box.classList.contains("open");
  }
  function toBottom() { var log = chatLog(); if (log) log.scrollTop = log.scrollHeight; }
  // "Chat, 3 unread": the one form or the other, as the page's language counts.
  var plural = null;
  try { plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(pageLang()) : null; } catch (e) { plural = null; }
  function unreadLabel(n) {
    var one = plural ? plural.select(n) === "one" : n === 1;
    var text = one ? say("UnreadOne", "Chat, {n} unread") : say("Unread", "Chat, {n} unread");
    return text.replace("{n}", String(n));
  }
  function showUnread() {
    var badge = document.getElementById("unread");
    if (!badge) return;
    badge.hidden = unread === 0;
    badge.textContent = unread > 99 ? "99+" : String(unread);
    var opener = document.getElementById("chat-open");
    if (opener) opener.setAttribute("aria-label", unread ? unreadLabel(unread) : say("Chat", "Chat"));
  }
  function openChat(open) {
    var box = chatBox();
    var opener = document.getElementById("chat-open");
    if (!box || !opener) return;
    box.classList.toggle("open", open);
    opener.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      unread = 0;
      showUnread();
      toBottom();
      atBottom = true;
      var input = box.querySelector("input[name=text]");
      if (input && !matchMedia("(pointer: coarse)").matches) input.focus({ preventScroll: true });
    } else {
      opener.focus({ preventScroll: true });
    }
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest("#chat-open")) openChat(!chatBox().classList.contains("open"));
    else if (event.target.closest("#chat-close")) openChat(false);
  });
  document.addEventListener("keydown", function (event) {
    var box = chatBox();
    if (event.key === "Escape" && box && box.classList.contains("open")) openChat(false);
  });
  // Whether the reader is at the newest line, noted before each event changes the log.
  document.addEventListener("scroll", function (event) {
    var log = event.target;
    if (log && log.id === "chat") atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  }, true);

  // Times are sent in UTC; each reader sees their own clock, written as the page's language writes it.
  var clock = null;
  try {
    clock = window.Intl ? new Intl.DateTimeFormat(pageLang(), { hour: "2-digit", minute: "2-digit" }) : null;
  } catch (e) {
    clock = window.Intl ? new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" }) : null;
  }
  function localTimes(root) {
    if (!clock || !root || !root.querySelectorAll) return;
    root.querySelectorAll("time[datetime].local").forEach(function (t) {
      var at = new Date(t.getAttribute("datetime"));
      if (!isNaN(at)) t.textContent = clock.format(at);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { localTimes(document); toBottom(); });

  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || (elt.id !== "chat-lines" && elt.id !== "chat")) return;
    var lines = document.getElementById("chat-lines");
    if (!lines) return;
    // as many lines as the server draws (render.CHAT_SHOWN), said on the list itself
    var shown = parseInt(lines.dataset.shown, 10);
    while (shown > 0 && lines.children.length > shown) lines.removeChild(lines.firstElementChild);
    localTimes(lines);
    if (elt.id === "chat") { countMissedLines(); toBottom(); return; }
  });
  // One new line: counted if unseen, followed if the reader was at the newest.
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    if (!event.detail || event.detail.type !== "chat-line") return;
    var log = chatLog();
    if (log) atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  });
  // Lines of others the reader has not seen: counted on the Chat button, with a cue.
  function heardFromOthers(others) {
    if (chatHidden() && others) { unread += others; showUnread(); cue("chat"); }
  }
  function myId() { return table() ? table().dataset.me : null; }
  document.addEventListener("htmx:sseMessage", function (event) {
    if (!event.detail || event.detail.type !== "chat-line") return;
    var me = myId();
    var fresh = document.createElement("div");
    fresh.innerHTML = event.detail.data;
    var others = 0, mine = false;
    fresh.querySelectorAll("li[data-author]").forEach(function (li) {
      if (li.dataset.author === me) mine = true; else others += 1;
    });
    localTimes(document.getElementById("chat-lines"));
    if (mine || atBottom) toBottom();
    heardFromOthers(others);
  });
  // The whole chat again (a new stream: the page's first, or one after a dropped network):
  // the lines of others it holds past the newest the page showed are unread as well.
  var newestShown = null;
  function numberedLines() {
    return Array.prototype.map.call(document.querySelectorAll("#chat-lines li[data-line]"), function (li) {
      return { line: parseInt(li.dataset.line, 10) || 0, author: li.dataset.author };
    });
  }
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    if (!event.detail || event.detail.type !== "chat") return;
    newestShown = numberedLines().reduce(function (newest, l) { return Math.max(newest, l.line); }, 0);
  });
  // (Counted once the new chat is settled: the event of its swap goes to the old one.)
  function countMissedLines() {
    if (newestShown === null) return;
    var me = myId(), since = newestShown;
    newestShown = null;
    heardFromOthers(numberedLines().filter(function (l) { return l.line > since && l.author !== me; }).length);
  }

  // "Play on another device": the seat's secret is in the address after "#", which
  // never reaches a server or its logs; it is posted from here, then wiped. The answer
  // says whose seat it opens and offers a button: posting it sets nothing.
  document.addEventListener("DOMContentLoaded", function () {
    var token = document.getElementById("seat-token");
    if (!token) return;
    var secret = location.hash.slice(1);
    history.replaceState(null, "", location.pathname);
    if (!secret) {
      document.getElementById("seat-wait").textContent =
        say("SeatIncomplete", "This seat link is incomplete: copy it again from your first device.");
      return;
    }
    token.value = secret;
    document.getElementById("seat-form").submit();
  });

  // --- words fitted to their place ------------------------------------------------------

  // A keyword or a clue is one word: rather than break it, its font shrinks until it
  // fits its card or leaf (a box whose size never depends on the words). The cards and
  // leaves are sized so that every keyword of the decks, and a clue of up to some 28
  // letters, fit at 12px: nothing is read smaller. Only a clue longer than its leaf
  // holds at 12px (the rules allow 32 letters) goes smaller still, rather than be cut.
  var SMALLEST = 12; // px
  var SMALLEST_CLUE = 8; // px
  function fitOne(el) {
    el.style.fontSize = "";
    var vertical = getComputedStyle(el).writingMode.indexOf("vertical") === 0;
    var size = parseFloat(getComputedStyle(el).fontSize);
    var least = el.classList.contains("clue") ? SMALLEST_CLUE : SMALLEST;
    var over = function () {
      return vertical ? el.scrollHeight > el.clientHeight + 0.5 : el.scrollWidth > el.clientWidth + 0.5;
    };
    var guard = 0;
    while (over() && size > least && guard++ < 40) {
      size = Math.max(size > SMALLEST ? SMALLEST : least, size - 0.5);
      el.style.fontSize = size + "px";
    }
  }
  function fit(root) {
    if (!root || !root.querySelectorAll) return;
    root.querySelectorAll(".w, .leaf .clue, .leaf .pair").forEach(fitOne);
  }
  function fitPage() { fit(document.getElementById("stage") || document.querySelector("main")); }

  // The page says when its words are fitted: <html data-fitted>, taken away as soon as a
  // fit is on its way (a resize, a live update), put back once the fit has run and the
  // page has been drawn after it. Nothing of the page reads it: it is for whoever waits
  // on the page (the browser tests), rather than wait a guessed while.
  var resized = null; // a fit after a resize, on its way
  var fonts = document.fonts && document.fonts.status === "loading"; // a fit once they are in
  function unfitted() { delete document.documentElement.dataset.fitted; }
  function fitted() {
    var mark = function () { if (resized === null && !fonts) document.documentElement.dataset.fitted = ""; };
    if (document.hidden) mark(); else requestAnimationFrame(mark);
  }
  document.addEventListener("DOMContentLoaded", function () {
    fitPage();
    fitted();
    // Words measured in a font still loading are measured again in it once it is in.
    if (fonts) document.fonts.ready.then(function () { fonts = false; fitPage(); fitted(); });
  });
  ["htmx:load", "htmx:afterSettle"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      var elt = event.detail && event.detail.elt;
      if (elt && elt.id === "stage") fit(document.getElementById("stage"));
    });
  });
  // A live update is swapped in and settled, and the stage fitted, in the moment it comes
  // (no settle delay): by the next frame it is fitted and drawn.
  document.addEventListener("htmx:sseBeforeMessage", function () { unfitted(); fitted(); });
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    unfitted();
    resized = setTimeout(function () { resized = null; fitPage(); fitted(); }, 150);
  });
  document.addEventListener("input", function (event) {
    if (event.target.id && event.target.id.indexOf("clue-") === 0) {
      var mirror = document.querySelector('[data-mirror="' + event.target.id + '"]');
      if (mirror) fitOne(mirror);
    }
  });

  // --- moments nobody should miss --------------------------------------------------------

  // A new clover, a check, the reveal: the stage comes into view on every screen.
  var moment = null;
  var quiet = matchMedia("(prefers-reduced-motion: reduce)");
  // Back in the lobby, the page opens at its top: who is at the table, then Start (on a
  // phone the lobby's stage comes after the players' list). Once this seat's clues are
  // in, what it does next (wait, or edit again) is brought into view, not the page's foot.
  var cluesIn = false;
  function noteMoment(stage, scroll) {
    var now = stage.dataset.moment;
    var box = chatBox();
    var sheet = box && box.classList.contains("open");
    var how = { block: "start", behavior: quiet.matches ? "auto" : "smooth" };
    if (scroll && moment !== null && now !== moment) {
      // A refusal answered the moment before: left up, it hides the new one. The answer
      // to a move held offline is about this very change, and stays to be read.
      if (!document.querySelector("#flash .flash[data-held]")) clearFlash();
      if (!sheet) {
        if (now === "lobby") window.scrollTo({ top: 0, behavior: how.behavior });
        else stage.scrollIntoView(how);
      }
    }
    var done = stage.querySelector("#clues-in");
    if (scroll && done && !cluesIn && now === moment && !sheet) done.scrollIntoView(how);
    cluesIn = !!done;
    moment = now;
  }
  document.addEventListener("DOMContentLoaded", function () {
    var stage = document.getElementById("stage");
    if (stage) noteMoment(stage, false);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.id === "stage") noteMoment(elt, true);
    if (elt && elt.id === "announce") {
      var marked = elt.querySelector("[data-cue]");
      if (marked && marked.dataset.cue) cue(marked.dataset.cue);
    }
  });

  // Sound and vibration, off unless this person turns them on (kept on this device).
  var CUES = { // frequencies (Hz) of a short tune, and a vibration pattern (ms)
    rebuilt: [[523, 659, 784], [80, 60, 80]],
    checked: [[659, 880], [120]],
    cleared: [[440, 349], [60, 40, 60]],
    "all-done": [[587, 784], [100]],
    time: [[392, 330], [60]],
    chat: [[880], []]
  };
  var audio = null;
  function cuesOn() { try { return localStorage.getItem("soclover-cues") === "on"; } catch (e) { return false; } }
  function cue(name) {
    if (!cuesOn() || !CUES[name] || document.visibilityState === "hidden" && name === "chat") return;
    var tune = CUES[name][0], buzz = CUES[name][1];
    if (buzz.length && navigator.vibrate) navigator.vibrate(buzz);
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      audio = audio || new Context();
      var t = audio.currentTime;
      tune.forEach(function (hz, i) {
        var osc = audio.createOscillator(), gain = audio.createGain();
        osc.frequency.value = hz;
        gain.gain.setValueAtTime(0.0001, t + i * 0.12);
        gain.gain.exponentialRampToValueAtTime(0.15, t + i * 0.12 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.12 + 0.18);
        osc.connect(gain).connect(audio.destination);
        osc.start(t + i * 0.12);
        osc.stop(t + i * 0.12 + 0.2);
      });
    } catch (e) { /* no sound here: the words on screen say it all */ }
  }

  // --- the help sheet: how to play, colours, sound ---------------------------------------

  function setTheme(value) {
    var root = document.documentElement;
    if (value === "light" || value === "dark") root.dataset.theme = value; else delete root.dataset.theme;
    try {
      if (value === "light" || value === "dark") localStorage.setItem("soclover-theme", value);
      else localStorage.removeItem("soclover-theme");
    } catch (e) { /* not kept: this page only */ }
  }
  document.addEventListener("click", function (event) {
    if (!event.target.closest("#help-open")) return;
    var help = document.getElementById("help");
    if (!help || !help.showModal) return;
    var theme = document.documentElement.dataset.theme || "system";
    help.querySelectorAll("input[name=theme]").forEach(function (r) { r.checked = r.value === theme; });
    var toggle = document.getElementById("cues");
    if (toggle) toggle.checked = cuesOn();
    help.showModal();
  });
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.name === "theme" && input.closest("#help")) setTheme(input.value);
    if (input.id === "cues") {
      try { localStorage.setItem("soclover-cues", input.checked ? "on" : "off"); } catch (e) { /* page only */ }
      if (input.checked) cue("checked"); // a sample, and a tap that lets the page play sound
    }
  });

  // --- a practice table's lesson ----------------------------------------------------------
  // The server says every step that applies now (#lesson); this device shows the first one
  // it has not skipped. Skipped steps are this device's own choice, kept per room.

  function lessonKey() { return "soclover-lesson-" + code(); }
  function skippedSteps() {
    try { return JSON.parse(localStorage.getItem(lessonKey()) || "[]"); } catch (e) { return []; }
  }
  function showLesson() {
    var band = document.getElementById("lesson");
    if (!band || !band.dataset.steps) return;
    var skipped = skippedSteps(), shown = null;
    band.querySelectorAll(".step").forEach(function (step) {
      var show = !shown && skipped.indexOf(step.dataset.step) < 0;
      step.hidden = !show;
      if (show) shown = step;
    });
    band.hidden = !shown;
  }
  document.addEventListener("DOMContentLoaded", showLesson);
  document.addEventListener("htmx:afterSwap", showLesson);
  document.addEventListener("click", function (event) {
    var skip = event.target.closest && event.target.closest("[data-lesson-skip]");
    if (!skip) return;
    var step = document.querySelector("#lesson .step:not([hidden])");
    if (!step) return;
    var skipped = skippedSteps();
    skipped.push(step.dataset.step);
    try { localStorage.setItem(lessonKey(), JSON.stringify(skipped)); } catch (e) { /* this page only */ }
    showLesson();
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
