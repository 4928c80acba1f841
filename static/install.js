// So Clover! table: what lets a phone keep the table on its home screen, besides the
// manifest. It registers the service worker (/sw.js), which keeps copies of the static
// files. Where there are no service workers (an old browser, or plain http to a LAN
// address, which is not a secure context), it does nothing and the table works the same.
(function () {
  "use strict";

  function register() {
    try {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
    } catch (unavailable) {
      // service workers switched off, or refused to this page: nothing to do
    }
  }

  if (!window.isSecureContext || !("serviceWorker" in navigator)) return;
  // after the page has loaded: the first visit's own requests come first
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register);
})();
