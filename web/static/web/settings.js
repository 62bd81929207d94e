/* Settings are saved through PATCH /api/v1/accounts/me, the API's own checks included. */
"use strict";
(function () {
  const form = document.getElementById("settings-form");
  const status = document.getElementById("settings-status");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const v = (id) => form.querySelector("#" + id);
    const body = {
      email: v("email").value,
      email_notifications: v("email_notifications").checked,
      webhook_url: v("webhook_url").value,
      vacation_until: v("vacation_until").value ? new Date(v("vacation_until").value).toISOString() : null,
    };
    if (v("webhook_secret").value) body.webhook_secret = v("webhook_secret").value;
    if (v("language")) body.language = v("language").value;
    try {
      await Api.call("PATCH", "/accounts/me", body);
      status.textContent = gettext("Saved.");
      status.className = "ok";
      if (v("language")) location.replace(location.pathname + "?saved=1");  // redrawn in the new language
    } catch (e) {
      status.textContent = e.message;
      status.className = "error";
    }
  });
})();
