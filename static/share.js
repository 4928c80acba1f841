// So Clover! table: Share, at the end of a game. The game as a picture, drawn on this
// device from what the end screen holds (data-share on the button: the seat's view of the
// finished game, its words already in the page's language, never the room's code), then
// given to the phone's share sheet, or downloaded where there is none.
(function () {
  "use strict";

  var WIDTH = 1080;
  var PAD = 60;
  var INNER = WIDTH - 2 * PAD;
  var CLOVER_H = 520; // a clover's four clues around its drawing, keywords included
  // The page's light colours (static/table.css): a picture is shared out of the page's theme.
  var INK = "#1d2a22", MUTED = "#5b6b60", LINE = "#d8d3c2", GREEN = "#267445";
  var BG = "#f6f4ec", PANEL = "#fffdf7", LEAF = "#dff1e3", LEAF_LINE = "#9ccfaa";
  // The Chinese fonts the page uses (static/table.css, :lang(zh)), for a Chinese room's words
  // on a page in another language: the page's own stack comes first in a Chinese page.
  var CJK = '"PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Source Han Sans SC", ' +
    '"Microsoft YaHei", "WenQuanYi Micro Hei"';

  function fontStack(language) {
    var stack = (document.body && getComputedStyle(document.body).fontFamily) || "sans-serif";
    return language === "zh" && stack.indexOf("WenQuanYi") < 0 ? CJK + ", " + stack : stack;
  }

  function pageLang() { return document.documentElement.lang || undefined; }
  function today() {
    try {
      return new Date().toLocaleDateString(pageLang(), { year: "numeric", month: "long", day: "numeric" });
    } catch (e) {
      return new Date().toISOString().slice(0, 10);
    }
  }

  // Lines of ``text`` no wider than ``width``: broken at spaces, or between characters
  // where a word (Chinese has no spaces) is wider than the line.
  function wrap(ctx, text, width) {
    var lines = [], line = "";
    text.split(" ").forEach(function (word) {
      var tried = line ? line + " " + word : word;
      if (ctx.measureText(tried).width <= width) { line = tried; return; }
      if (line) lines.push(line);
      line = "";
      Array.from(word).forEach(function (ch) {
        if (ctx.measureText(line + ch).width > width && line) { lines.push(line); line = ""; }
        line += ch;
      });
    });
    if (line) lines.push(line);
    return lines.length ? lines : [""];
  }

  // The font of ``size`` px or smaller, down to ``least``, that fits ``text`` in ``width``.
  function fitted(ctx, text, weight, size, least, family, width) {
    for (; size > least; size -= 2) {
      ctx.font = weight + " " + size + "px " + family;
      if (ctx.measureText(text).width <= width) return size;
    }
    ctx.font = weight + " " + least + "px " + family;
    return least;
  }

  function rounded(ctx, x, y, w, h, r) {
    ctx.beginPath();
    ctx.moveTo(x + r, y);
    ctx.arcTo(x + w, y, x + w, y + h, r);
    ctx.arcTo(x + w, y + h, x, y + h, r);
    ctx.arcTo(x, y + h, x, y, r);
    ctx.arcTo(x, y, x + w, y, r);
    ctx.closePath();
  }

  // A simple clover: four round leaves, a stem, a heart. It keeps within 130 px of its centre.
  function cloverAt(ctx, cx, cy) {
    ctx.strokeStyle = GREEN;
    ctx.lineWidth = 10;
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.quadraticCurveTo(cx + 40, cy + 80, cx + 90, cy + 120);
    ctx.stroke();
    [[0, -1], [1, 0], [0, 1], [-1, 0]].forEach(function (d) {
      ctx.beginPath();
      ctx.arc(cx + d[0] * 62, cy + d[1] * 62, 62, 0, 2 * Math.PI);
      ctx.fillStyle = LEAF;
      ctx.fill();
      ctx.lineWidth = 4;
      ctx.strokeStyle = LEAF_LINE;
      ctx.stroke();
    });
    ctx.beginPath();
    ctx.arc(cx, cy, 16, 0, 2 * Math.PI);
    ctx.fillStyle = GREEN;
    ctx.fill();
  }

  // Where a clover's leaf has its clue (the box the clue is written in, centred) and, under
  // it, the line of its two true keywords; ``top`` is the top of the clover's drawing area.
  function leafBoxes(top) {
    var cx = WIDTH / 2, cy = top + 250, side = (INNER - 300) / 2;
    return [
      { x: PAD + 20, y: top, w: INNER - 40, h: 60 },
      { x: cx + 150, y: cy - 50, w: side - 10, h: 60 },
      { x: PAD + 20, y: cy + 150, w: INNER - 40, h: 60 },
      { x: PAD + 10, y: cy - 50, w: side - 10, h: 60 }
    ];
  }

  // The picture of ``data`` (a button's data-share) on a new canvas; ``boxes``: where each
  // clue was given room, by clover and leaf, nothing else being drawn there.
  function draw(data) {
    var family = fontStack(data.language);
    var canvas = document.createElement("canvas");
    var ctx = canvas.getContext("2d");
    ctx.font = "400 36px " + family;
    var players = wrap(ctx, data.players, INNER);
    var clovers = data.clovers || [];
    var head = PAD + 90 + 50 + players.length * 48 + 80;
    var heights = clovers.map(function (c) { return 40 + 60 + CLOVER_H + c.tries.length * 46 + 30; });
    canvas.width = WIDTH;
    canvas.height = head + heights.reduce(function (a, b) { return a + b + 30; }, 0) + PAD;
    ctx = canvas.getContext("2d");
    ctx.textAlign = "left";
    ctx.textBaseline = "alphabetic";

    ctx.fillStyle = BG;
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    var y = PAD + 70;
    ctx.fillStyle = GREEN;
    ctx.font = "700 76px " + family;
    ctx.fillText("So Clover!", PAD, y);
    ctx.fillStyle = MUTED;
    ctx.font = "400 34px " + family;
    y += 50;
    ctx.fillText(today(), PAD, y);
    ctx.fillStyle = INK;
    ctx.font = "400 36px " + family;
    players.forEach(function (line) { y += 48; ctx.fillText(line, PAD, y); });
    y += 66;
    fitted(ctx, data.score, "700", 56, 28, family, INNER);
    ctx.fillText(data.score, PAD, y);
    y = head;

    var boxes = [];
    clovers.forEach(function (c, i) {
      var height = heights[i];
      rounded(ctx, PAD - 20, y, INNER + 40, height, 28);
      ctx.fillStyle = PANEL;
      ctx.fill();
      ctx.lineWidth = 3;
      ctx.strokeStyle = LINE;
      ctx.stroke();
      var at = y + 40;
      ctx.textAlign = "left";
      ctx.textBaseline = "alphabetic";
      ctx.fillStyle = INK;
      fitted(ctx, c.title, "700", 44, 24, family, INNER - 20);
      ctx.fillText(c.title, PAD + 10, at + 40);
      at += 60;
      cloverAt(ctx, WIDTH / 2, at + 250);
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      leafBoxes(at + 10).forEach(function (box, leaf) {
        var clue = c.clues[leaf] || "";
        var middle = box.x + box.w / 2;
        ctx.fillStyle = INK;
        fitted(ctx, clue, "700", 48, 20, family, box.w);
        if (clue) ctx.fillText(clue, middle, box.y + box.h / 2);
        boxes.push({ clover: i, leaf: leaf, x: box.x, y: box.y, w: box.w, h: box.h });
        var keywords = (c.keywords[leaf] || []).filter(Boolean).join(" · ");
        ctx.fillStyle = GREEN;
        fitted(ctx, keywords, "400", 30, 16, family, box.w);
        ctx.fillText(keywords, middle, box.y + box.h + 24);
      });
      at += CLOVER_H;
      ctx.textAlign = "left";
      ctx.textBaseline = "alphabetic";
      ctx.fillStyle = MUTED;
      ctx.font = "400 32px " + family;
      c.tries.forEach(function (line) {
        at += 46;
        fitted(ctx, line, "400", 32, 18, family, INNER - 20);
        ctx.fillText(line, PAD + 10, at);
      });
      y += height + 30;
    });
    return { canvas: canvas, boxes: boxes };
  }

  function png(canvas) {
    return new Promise(function (resolve, reject) {
      canvas.toBlob(function (blob) { return blob ? resolve(blob) : reject(new Error("no picture")); }, "image/png");
    });
  }

  // The picture of a button's game, made once (after the page's fonts are in) and kept.
  var made = new WeakMap();
  function picture(button) {
    if (!made.has(button)) {
      var data = JSON.parse(button.dataset.share);
      made.set(button, document.fonts.ready.then(function () { return png(draw(data).canvas); }));
    }
    return made.get(button);
  }

  function download(blob) {
    var url = URL.createObjectURL(blob);
    var link = document.createElement("a");
    link.href = url;
    link.download = "so-clover.png";
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 60000);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".share-game");
    if (!button) return;
    picture(button).then(function (blob) {
      var file = new File([blob], "so-clover.png", { type: "image/png" });
      if (navigator.share && navigator.canShare && navigator.canShare({ files: [file] })) {
        // Put away (AbortError) is no failure; anything else falls back to the download.
        return navigator.share({ files: [file], title: "So Clover!" }).catch(function (error) {
          if (!error || error.name !== "AbortError") download(blob);
        });
      }
      download(blob);
    });
  });

  // The button shows wherever the page's script runs (table.css, ".js"); its picture is
  // drawn as soon as it is on the page, so that a tap finds it ready (a share sheet
  // opens only close to the tap).
  function reveal(root) {
    if (!root || !root.querySelectorAll || !window.HTMLCanvasElement || !document.fonts) return;
    root.querySelectorAll(".share-game").forEach(function (button) { picture(button); });
  }
  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:load", function (event) { reveal(event.detail && event.detail.elt); });

  // The drawing itself, for the tests to draw a game again with one word changed.
  window.soCloverShare = { draw: draw };
})();
