// Signs every "Try it out" request of the docs page in the browser (Web Crypto HMAC-SHA256).
// The key, secret and proxy values live in this closure only: never stored, never logged.
(function () {
  "use strict";
  var creds = { key: "", secret: "", user: "", token: "" };
  var fields = { key: "sign-key", secret: "sign-secret", user: "sign-user", token: "sign-token" };

  function refresh() {
    Object.keys(fields).forEach(function (name) {
      creds[name] = document.getElementById(fields[name]).value.trim();
    });
    var state = creds.key && creds.secret
      ? "Signing every request with API key " + creds.key + "."
      : "Not signing yet: type a key and a secret.";
    if (creds.key && creds.secret && creds.user) { state += " Acting for user " + creds.user + "."; }
    if (creds.key && creds.secret && creds.token) { state += " Proxy access token set."; }
    document.getElementById("sign-state").textContent = state;
  }

  function base64(buffer) {
    var bytes = new Uint8Array(buffer), text = "";
    for (var i = 0; i < bytes.length; i++) { text += String.fromCharCode(bytes[i]); }
    return btoa(text);
  }

  async function sign(method, path, timestamp) {
    var encoder = new TextEncoder();
    var key = await crypto.subtle.importKey("raw", encoder.encode(creds.secret),
      { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    var text = method.toUpperCase() + "\n" + path + "\n" + timestamp;
    return base64(await crypto.subtle.sign("HMAC", key, encoder.encode(text)));
  }

  async function signRequest(request) {
    if (!creds.key || !creds.secret || request.loadSpec) { return request; }
    var url = new URL(request.url, window.location.href);
    if (url.origin !== window.location.origin) { return request; }
    var timestamp = String(Date.now());  // 13-digit milliseconds, fresh per request
    request.headers["X-API-Key"] = creds.key;
    request.headers["X-Timestamp"] = timestamp;
    request.headers["X-Signature"] = await sign(request.method || "GET", url.pathname, timestamp);
    if (creds.user) { request.headers["X-Proxy-User-Id"] = creds.user; }
    if (creds.token) { request.headers["X-Proxy-Access-Token"] = creds.token; }
    return request;
  }

  // A response that hands out a proxy access token (oauth/token, pairing/redeem,
  // proxy-user/register) fills the token and user fields, so a T operation can be tried next.
  // Like the secret, the token stays in this page's memory and its form fields only.
  function takeToken(response) {
    var data = response && response.body && response.body.data;
    if (response && response.ok && data && typeof data.accessToken === "string" && data.accessToken) {
      document.getElementById(fields.token).value = data.accessToken;
      if (data.userId !== undefined && data.userId !== null) {
        document.getElementById(fields.user).value = String(data.userId);
      }
      refresh();
    }
    return response;
  }

  window.addEventListener("load", function () {
    Object.keys(fields).forEach(function (name) {
      document.getElementById(fields[name]).addEventListener("input", refresh);
    });
    refresh();
    window.ui = SwaggerUIBundle({
      url: document.getElementById("swagger-ui").getAttribute("data-spec-url"),
      configUrl: "swagger-ui-config.json",
      dom_id: "#swagger-ui",
      deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      plugins: [SwaggerUIBundle.plugins.DownloadUrl],
      layout: "BaseLayout",
      requestInterceptor: signRequest,
      responseInterceptor: takeToken
    });
  });
}());
