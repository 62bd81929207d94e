/* The replay page: one version at a time (slider, buttons, ←/→ keys), its log
   line highlighted, the board drawn as it was at that version when the server
   draws boards. */
"use strict";
(function () {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const $ = (id) => document.getElementById(id);
  const slider = $("slider");
  let version = boot.version, loading = 0;
  async function show(v) {
    v = Math.max(1, Math.min(boot.last, v));
    version = v;
    slider.value = v;
    $("shown").textContent = v + " / " + boot.last;
    history.replaceState(null, "", "?version=" + v);
    document.querySelectorAll("#log li.current").forEach((li) => { li.classList.remove("current"); li.removeAttribute("aria-current"); });
    const li = document.querySelector('#log li[data-seq="' + v + '"]');
    if (li) { li.classList.add("current"); li.setAttribute("aria-current", "step"); li.scrollIntoView({ block: "nearest" }); }
    $("step-text").textContent = li ? "Version " + v + ": " + li.textContent : "Version " + v;
    const ticket = ++loading;
    document.body.dataset.loaded = "";
    const r = await fetch("/games/" + boot.id + "/replay/" + v + ".json", { credentials: "same-origin" });
    if (ticket !== loading) return;
    $("view-json").textContent = r.ok ? JSON.stringify(await r.json(), null, 1) : "(not available)";
    await board(v, ticket);
    if (ticket === loading) document.body.dataset.loaded = String(v);
  }
  async function board(v, ticket) {
    const r = await fetch("/games/" + boot.id + "/board/" + v + ".svg", { credentials: "same-origin" });
    if (ticket !== loading) return;
    if (!r.ok) { $("board").hidden = true; return; }
    const doc = new DOMParser().parseFromString(await r.text(), "image/svg+xml");
    if (doc.documentElement.nodeName !== "svg") return;
    doc.documentElement.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
    const node = document.importNode(doc.documentElement, true);
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", gettext("The board at this version"));  // axe: svg-img-alt
    $("board-svg").replaceChildren(node);
    $("board").hidden = false;
  }
  slider.addEventListener("input", () => show(parseInt(slider.value, 10)));
  $("first").addEventListener("click", () => show(1));
  $("prev").addEventListener("click", () => show(version - 1));
  $("next").addEventListener("click", () => show(version + 1));
  $("last").addEventListener("click", () => show(boot.last));
  $("log").addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-seq]");
    if (a) { ev.preventDefault(); show(parseInt(a.dataset.seq, 10)); }
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input:not([type=range]), textarea, select")) return;
    if (ev.key === "ArrowLeft") { ev.preventDefault(); show(version - 1); }
    else if (ev.key === "ArrowRight") { ev.preventDefault(); show(version + 1); }
  });
  show(version);
})();
