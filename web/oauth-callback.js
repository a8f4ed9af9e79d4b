// The OAuth redirect lands on oauth-callback.html (issue 15). This script hands the
// page's own address (with `code`, `state` and maybe `iss`) to the playground over a
// BroadcastChannel, which only documents of this same origin can hear: the sign-in
// window is opened without an opener (issue 26), so an authorization server's page
// in it cannot navigate the playground's tab, and nothing here needs `window.opener`.
// The playground checks the data's shape, that the URL is under its redirect URI,
// and the `state`. Nothing is stored or sent elsewhere, and the address is dropped
// from the history at once.
(function () {
  'use strict';
  var here = location.href;
  history.replaceState(null, '', location.pathname);
  var msg = document.getElementById('msg');
  if (typeof BroadcastChannel !== 'function') {
    msg.textContent = 'This browser cannot hand the sign-in back to the playground (no BroadcastChannel).';
    return;
  }
  var channel = new BroadcastChannel('mcpg-oauth');
  channel.postMessage({ mcpgOAuthRedirect: here });
  channel.close();
  msg.textContent = 'Signed in: you can close this window.';
  // Closes the window the playground opened; a tab the learner opened by hand
  // stays (the browser refuses), with the words above.
  window.close();
})();
