// Before the first paint: the theme this person chose (light, dark, or the
// system's), and a mark that scripts run, so the page may lean on them.
(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  try {
    var theme = localStorage.getItem("soclover-theme");
    if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  } catch (e) { /* storage off: the system's theme */ }
})();
