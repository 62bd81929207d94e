/* Receipts: the signed checkpoints the server gives a player (each command's
   answer, each view, each batch of the live log) kept in this browser's
   localStorage, one list per game, so the player can later hold the game's
   export against them (python -m games.verify --keys --receipts; docs/audit.md).
   On the game page it listens to Api (api.js) without changing game.js; on the
   audit page it offers the kept receipts as a JSON Lines download. */
"use strict";
window.Receipts = (function () {
  const PREFIX = "sengoku.receipts.";
  const MAX_KEPT = 5000;  // per game: a long game's every version, well under the storage quota

  function load(gameId) {
    try {
      const kept = JSON.parse(window.localStorage.getItem(PREFIX + gameId) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch (e) {
      return [];  // storage off (private window) or damaged: nothing kept
    }
  }

  function isCheckpoint(c) {
    return c && typeof c === "object" && typeof c.game === "string" && Number.isInteger(c.version)
      && typeof c.head === "string" && typeof c.signature === "string" && typeof c.kid === "string"
      && typeof c.issued_at === "string";
  }

  function keep(gameId, checkpoints) {
    const fresh = checkpoints.filter((c) => isCheckpoint(c) && c.game === gameId);
    if (!fresh.length) return;
    const kept = load(gameId);
    const seen = new Set(kept.map((c) => c.version + " " + c.kid + " " + c.signature));
    for (const c of fresh) {
      const id = c.version + " " + c.kid + " " + c.signature;
      if (seen.has(id)) continue;
      seen.add(id);
      kept.push({ game: c.game, version: c.version, head: c.head, issued_at: c.issued_at, kid: c.kid, signature: c.signature });
    }
    kept.sort((a, b) => a.version - b.version);
    try {
      window.localStorage.setItem(PREFIX + gameId, JSON.stringify(kept.slice(-MAX_KEPT)));
    } catch (e) { /* quota or storage off: the game plays on without receipts */ }
  }

  /* Every checkpoint in an API answer: its own, and those on its events. */
  function found(data) {
    if (!data || typeof data !== "object") return [];
    const out = [];
    if (data.checkpoint) out.push(data.checkpoint);
    for (const list of [data.events, data.results]) {
      if (Array.isArray(list)) for (const e of list) if (e && e.checkpoint) out.push(e.checkpoint);
    }
    return out;
  }

  function lines(gameId) {
    return load(gameId).map((c) => JSON.stringify(c) + "\n").join("");
  }

  /* The game page: wrap Api so every answer and stream frame is looked at once. */
  function listen(gameId) {
    const api = window.Api;
    if (!api || api.receiptsWrapped) return;
    api.receiptsWrapped = true;
    const call = api.call;
    api.call = async function (method, path, body) {
      const data = await call(method, path, body);
      keep(gameId, found(data));
      return data;
    };
    const stream = api.stream;
    api.stream = function (path, after, onEvent, onState) {
      return stream(path, after, function (ev) {
        keep(gameId, found(ev && ev.data));
        onEvent(ev);
      }, onState);
    };
  }

  /* The audit page's section: how many are kept here, and the download. */
  function offer(box) {
    const gameId = box.dataset.game;
    const count = load(gameId).length;
    const note = box.querySelector("[data-receipts-count]");
    const link = box.querySelector("[data-receipts-download]");
    note.textContent = count
      ? interpolate(gettext("Receipts kept in this browser for this game: %(count)s"), { count: count }, true)
      : gettext("No receipts are kept in this browser for this game: they are collected while you play it here.");
    if (!count || !link) return;
    link.href = URL.createObjectURL(new Blob([lines(gameId)], { type: "application/x-ndjson" }));
    link.download = "receipts-" + gameId + ".jsonl";
    link.hidden = false;
  }

  const bootNode = document.getElementById("boot");
  if (bootNode) {
    try {
      const boot = JSON.parse(bootNode.textContent);
      if (boot && boot.id && Number.isInteger(boot.seat)) listen(String(boot.id));  // players keep receipts
    } catch (e) { /* no boot data: nothing to listen to */ }
  }
  const box = document.getElementById("receipts");
  if (box) offer(box);
  return { load, keep, lines, found };
})();
