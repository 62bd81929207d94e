/* The game page: everything through the public API with the session.
   Reads: the game, the caller's view, legal commands, the event feed (live over SSE),
   the catalogue's labels and the board picture when the server has them. Writes:
   POST commands (unchanged from legal-commands, or built from a template's schema),
   start, press, pause/resume, takeback. */
"use strict";
(function () {
  const boot = JSON.parse(document.getElementById("boot").textContent);
  const G = "/games/" + boot.id;
  const $ = (id) => document.getElementById(id);
  const el = SchemaForm.el;
  let meta = null, view = null, legal = null, catalogue = null, boardVersion = -1, lastSeq = 0;
  let streaming = null, refreshTimer = null, deadlineTimer = null, picked = null, summaries = false;

  /* -- labels: the catalogue's when it answers, raw names otherwise -- */
  function entry(kind, type) {
    const c = catalogue && (catalogue[kind] || catalogue[kind + "s"]);
    if (!c) return null;
    if (Array.isArray(c)) return c.find((x) => x.type === type || x.kind === type || x.id === type) || null;
    return c[type] || null;
  }
  function commandName(type) {
    const e = entry("commands", type);
    return (e && (e.name || e.label)) || type.replace(/_/g, " ");
  }
  function promptLabel(kind) {
    const e = entry("prompts", kind);
    return (e && e.label) || (kind ? kind.replace(/_/g, " ") : "");
  }
  function placeName(id) {
    const m = catalogue && catalogue.map && catalogue.map.provinces;
    const p = Array.isArray(m) ? m.find((x) => x.id === id) : null;
    return p ? p.name : id;
  }
  function fieldLabels(type) {
    const e = entry("commands", type);
    const out = {};
    const f = e && (e.fields || e.labels);
    if (f) for (const [k, v] of Object.entries(f)) out[k] = typeof v === "string" ? v : v.label || v.name || k;
    return out;
  }
  function seatName(i) {
    const s = meta && meta.seats.find((x) => x.index === i);
    if (!s) return "seat " + i;
    return (s.faction || "seat " + i) + " (" + who(s) + ")";
  }
  /* Who plays a seat: a person, a bot account (a program playing through the API),
     or one of the server's bots by kind; a zombie seat (missed deadlines) says so. */
  function who(s) {
    if (!s.user) return "bot: " + (s.bot || "?");
    return s.user.username + (s.user.is_bot ? " [bot]" : "") + (s.zombie ? " (a bot stands in)" : "");
  }
  function describe(cmd) {
    const labels = fieldLabels(cmd.type);
    const parts = Object.entries(cmd).filter(([k]) => k !== "type").map(([k, v]) => {
      const shown = (k === "to" || k === "seat" || k === "from") && Number.isInteger(v) ? seatName(v) : typeof v === "object" ? JSON.stringify(v) : placeName(String(v));
      return (labels[k] || k.replace(/_/g, " ")) + ": " + shown;
    });
    return commandName(cmd.type) + (parts.length ? " — " + parts.join(", ") : "");
  }
  function logText(e) {
    if (e.redacted) return "(hidden)";
    if (e.summary) return e.summary;
    const who = e.payload && Number.isInteger(e.payload.seat) && e.payload.seat >= 0 ? seatName(e.payload.seat) + ": " : "";
    return who + e.type.replace(/^[a-z_-]+\./, "").replace(/([a-z])([A-Z])/g, "$1 $2");
  }

  /* -- reading -- */
  async function loadCatalogue(ruleset) {
    try {
      // the page's language, named: one URL per language, so no cache serves another's words
      const lang = document.documentElement.lang || "en";
      catalogue = await Api.call("GET", "/rulesets/" + ruleset + "/catalogue?lang=" + encodeURIComponent(lang));
    } catch (e) { catalogue = null; }  // not on this server yet: raw names
  }
  async function refresh() {
    meta = await Api.call("GET", G);
    if (catalogue === null && meta) await loadCatalogue(meta.ruleset);
    if (meta.status === "open") { renderOpen(); document.body.dataset.status = "open"; return; }
    [view, legal] = await Promise.all([Api.call("GET", G + "/view"), Api.call("GET", G + "/legal-commands")]);
    $("waiting").hidden = true;
    $("play").hidden = false;
    renderStatus(); renderPlayers(); renderPrivate(); renderCommands(); renderControls();
    await loadBoard();
    // what the page shows, for scripts and tests: the version, whose turn, the status
    const b = document.body.dataset;
    b.version = meta.version; b.status = meta.status; b.turn = legal.pending ? "me" : "other";
    b.phase = header().phase || "";
  }
  let refreshing = 0;  // data-busy while a move or a refresh is under way (scripts and tests wait for it)
  function busy(delta) {
    refreshing += delta;
    if (refreshing > 0) document.body.dataset.busy = "1"; else delete document.body.dataset.busy;
  }
  function soon() {
    if (!refreshTimer) busy(+1);
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      refresh().catch(showError).finally(() => busy(-1));
    }, 150);
  }

  /* -- open game -- */
  function renderOpen() {
    $("waiting").hidden = false;
    $("status").textContent = "Open: " + meta.seats.length + " of " + meta.players + " seats taken";
    const list = $("seat-list");
    list.replaceChildren(...meta.seats.map((s) => el("li", {}, "Seat " + s.index + ": " + who(s) + (s.faction ? " (" + s.faction + ")" : ""))));
    if (meta.invite_code) {
      $("invite").hidden = false;
      $("invite-link").value = location.origin + "/games/" + meta.id + "?invite=" + meta.invite_code;
    }
    $("start").hidden = !(boot.creator && meta.seats.length === meta.players);
    // taking a seat appends no event, so the stream is silent until the start: look again now and then
    setTimeout(() => { if (meta.status === "open") soon(); }, 3000);
  }

  /* -- status, deadline -- */
  function renderStatus() {
    let text;
    if (meta.status === "finished" || meta.status === "aborted") {
      const o = meta.outcome || {};
      const winners = (o.winners || []).map(seatName).join(", ");
      text = "Game over" + (o.reason ? ": " + o.reason : "") + (winners ? " — winners: " + winners : "");
    } else if (meta.paused) text = "Paused";
    else if (legal.pending) {
      const mine = meta.pending.find((p) => p.seat === boot.seat);
      text = "Your turn" + (mine ? ": " + promptLabel(mine.kind) : "") + " (version " + meta.version + ")";
    } else text = "Waiting for " + (meta.pending.map((p) => seatName(p.seat) + " (" + promptLabel(p.kind) + ")").join(", ") || "the game") + " (version " + meta.version + ")";
    $("status").textContent = text;
    clearInterval(deadlineTimer);
    const d = $("deadline");
    if (legal.deadline && legal.pending) {
      const due = Date.parse(legal.deadline);
      const tick = () => {
        const s = Math.max(0, Math.round((due - Date.now()) / 1000));
        d.textContent = "— " + Math.floor(s / 3600) + "h " + String(Math.floor((s % 3600) / 60)).padStart(2, "0") + "m " + String(s % 60).padStart(2, "0") + "s left";
      };
      tick(); d.hidden = false; deadlineTimer = setInterval(tick, 1000);
    } else d.hidden = true;
  }

  /* -- scores and turn order -- */
  /* every ruleset's view starts with the same header (games/rules/kit/header.py):
     ruleset, rules_version, phase, to_act, seat, ended, scores (per seat) and order
     (the seats in turn order) - read, never guessed */
  function header() { return (view && view.state && view.state.header) || { to_act: [], phase: "", ended: false, scores: [], order: [] }; }
  function renderPlayers() {
    const pending = new Set(header().to_act);
    $("players").replaceChildren(...meta.seats.map((s) => {
      const tr = el("tr", s.index === boot.seat ? { class: "me" } : {});
      tr.append(el("td", {}, String(s.index) + (s.faction ? " " + s.faction : "")), el("td", {}, who(s)),
        el("td", {}, String(header().scores[s.index] ?? "")), pending.has(s.index) ? el("td", { "aria-label": "yes", title: "must act now" }, "●") : el("td"));
      return tr;
    }));
    const order = header().order;
    $("order").textContent = order.length ? "Turn order: " + order.map((i) => seatName(i)).join(" → ") : "";
    const sel = $("press-to");
    if (sel.options.length === 1) for (const s of meta.seats) if (s.index !== boot.seat) sel.append(el("option", { value: s.index }, "only " + seatName(s.index)));
  }

  /* -- the caller's private information -- */
  const PRIVATE = /hand|plan|bid|secret|card|mine|own|order/i;
  function dl(obj) {
    const d = el("dl");
    for (const [k, v] of Object.entries(obj)) {
      if (v === null || (typeof v === "object" && !Array.isArray(v) && JSON.stringify(v).length > 300)) continue;
      d.append(el("dt", {}, k.replace(/_/g, " ")), el("dd", {}, Array.isArray(v) ? v.map((x) => (typeof x === "object" ? JSON.stringify(x) : x)).join(", ") || "—" : typeof v === "object" ? JSON.stringify(v) : String(v)));
    }
    return d;
  }
  function renderPrivate() {
    const st = view.state || {};
    const box = $("private");
    $("view-json").textContent = JSON.stringify(view, null, 1);
    if (boot.seat === null || boot.seat === undefined) return;
    const parts = [];
    const mine = Array.isArray(st.players) ? st.players[boot.seat] : null;
    if (mine && typeof mine === "object") parts.push(dl(mine));
    const extra = {};
    for (const [k, v] of Object.entries(st)) if (PRIVATE.test(k) && k !== "players") extra[k] = v;
    if (Object.keys(extra).length) parts.push(dl(extra));
    box.replaceChildren(el("p", {}, "You play " + seatName(boot.seat) + "."), ...parts);
  }

  /* -- legal commands: buttons, and small forms for templates -- */
  async function submit(command, button) {
    $("cmd-error").hidden = true;
    if (button) button.disabled = true;
    busy(+1);
    try {
      await Api.call("POST", G + "/commands", { command, expected_version: legal.version });
      await refresh();
    } catch (e) { showError(e); if (button) button.disabled = false; }
    busy(-1);
  }
  function showError(e) {
    const p = $("cmd-error");
    p.textContent = e.message || String(e);
    p.hidden = false;
    if (e.status === 409) soon();
  }
  function renderCommands() {
    const box = $("commands");
    clearFilter();
    if (!legal.commands.length && !legal.templates.length) {
      box.replaceChildren(el("p", { class: "muted" }, meta.status === "running" ? "Nothing to decide now." : "The game is over."));
      return;
    }
    const items = [];
    for (const c of legal.commands) {
      const b = el("button", { type: "button", "data-command": JSON.stringify(c) }, describe(c));
      b.addEventListener("click", () => submit(c, b));
      items.push(b);
    }
    const typesWithButtons = new Set(legal.commands.map((c) => c.type));
    for (const t of legal.templates) {
      if (typesWithButtons.has(t.type) && legal.commands.length) continue;  // every instance is a button already
      const f = el("form", { class: "card template", "data-template": t.type });
      f.append(el("h3", {}, commandName(t.type)));
      const help = entry("commands", t.type);
      f.append(el("p", { class: "muted" }, (help && (help.help || help.description)) || t.description || ""));
      const others = meta.seats.filter((s) => s.index !== boot.seat).map((s) => ({ index: s.index, name: seatName(s.index) }));
      SchemaForm.build(f, t.schema, { labels: fieldLabels(t.type), seats: others });
      const examples = legal.samples.filter((c) => c.type === t.type);
      if (examples.length) {
        const ex = el("button", { type: "button", class: "secondary example" }, "Fill in an example");
        let n = 0;
        ex.addEventListener("click", () => SchemaForm.fill(f, examples[n++ % examples.length]));
        f.append(ex);
      }
      const b = el("button", { type: "submit" }, "Play " + commandName(t.type));
      f.append(b);
      f.addEventListener("submit", (ev) => {
        ev.preventDefault();
        let cmd;
        try { cmd = SchemaForm.read(f, t.schema); } catch (e) { showError(new Error("a field holds invalid JSON")); return; }
        submit(cmd, b);
      });
      items.push(f);
    }
    box.replaceChildren(...items);
  }

  /* -- the board picture, and choosing a province on it -- */
  async function loadBoard() {
    if (boardVersion === meta.version) return;
    boardVersion = meta.version;
    let svg;
    try { svg = await Api.text("/api/v1" + G + "/board.svg?version=" + meta.version); } catch (e) { $("board").hidden = true; return; }
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const root = doc.documentElement;
    if (root.nodeName !== "svg") return;
    root.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
    const node = document.importNode(root, true);
    // a group of buttons, not an image: an image's parts are not interactive
    // (axe: nested-interactive), and the group is named (svg-img-alt)
    node.setAttribute("role", "group");
    node.setAttribute("aria-label", gettext("Board: choose a province with Enter or Space"));
    node.querySelectorAll("[data-province]").forEach((p) => {
      p.setAttribute("tabindex", "0");
      p.setAttribute("role", "button");
      const t = p.querySelector("title");
      p.setAttribute("aria-label", t ? t.textContent : p.dataset.province);
      if (picked && p.dataset.province === picked) p.classList.add("picked");
    });
    $("board-svg").replaceChildren(node);
    $("board").hidden = false;
  }
  function values(obj, out) {
    for (const v of Object.values(obj)) {
      if (v && typeof v === "object") values(v, out); else out.add(String(v));
    }
    return out;
  }
  function pick(province) {
    picked = province;
    document.querySelectorAll("#board-svg [data-province]").forEach((p) => p.classList.toggle("picked", p.dataset.province === province));
    // 1. a template form's field that can hold it: the one last focused, else the first empty one
    const inputs = [...document.querySelectorAll("#commands form [data-kind]")];
    if (lastField && inputs.includes(lastField)) inputs.unshift(lastField);
    else inputs.sort((a, b) => (a.value === "" ? 0 : 1) - (b.value === "" ? 0 : 1));
    for (const input of inputs) {
      if (input.dataset.kind === "enum" && [...input.options].some((o) => o.value === JSON.stringify(province))) { input.value = JSON.stringify(province); input.focus(); return; }
      if (input.dataset.kind === "string" && /province|area|where|from|to|at|target|region/i.test(input.name)) { input.value = province; input.focus(); return; }
    }
    // 2. otherwise keep the buttons that name it
    const buttons = [...document.querySelectorAll("#commands button[data-command]")];
    const hits = buttons.filter((b) => values(JSON.parse(b.dataset.command), new Set()).has(province));
    if (!hits.length) { showError(new Error("No legal move names " + province + ".")); return; }
    buttons.forEach((b) => { b.hidden = !hits.includes(b); });
    const note = $("filter-note");
    note.querySelector("span").textContent = hits.length + " move(s) with " + province + ":";
    note.hidden = false;
    hits[0].focus();
  }
  function clearFilter() {
    $("filter-note").hidden = true;
    document.querySelectorAll("#commands button[data-command]").forEach((b) => { b.hidden = false; });
  }
  $("show-all").addEventListener("click", clearFilter);
  let lastField = null;
  $("commands").addEventListener("focusin", (ev) => { if (ev.target.dataset && ev.target.dataset.kind) lastField = ev.target; });
  $("board-svg").addEventListener("click", (ev) => {
    const p = ev.target.closest("[data-province]");
    if (p) pick(p.dataset.province);
  });
  $("board-svg").addEventListener("keydown", (ev) => {
    const p = ev.target.closest("[data-province]");
    if (p && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); pick(p.dataset.province); }
  });

  /* -- table controls -- */
  function renderControls() {
    const running = meta.status === "running" && boot.seat !== null;
    $("controls").hidden = !running;
    $("press-form").hidden = !running;  // players write while the game runs; watchers read
    $("pause").hidden = meta.paused;
    $("resume").hidden = !meta.paused;
    // whether a takeback is possible changes with every move: ask again after each one
    if (running && takebackVersion !== meta.version) {
      takebackVersion = meta.version;
      busy(+1);
      checkTakeback().finally(() => busy(-1));
    }
  }
  async function control(path) {
    try { await Api.call("POST", G + path); await refresh(); await checkTakeback(); } catch (e) { showError(e); }
  }
  $("pause").addEventListener("click", () => control("/pause"));
  $("resume").addEventListener("click", () => control("/resume"));
  $("takeback").addEventListener("click", () => control("/takeback"));
  let openTakeback = null, takebackVersion = -1;
  /* The server says whether this seat may ask now (GET .../takeback: possible, or
     the reason in the player's language); the button shows only then, so a request
     is never one the server can only refuse (against bots the last move is theirs). */
  function takebackWhy() {
    let p = $("takeback-why");
    if (!p) {
      p = el("p", { id: "takeback-why", class: "muted" });
      $("takeback").after(p);
    }
    return p;
  }
  async function checkTakeback() {
    if (boot.seat === null || boot.seat === undefined) return;
    let state = null;
    try { state = await Api.call("GET", G + "/takeback"); } catch (e) { state = null; }
    openTakeback = state && state.open;
    const button = $("takeback"), why = takebackWhy();
    button.hidden = !(state && state.possible);
    why.hidden = !button.hidden;
    why.textContent = state && !state.possible && state.detail
      ? gettext("Taking back your last move is not possible now:") + " " + state.detail
      : gettext("Taking back your last move is not possible now.");
    const box = $("takeback-open");
    const mine = openTakeback && openTakeback.seat === boot.seat;
    box.hidden = !openTakeback || mine || !openTakeback.waiting_for.includes(boot.seat);
    if (openTakeback) box.querySelector("span").textContent = interpolate(gettext("%(seat)s asks to take back a move."), { seat: seatName(openTakeback.seat) }, true);
  }
  $("tb-accept").addEventListener("click", () => control("/takeback/" + openTakeback.request_seq + "/accept"));
  $("tb-refuse").addEventListener("click", () => control("/takeback/" + openTakeback.request_seq + "/refuse"));
  $("start").addEventListener("click", () => control("/start"));

  /* -- log and press -- */
  function addLog(e) {
    if (e.seq <= lastSeq) return;
    lastSeq = e.seq;
    if (e.redacted) return;  // another seat's secret: nothing readable to show
    if (e.type === "core.MessageSent" && e.payload) {
      const p = e.payload;
      const from = Number.isInteger(p.from) ? seatName(p.from) : "someone";
      $("press").append(el("li", {}, from + (p.to ? " (private)" : "") + ": " + p.text));
    }
    // a server that writes summaries puts one on the first visible event of each
    // batch: the rest of the batch is said by it already
    if (e.summary) summaries = true;
    else if (summaries) return;
    const li = el("li", { value: e.seq, "data-seq": e.seq }, logText(e));
    const log = $("log");
    log.append(li);
    while (log.children.length > 300) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }
  $("press-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const to = $("press-to").value;
    try {
      await Api.call("POST", G + "/messages", { text: $("press-text").value, to: to === "" ? null : [parseInt(to, 10)] });
      $("press-text").value = "";
    } catch (e) { showError(e); }
  });

  async function start() {
    await refresh();
    const from = Math.max(0, (meta.version || 0) - 200);
    let page = await Api.call("GET", G + "/events?after=" + from + "&limit=1000");
    page.results.forEach(addLog);
    await checkTakeback();
    streaming = Api.stream(G + "/events", lastSeq, (ev) => {
      if (ev.data && typeof ev.data === "object" && "seq" in ev.data) addLog(ev.data);
      if (/Takeback/.test(ev.event)) checkTakeback();
      soon();
    }, (s) => { document.body.dataset.stream = s; });
  }
  start().catch(showError);
  window.addEventListener("pagehide", () => streaming && streaming.stop());
})();
