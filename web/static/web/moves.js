/* The command area's words: every command, parameter and value said in the
   catalogue's words (GET /rulesets/{id}/catalogue?lang=: commands[].fields[].of
   says what a value names) and the view's (Imjin's units), never as raw ids;
   which provinces a command names (a unit stands in its area); the checks a
   template's form passes before it is sent; an error said in the player's words.
   game.js calls Moves.configure({catalogue, view, seatName, prompt}) on each refresh. */
"use strict";
window.Moves = (function () {
  let catalogue = null, view = null, seatName = (i) => String(i), prompt = "";

  function configure(parts) {
    catalogue = parts.catalogue || null;
    view = parts.view || null;
    if (parts.seatName) seatName = parts.seatName;
    prompt = parts.prompt || "";
  }
  function list(key) { return (catalogue && Array.isArray(catalogue[key])) ? catalogue[key] : []; }
  function command(type) { return list("commands").find((c) => c.type === type) || null; }
  function commandName(type) {
    const c = command(type);
    return (c && c.label) || type.replace(/_/g, " ");
  }
  function commandHelp(type) { const c = command(type); return (c && c.help) || ""; }
  function promptEntry(kind) { return list("prompts").find((p) => p.kind === kind) || null; }
  function promptLabel(kind) {
    const p = promptEntry(kind);
    return (p && p.label) || (kind ? kind.replace(/_/g, " ") : "");
  }
  function field(type, name) {
    const c = command(type);
    const f = c && Array.isArray(c.fields) ? c.fields.find((x) => x.name === name) : null;
    return f || { name, label: name.replace(/_/g, " "), of: "number" };
  }
  /* a value's word for the pending step, the command, or any step */
  function choiceWord(value, type) {
    const words = (catalogue && catalogue.choices) || {};
    for (const key of [prompt + "." + value, type + "." + value, String(value)]) if (key in words) return words[key];
    return null;
  }
  function provinces() { return (catalogue && catalogue.map && catalogue.map.provinces) || []; }
  function provinceName(id) {
    const p = provinces().find((x) => x.id === id);
    return p ? p.name : null;
  }
  function card(id, kind) {
    return list("cards").find((c) => String(c.id) === String(id) && (!kind || c.kind === kind)) || null;
  }
  function units() { return (view && view.state && view.state.units) || {}; }
  function unitName(uid) {
    const u = units()[uid];
    if (!u) return null;
    const general = u.general ? card(u.general, "general") : null;
    const owner = Number.isInteger(u.owner) ? seatName(u.owner) : "";
    return interpolate(gettext("%(who)s in %(area)s, troops: %(n)s"), {
      who: general ? general.name : owner,
      area: provinceName(u.area) || u.area,
      n: u.troops || 0,
    }, true);
  }
  /* any value, looked up wherever the catalogue or the view names it */
  function anyName(value, type) {
    if (value === null || value === undefined) return choiceWord("none", type) || "—";
    if (typeof value === "boolean") return choiceWord(value ? "yes" : "no", type) || String(value);
    const s = String(value);
    const word = choiceWord(s, type);
    if (word) return word;
    if (/^\d+$/.test(s) && type === "choose") return seatName(parseInt(s, 10));  // "benevolence": a seat
    const pair = /^(\d+):(.+)$/.exec(s);  // "1:bushi": a seat's figure, "2:Kyoto": a seat's figure there
    if (pair) return seatName(parseInt(pair[1], 10)) + " — " + anyName(pair[2], type);
    const found = provinceName(s) || unitName(s) || (list("figures").find((f) => f.id === s) || {}).name || (card(s) || {}).name;
    return found || s;
  }
  function valueName(of, value, type) {
    if (Array.isArray(value)) return value.map((v) => valueName(of === "provinces" ? "province" : of, v, type)).join(of === "provinces" ? " → " : ", ") || "—";
    if (value === null || value === undefined) return (of === "province" && choiceWord("no_province", type)) || anyName(value, type);
    switch (of) {
      case "seat": return seatName(Number(value));
      case "number": return String(value);
      case "boolean": return anyName(!!value, type);
      case "province": return provinceName(String(value)) || anyName(value, type);
      case "unit": return unitName(String(value)) || String(value);
      case "figure": return ((list("figures").find((f) => f.id === value)) || card(value) || { name: String(value) }).name;
      case "special": {  // Shogun: a turn-order slot, and the special card lying on it
        const row = view && view.state && view.state.round && view.state.round.specials;
        const on = Array.isArray(row) ? card(row[Number(value) - 1], "special") : null;
        return on ? interpolate(gettext("%(card)s, turn order %(n)s"), { card: on.name, n: value }, true) : String(value);
      }
      case "kami": case "mandate": case "general": case "favour":
        return (card(value, of) || card(value) || { name: anyName(value, type) }).name;
      case "card": return (card(value, "season_card") || card(value) || { name: anyName(value, type) }).name;
      default: return anyName(value, type);
    }
  }
  /* Shogun's plan: its spaces are action cards, the bid and the court */
  function spaceName(space) {
    const a = card(space, "action");
    return a ? a.name : (choiceWord("space." + space, "plan") || space);
  }
  function describe(cmd) {
    const type = cmd.type;
    if (type === "choose" && "choice" in cmd) {
      const word = choiceWord(cmd.choice, type);
      if (word) return word;
      return (promptLabel(prompt) || commandName(type)) + " — " + anyName(cmd.choice, type);
    }
    // an optional place left empty ("via": none) says nothing worth a word
    const parts = Object.entries(cmd).filter(([k, v]) => k !== "type" && !(v === null && field(type, k).of === "province")).map(([k, v]) => {
      const f = field(type, k);
      if (f.of === "plan" && v && typeof v === "object") return Object.entries(v).map(([s, c]) => spaceName(s) + ": " + (c === null ? anyName(null, type) : valueName("province", c, type))).join(", ");
      return f.label + ": " + valueName(f.of, v, type);
    });
    return commandName(type) + (parts.length ? " — " + parts.join(", ") : "");
  }
  /* the provinces a command names: its values, and the areas of the units it names */
  function provincesOf(cmd) {
    const out = new Set();
    const walk = (v) => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") Object.values(v).forEach(walk);
      else if (v !== null && v !== undefined) {
        const s = String(v);
        out.add(s);
        const u = units()[s];
        if (u && u.area) out.add(u.area);
        const pair = /^\d+:(.+)$/.exec(s);  // Path of the Ninja: "seat:province"
        if (pair) out.add(pair[1]);
      }
    };
    Object.entries(cmd).forEach(([k, v]) => { if (k !== "type") walk(v); });
    return out;
  }
  /* SchemaForm's words for a template: labels of fields and of their choices */
  function formWords(type) {
    return {
      label: (name) => {
        const parts = name.split(".");
        if (parts.length > 1 && field(type, parts[0]).of === "plan") return spaceName(parts[parts.length - 1]);
        return field(type, parts[parts.length - 1]).label;
      },
      option: (name, value) => {
        const parts = name.split(".");
        const f = field(type, parts[0]);
        if (f.of === "plan") return value === null ? anyName(null, type) : valueName("province", value, type);  // a card of the hand
        return valueName(f.of, value, type);
      },
    };
  }
  /* What a form must hold before it is sent: the schema's bounds, and the
     rulesets' totals the view shows (Rising Sun: a bid spends at most your
     Coins; a gift gives at least one Coin or Ronin and no more than you hold). */
  function check(type, cmd, schema) {
    const props = (schema && schema.properties) || {};
    for (const name of (schema && schema.required) || []) {
      if (!(name in cmd)) return interpolate(gettext("Choose a value for “%(field)s”."), { field: field(type, name).label }, true);
    }
    for (const [name, p] of Object.entries(props)) {
      const v = cmd[name];
      if (v === undefined || (p.type !== "integer" && p.type !== "number")) continue;
      const label = field(type, name).label;
      if (typeof v !== "number" || Number.isNaN(v) || (p.type === "integer" && !Number.isInteger(v))) return interpolate(gettext("“%(field)s” must be a whole number."), { field: label }, true);
      if (p.minimum !== undefined && v < p.minimum) return interpolate(gettext("“%(field)s” must be at least %(n)s."), { field: label, n: p.minimum }, true);
      if (p.maximum !== undefined && v > p.maximum) return interpolate(gettext("“%(field)s” must be at most %(n)s."), { field: label, n: p.maximum }, true);
    }
    const me = view && view.state && Array.isArray(view.state.players) && Number.isInteger(view.seat) ? view.state.players[view.seat] : null;
    if (me && catalogue && catalogue.ruleset === "rising-sun") {
      const n = (k) => (Number.isInteger(cmd[k]) ? cmd[k] : 0);
      if (type === "bid" && Number.isInteger(me.coins)) {
        const total = n("seppuku") + n("hostage") + n("ronin") + n("poets");
        if (total > me.coins) return interpolate(gettext("Your bid spends %(total)s Coins, more than you hold (Coins: %(n)s)."), { total, n: me.coins }, true);
      }
      if (type === "gift") {
        if (n("coins") + n("ronin") < 1) return gettext("A gift is at least one Coin or one Ronin.");
        if (Number.isInteger(me.coins) && n("coins") > me.coins) return interpolate(gettext("Your gift is more than you hold (Coins: %(n)s)."), { n: me.coins }, true);
        if (Number.isInteger(me.ronin) && n("ronin") > me.ronin) return interpolate(gettext("Your gift is more than you hold (Ronin: %(n)s)."), { n: me.ronin }, true);
      }
    }
    return null;
  }
  /* An error in the player's words: the server's detail is in the account's
     language already; a few codes say more than their detail does. */
  function errorText(e) {
    const said = {
      version_conflict: gettext("The game moved on while you were choosing: here is the new position, choose again."),
      game_paused: gettext("The game is paused: moves wait until the table resumes it."),
      game_over: gettext("The game is over: no more moves."),
      game_not_running: gettext("The game is not running: no moves now."),
      rate_limited: gettext("Too many requests at once: wait a moment and try again."),
      not_authenticated: gettext("You are signed out: sign in again to move."),
    };
    if (e && e.code && said[e.code]) return said[e.code];
    if (e && e.status === undefined && e instanceof TypeError) return gettext("The server could not be reached: check your connection and try again.");
    return (e && e.message) || String(e);
  }
  return { configure, commandName, commandHelp, promptLabel, field, describe, valueName, provinceName, provincesOf, formWords, check, errorText };
})();
