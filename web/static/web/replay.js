/* The replay page: one step per command (the batch of events it appended),
   grouped by turns; buttons and keys step by step (← →), turn by turn
   (Page Up / Page Down) and to the start and the end (Home / End). Each step
   shows the board as it was after it, when the server draws boards. */
"use strict";
(function () {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const $ = (id) => document.getElementById(id);
  const steps = boot.steps; // [first version, last version, turn]
  let step = boot.step, loading = 0;
  function turnStart(t) { return steps.findIndex((s) => s[2] === t); }
  async function show(i) {
    if (!steps.length) return;
    i = Math.max(0, Math.min(steps.length - 1, i));
    step = i;
    const v = steps[i][1], turn = boot.turns[steps[i][2]] || "";
    history.replaceState(null, "", "?version=" + v);
    document.querySelectorAll("#log li.current").forEach((li) => { li.classList.remove("current"); li.removeAttribute("aria-current"); });
    const li = document.querySelector('#log li[data-step="' + i + '"]');
    if (li) { li.classList.add("current"); li.setAttribute("aria-current", "step"); li.scrollIntoView({ block: "nearest" }); }
    $("shown").textContent = interpolate(gettext("Step %(n)s of %(total)s · %(turn)s"), { n: i + 1, total: steps.length, turn: turn }, true);
    $("step-text").textContent = li ? li.textContent : "";
    document.body.dataset.step = String(i);
    const ticket = ++loading;
    document.body.dataset.loaded = "";
    const r = await fetch("/games/" + boot.id + "/replay/" + v + ".json", { credentials: "same-origin" });
    if (ticket !== loading) return;
    $("view-json").textContent = r.ok ? JSON.stringify(await r.json(), null, 1) : gettext("(not available)");
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
  function nextTurn() {
    const t = steps[step][2], i = steps.findIndex((s) => s[2] > t);
    show(i < 0 ? steps.length - 1 : i);
  }
  function prevTurn() {
    // to the start of this turn, or of the one before when already there
    const start = turnStart(steps[step][2]);
    show(start < step ? start : turnStart(Math.max(0, steps[step][2] - 1)));
  }
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(step - 1));
  $("next").addEventListener("click", () => show(step + 1));
  $("prev-turn").addEventListener("click", prevTurn);
  $("next-turn").addEventListener("click", nextTurn);
  $("last").addEventListener("click", () => show(steps.length - 1));
  $("log").addEventListener("click", (ev) => {
    const a = ev.target.closest("a[data-step]");
    if (a) { ev.preventDefault(); show(parseInt(a.dataset.step, 10)); }
  });
  const keys = { ArrowLeft: () => show(step - 1), ArrowRight: () => show(step + 1), PageUp: prevTurn, PageDown: nextTurn, Home: () => show(0), End: () => show(steps.length - 1) };
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("input, textarea, select") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const act = keys[ev.key];
    if (act) { ev.preventDefault(); act(); }
  });
  show(step);
})();
