/* Starts Swagger UI on the API docs page (web/templates/web/api_docs.html).
   A static file rather than drf-spectacular's inline script, so the page runs under
   script-src 'self'; a file with no per-request secret in it (the CSRF token is read
   from the cookie when a request is sent), so another site including it learns nothing. */
"use strict";
(function () {
  // Swagger UI and the OpenAPI document speak English whatever the account's language;
  // drf-spectacular's page says no language at all (axe: html-has-lang)
  if (!document.documentElement.lang) document.documentElement.lang = "en";
  const root = document.getElementById("swagger-ui");
  const settings = JSON.parse(root.dataset.settings || "{}");
  const csrfHeader = root.dataset.csrfHeader || "X-CSRFToken";

  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  // "Try it out" with the browser's session: Django wants the CSRF header on writes.
  function requestInterceptor(request) {
    if (!["GET", undefined].includes(request.method) && request.credentials === "same-origin") {
      request.headers[csrfHeader] = csrf();
    }
    return request;
  }

  window.ui = SwaggerUIBundle({
    url: root.dataset.schemaUrl,
    dom_id: "#swagger-ui",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    requestInterceptor,
    ...settings,
  });
})();
