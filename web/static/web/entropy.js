/* Seat entropy (docs/audit.md): a form that creates or joins a game sends 32 random
   bytes drawn here, on the player's own device, so the server alone does not choose
   the game's randomness. Forms opt in with data-entropy; the lobby's create form and
   every join form do. */
"use strict";
(function () {
  function hex32() {
    const bytes = new Uint8Array(32);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
  function wants(form) {
    const action = form.getAttribute("action") || "";
    return form.id === "create-form" || /\/join\/?$/.test(action) || form.hasAttribute("data-entropy");
  }
  document.addEventListener("submit", (ev) => {
    const form = ev.target;
    if (!(form instanceof HTMLFormElement) || !wants(form) || !window.crypto) return;
    let field = form.querySelector("input[name=entropy]");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "entropy";
      form.appendChild(field);
    }
    field.value = hex32(); // fresh for every submit: a failed attempt's bytes are never reused
  });
})();
