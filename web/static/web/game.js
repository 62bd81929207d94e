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

  /* -- labels: the catalogue's words through moves.js (Moves), raw names only without one -- */
  function commandName(type) { return Moves.commandName(type); }
  function promptLabel(kind) { return Moves.promptLabel(kind); }
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
  /* the pending step of this seat: the words of a "choose" depend on it */
  function myPrompt() {
    const mine = meta && Array.isArray(meta.pending) ? meta.pending.find((p) => p.seat === boot.seat) : null;
    return mine ? mine.kind : "";
  }
  function describe(cmd) {
    Moves.configure({ catalogue, view, seatName, prompt: myPrompt() });
    return Moves.describe(cmd);
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
  /* whose turn, in words; the deadline in the reader's language and time zone (time.js) */
  function renderStatus() {
    let text;
    if (meta.status === "finished" || meta.status === "aborted") {
      const o = meta.outcome || {};
      const winners = (o.winners || []).map(seatName).join(", ");
      text = winners ? interpolate(gettext("Game over — winners: %(winners)s"), { winners }, true) : gettext("Game over");
    } else if (meta.paused) text = gettext("Paused");
    else if (legal.pending) {
      const mine = meta.pending.find((p) => p.seat === boot.seat);
      text = mine ? interpolate(gettext("Your turn: %(decision)s"), { decision: promptLabel(mine.kind) }, true) : gettext("Your turn");
    } else if (meta.pending.length) {
      const waiting = meta.pending.map((p) => interpolate(gettext("%(seat)s (%(decision)s)"), { seat: seatName(p.seat), decision: promptLabel(p.kind) }, true)).join(", ");
      text = interpolate(gettext("Waiting for %(seats)s"), { seats: waiting }, true);
    } else text = gettext("Waiting for the game");
    $("status").textContent = text;
    clearInterval(deadlineTimer);
    const d = $("deadline");
    if (legal.deadline && legal.pending) {
      const tick = () => {
        d.textContent = interpolate(gettext("— %(left)s left (until %(when)s)"), { left: Time.remaining(legal.deadline), when: Time.dateTime(legal.deadline) }, true);
      };
      tick(); d.hidden = false; deadlineTimer = setInterval(tick, 1000);
      d.dataset.deadline = legal.deadline;
    } else d.hidden = true;
  }

  /* -- scores and turn order -- */
  /* every ruleset's view starts with the same header (games/rules/kit/header.py):
     ruleset, rules_version, phase, to_act, seat, ended, scores (per seat), order
     (the seats in turn order) and private (the viewer's own hidden paths) - read, never guessed */
  function header() { return (view && view.state && view.state.header) || { to_act: [], phase: "", ended: false, scores: [], order: [], private: [] }; }
  function renderPlayers() {
    const pending = new Set(header().to_act);
    $("players").replaceChildren(...meta.seats.map((s) => {
      const tr = el("tr", s.index === boot.seat ? { class: "me" } : {});
      tr.append(el("td", {}, seatName(s.index)), el("td", {}, String(header().scores[s.index] ?? "")),
        pending.has(s.index) ? el("td", {}, gettext("to act now")) : el("td"));
      return tr;
    }));
    const order = header().order;
    $("order").textContent = order.length ? interpolate(gettext("Turn order: %(order)s"), { order: order.map((i) => seatName(i)).join(" → ") }, true) : "";
    const sel = $("press-to");
    if (sel.options.length === 1) for (const s of meta.seats) if (s.index !== boot.seat) sel.append(el("option", { value: s.index }, "only " + seatName(s.index)));
    Mat.others($("other-mats"), matContext(), meta.seats.map((s) => s.index));
  }

  /* -- the caller's mat (mat.js): the header's `private` paths (games/rules/kit/header.py)
     say what only this seat sees, never guessed from key names -- */
  function matContext() {
    const factions = {};
    for (const s of meta.seats) factions[s.index] = s.faction;
    return {
      ruleset: meta.ruleset, state: (view && view.state) || {}, header: header(), seat: boot.seat,
      private: header().private || [], catalogue, seatName, factionOf: (i) => factions[i],
    };
  }
  function renderPrivate() {
    if (boot.seat === null || boot.seat === undefined) return;
    Mat.mine($("private"), matContext());
  }

  /* -- legal commands: buttons, and a form for every template -- */
  async function submit(command, button) {
    hideError();
    if (button) button.disabled = true;
    busy(+1);
    try {
      await Api.call("POST", G + "/commands", { command, expected_version: legal.version });
      unpick();  // the move is made: its province is no longer chosen
      await refresh();
    } catch (e) { showError(e, button && (button.closest("form") || button)); if (button) button.disabled = false; }
    busy(-1);
  }
  /* The error shows next to what caused it (the button or the form), else at the
     top of the command area; `#cmd-error` is one element that moves there. */
  function showError(e, anchor) {
    const p = $("cmd-error");
    p.textContent = Moves.errorText(e);
    if (anchor && anchor.isConnected) {
      if (anchor.tagName === "FORM") anchor.append(p); else anchor.after(p);
    } else homeError();
    p.hidden = false;
    p.scrollIntoView({ block: "nearest" });
    if (e && e.status === 409) soon();
  }
  function homeError() {
    const p = $("cmd-error");
    if (p.parentElement !== $("filter-note").parentElement) $("filter-note").before(p);
  }
  function hideError() { $("cmd-error").hidden = true; homeError(); }
  function renderCommands() {
    const box = $("commands");
    homeError();  // out of the forms and buttons about to be redrawn
    clearFilter();
    Moves.configure({ catalogue, view, seatName, prompt: myPrompt() });
    if (!legal.commands.length && !legal.templates.length) {
      box.replaceChildren(el("p", { class: "muted" }, meta.status === "running" ? gettext("Nothing for you to decide now.") : gettext("The game is over: no more moves.")));
      return;
    }
    const items = [];
    for (const c of legal.commands) {
      const b = el("button", { type: "button", "data-command": JSON.stringify(c) }, describe(c));
      const help = Moves.commandHelp(c.type);
      if (help) b.title = help;
      b.addEventListener("click", () => submit(c, b));
      items.push(b);
    }
    // a template is every command of its kind (a bid of any split, a gift of any size):
    // its form shows even when one instance (the zero bid) is a button too
    for (const t of legal.templates) items.push(templateForm(t));
    box.replaceChildren(...items);
  }
  function templateForm(t) {
    const f = el("form", { class: "card template", "data-template": t.type, novalidate: true });
    const heading = el("h3", { id: "tpl-" + t.type }, commandName(t.type));
    f.setAttribute("aria-labelledby", heading.id);
    f.append(heading, el("p", { class: "muted" }, Moves.commandHelp(t.type) || Moves.promptLabel(myPrompt())));
    const others = meta.seats.filter((s) => s.index !== boot.seat).map((s) => ({ index: s.index, name: seatName(s.index) }));
    SchemaForm.build(f, t.schema, { seats: others, words: Moves.formWords(t.type) });
    // start from a legal value: the listed instance (the zero bid), else the engine's first sample
    const listed = legal.commands.find((c) => c.type === t.type);
    const examples = legal.samples.filter((c) => c.type === t.type);
    const start = listed || examples[0];
    if (start) SchemaForm.fill(f, start);
    if (examples.length > 1) {
      const ex = el("button", { type: "button", class: "secondary example" }, gettext("Fill in an example"));
      let n = 0;
      ex.addEventListener("click", () => SchemaForm.fill(f, examples[n++ % examples.length]));
      f.append(ex);
    }
    const b = el("button", { type: "submit" }, interpolate(gettext("Play: %(command)s"), { command: commandName(t.type) }, true));
    f.append(b);
    f.addEventListener("submit", (ev) => {
      ev.preventDefault();
      let cmd;
      try { cmd = SchemaForm.read(f, t.schema); } catch (e) { showError(new Error(gettext("A field holds something that is not a value: correct it.")), f); return; }
      const wrong = Moves.check(t.type, cmd, t.schema);
      if (wrong) { showError(new Error(wrong), f); return; }
      submit(cmd, b);
    });
    return f;
  }

  /* -- the board picture, its HTML side panel and its text alternative, and choosing a
     province on it. The picture's own side panel is hidden and the picture cropped to
     the map: the panel's words are HTML beside it (mat.js), legible at any width. -- */
  let changed = null;  // provinces whose pieces changed since the last look (computed once)
  async function loadBoard() {
    const ctx = matContext();
    Mat.panel($("board-panel"), ctx, meta.seats.map((s) => s.index));
    Mat.boardList($("board-list"), ctx, changed);
    if (boardVersion === meta.version) return;
    boardVersion = meta.version;
    let svg;
    try { svg = await Api.text("/api/v1" + G + "/board.svg?version=" + meta.version); } catch (e) { $("board").hidden = true; return; }
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const root = doc.documentElement;
    if (root.nodeName !== "svg") return;
    root.querySelectorAll("script, foreignObject").forEach((n) => n.remove());
    const node = document.importNode(root, true);
    cropToMap(node);
    node.setAttribute("role", "group");
    node.setAttribute("aria-label", gettext("Board map (the list of provinces below says the same in words)"));
    node.querySelectorAll("[data-province]").forEach((p) => {
      p.setAttribute("tabindex", "0");
      p.setAttribute("role", "button");
      const t = p.querySelector("title");
      p.setAttribute("aria-label", t ? t.textContent : p.dataset.province);
      if (picked && p.dataset.province === picked) p.classList.add("picked");
      if (changed && changed.has(p.dataset.province)) p.classList.add("changed");
    });
    $("board-svg").replaceChildren(node);
    $("board").hidden = false;
  }
  /* the picture's map part only: its side panel is HTML beside it */
  function cropToMap(node) {
    const map = node.querySelector("g.map");
    const sea = map && map.querySelector("rect");
    const scale = map && /scale\(([\d.]+)\)/.exec(map.getAttribute("transform") || "");
    node.querySelectorAll("g.panel").forEach((g) => g.remove());
    if (!sea || !scale) return;
    const k = parseFloat(scale[1]);
    node.setAttribute("viewBox", "0 0 " + (parseFloat(sea.getAttribute("width")) * k).toFixed(0) + " " + (parseFloat(sea.getAttribute("height")) * k).toFixed(0));
    node.removeAttribute("width");
    node.removeAttribute("height");
  }
  /* since you last looked: the provinces whose pieces differ from the view at that version */
  async function lookBack() {
    const since = boot.last_seen;
    if (!Number.isInteger(since) || since <= 0 || since >= meta.version || meta.status === "open") return;
    try {
      const before = await Api.call("GET", G + "/replay?version=" + since);
      changed = Mat.changedProvinces(matContext(), before.state || before);
    } catch (e) { changed = null; return; }
    document.body.dataset.changed = [...changed].sort().join(" ");
    boardVersion = -1;
    await loadBoard();
  }
  function pick(province) {
    picked = province;
    hideError();
    document.querySelectorAll("#board-svg [data-province]").forEach((p) => p.classList.toggle("picked", p.dataset.province === province));
    const name = Moves.provinceName(province) || province;
    // 1. a template form's field that can hold it: the one last focused, else the first empty one
    const inputs = [...document.querySelectorAll("#commands form [data-kind]")];
    if (lastField && inputs.includes(lastField)) inputs.unshift(lastField);
    else inputs.sort((a, b) => (a.value === "" ? 0 : 1) - (b.value === "" ? 0 : 1));
    for (const input of inputs) {
      if (input.dataset.kind === "enum" && [...input.options].some((o) => o.value === JSON.stringify(province))) { input.value = JSON.stringify(province); input.focus(); return; }
      if (input.dataset.kind === "string" && /province|area|where|from|to|at|target|region/i.test(input.name)) { input.value = province; input.focus(); return; }
    }
    // 2. otherwise keep the buttons that name it: the province itself, or a unit standing there
    const buttons = [...document.querySelectorAll("#commands button[data-command]")];
    const hits = buttons.filter((b) => Moves.provincesOf(JSON.parse(b.dataset.command)).has(province));
    if (!hits.length) {
      clearFilter();
      unpick();  // nothing to choose there
      showError(new Error(interpolate(gettext("No move you can make now involves %(province)s."), { province: name }, true)));
      return;
    }
    buttons.forEach((b) => { b.hidden = !hits.includes(b); });
    const note = $("filter-note");
    note.querySelector("span").textContent = interpolate(gettext("Moves with %(province)s (%(n)s):"), { n: hits.length, province: name }, true);
    note.hidden = false;
    hits[0].focus();
  }
  /* no province chosen any more: after a move, and when the filter is dropped */
  function unpick() {
    picked = null;
    document.querySelectorAll("#board-svg .picked").forEach((p) => p.classList.remove("picked"));
  }
  function clearFilter() {
    $("filter-note").hidden = true;
    document.querySelectorAll("#commands button[data-command]").forEach((b) => { b.hidden = false; });
  }
  $("show-all").addEventListener("click", () => { clearFilter(); unpick(); });
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
    if (Number.isInteger(boot.last_seen) && e.seq > boot.last_seen && !initialised) {
      li.classList.add("new");  // since you last looked
      unseen += 1;
    }
    const log = $("log");
    log.append(li);
    while (log.children.length > 300) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
  }
  let initialised = false, unseen = 0;  // the log lines new since the last look, counted on opening
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
    initialised = true;
    Mat.sinceNote($("since-note"), unseen);
    const first = $("log").querySelector("li.new");
    if (first) $("log").scrollTop = Math.max(0, first.offsetTop - $("log").offsetTop - 8);
    await lookBack();
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
