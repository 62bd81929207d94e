/* The seat panel as the player mat it stands for, per ruleset; the other seats' public
   mats in short; the board's HTML side panel (season, legend, scores) and its text
   alternative (a list of provinces with their pieces); "since you last looked".
   Reads the view, the header's `private` paths and the rules catalogue (names, card
   text, costs, abilities in the page's language): no rule is computed here. */
"use strict";
window.Mat = (function () {
  /* an element with attributes and any number of children (nodes or text) */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  /* -- the catalogue -- */
  function card(ctx, id, kinds) {
    const cards = (ctx.catalogue && ctx.catalogue.cards) || [];
    return cards.find((c) => c.id === id && (!kinds || kinds.includes(c.kind))) || null;
  }
  function faction(ctx, id) {
    const all = (ctx.catalogue && ctx.catalogue.factions) || [];
    return all.find((f) => f.id === id) || null;
  }
  function place(ctx, id) {
    const m = ctx.catalogue && ctx.catalogue.map && ctx.catalogue.map.provinces;
    const p = Array.isArray(m) ? m.find((x) => x.id === id) : null;
    return p ? p.name : (card(ctx, id) || { name: id }).name;
  }
  function figureName(ctx, type) {
    const all = (ctx.catalogue && ctx.catalogue.figures) || [];
    const f = all.find((x) => x.id === type);
    return f ? f.name : type;
  }

  /* -- small builders -- */
  function stats(rows) {
    const d = el("dl", { class: "stats" });
    for (const [label, value] of rows) if (value !== undefined && value !== null && value !== "") d.append(el("dt", {}, label), el("dd", {}, String(value)));
    return d;
  }
  /* one card with its full text: name, kind, cost, text */
  function cardItem(ctx, id, kinds, extra) {
    const c = card(ctx, id, kinds);
    const li = el("li", { class: "game-card", "data-card": id });
    li.append(el("strong", {}, c ? c.name : id));
    const facts = [];
    if (c && c.type_name) facts.push(c.type_name);
    if (c && c.season_name) facts.push(c.season_name);
    if (c && Number.isInteger(c.cost)) facts.push(interpolate(gettext("cost %(cost)s"), { cost: c.cost }, true));
    if (c && Number.isInteger(c.hp)) facts.push(interpolate(gettext("%(hp)s hit points"), { hp: c.hp }, true));
    if (extra) facts.push(extra);
    if (facts.length) li.append(" ", el("span", { class: "muted" }, "(" + facts.join(" · ") + ")"));
    if (c && c.text) li.append(el("p", { class: "card-text" }, c.text));
    return li;
  }
  function cardList(ctx, ids, kinds, empty) {
    if (!ids || !ids.length) return el("p", { class: "muted" }, empty || gettext("No cards."));
    return el("ul", { class: "cards" }, ...ids.map((id) => cardItem(ctx, id, kinds)));
  }
  /* the part of the mat only this seat sees, marked so at a glance and for a screen reader */
  function secret(title, ...children) {
    const box = el("section", { class: "secret", "aria-label": title + " — " + gettext("only you see this") });
    box.append(el("h4", {}, title, " ", el("span", { class: "only-you" }, gettext("only you see this"))), ...children);
    return box;
  }
  function at(obj, path) {
    let node = obj;
    for (const key of path.split(".")) {
      if (node === null || typeof node !== "object" || !(key in node)) return undefined;
      node = node[key];
    }
    return node;
  }
  function ordinal(n, of) { return interpolate(gettext("%(rank)s of %(count)s"), { rank: n, count: of }, true); }

  /* -- Rising Sun -- */
  const ADVANTAGES = { seppuku: gettext("Seppuku"), hostage: gettext("Take Hostage"), ronin: gettext("Hire Ronin"), poets: gettext("Imperial Poets") };  // translated when the page loads (/jsi18n/ comes first)
  function risingSun(ctx, seat, full) {
    const st = ctx.state, p = (st.players || [])[seat];
    if (!p) return [];
    const clan = faction(ctx, p.clan);
    const out = [];
    const rank = (st.honor || []).indexOf(seat);
    const ally = (st.alliances || [])[seat];
    out.push(stats([
      [gettext("Honor"), rank >= 0 ? ordinal(rank + 1, st.honor.length) : ""],
      [gettext("Coins"), p.coins], [gettext("Ronin"), p.ronin], [gettext("Victory points"), p.vp],
      [gettext("Strongholds"), (p.strongholds || []).map((x) => place(ctx, x)).join(", ") || "—"],
      [gettext("War tokens"), (p.war_tokens || []).length],
      [gettext("Alliance"), ally === null || ally === undefined ? "—" : ctx.seatName(ally)],
    ]));
    if (full && clan && clan.ability) out.push(el("p", { class: "ability" }, el("strong", {}, clan.ability.name), " — ", clan.ability.text));
    out.push(el("h4", {}, gettext("Cards")), full ? cardList(ctx, p.cards, ["season_card"]) : el("p", {}, (p.cards || []).map((id) => (card(ctx, id) || { name: id }).name).join(", ") || "—"));
    if (!full) return out;
    for (const path of ctx.private) {
      const value = at(st, path);
      if (value === undefined || value === null) continue;
      if (path.startsWith("track.")) out.push(secret(gettext("Your face-down mandate"), cardList(ctx, [value], ["mandate"])));
      else if (path === "drawn_tiles") out.push(secret(gettext("The mandates you drew"), cardList(ctx, value, ["mandate"])));
      else if (path.startsWith("battle.bids.")) {
        out.push(secret(gettext("Your sealed war bid"), stats(Object.entries(value).map(([k, v]) => [ADVANTAGES[k] ? ADVANTAGES[k] : k, v]))));
      } else if (path === "prompt") {
        const entry = ((ctx.catalogue && ctx.catalogue.prompts) || []).find((x) => x.kind === value.what);
        out.push(secret(entry ? entry.label : gettext("Your choice"), el("p", {}, (value.options || []).map((o) => (typeof o === "object" ? JSON.stringify(o) : place(ctx, String(o)))).join(", "))));
      }
    }
    return out;
  }

  /* -- Shogun -- */
  const SLOTS = { bid: gettext("Bid for the turn order"), court1: gettext("Court, 1st place"), court2: gettext("Court, 2nd place"), court3: gettext("Court, 3rd place") };  // translated when the page loads (/jsi18n/ comes first)
  function shogun(ctx, seat, full) {
    const st = ctx.state, p = (st.players || [])[seat];
    if (!p) return [];
    const owned = Object.entries(st.provinces || {}).filter(([, x]) => x.owner === seat);
    const armies = owned.reduce((n, [, x]) => n + (x.armies || 0), 0);
    const out = [stats([
      [gettext("Gold"), p.money], [gettext("Rice"), p.rice], [gettext("Victory points"), p.vp],
      [gettext("Provinces"), owned.length], [gettext("Armies on the map"), armies], [gettext("Armies in supply"), (st.supply || [])[seat]],
      [gettext("Court officials"), p.officials],
    ])];
    if (p.special) out.push(el("h4", {}, gettext("Special card")), cardList(ctx, [p.special], ["special"]));
    if (!full) return out;
    out.push(el("h4", {}, gettext("Your provinces")), owned.length ? el("ul", { class: "cards" }, ...owned.map(([id, x]) => el("li", {}, el("strong", {}, place(ctx, id)), " — ", shogunPieces(ctx, x).join(", ")))) : el("p", { class: "muted" }, "—"));
    for (const path of ctx.private) {
      const plans = at(st, path);
      if (!plans || typeof plans !== "object") continue;
      const rows = Object.entries(plans).map(([slot, id]) => {
        const action = card(ctx, slot, ["action"]);
        const what = card(ctx, id, ["war_chest", "tower"]);
        return el("li", {}, el("strong", {}, action ? action.name : SLOTS[slot] ? SLOTS[slot] : slot), ": ", what ? what.name : place(ctx, id));
      });
      out.push(secret(gettext("Your planning board"), rows.length ? el("ul", { class: "cards" }, ...rows) : el("p", { class: "muted" }, gettext("Nothing planned yet."))));
    }
    return out;
  }
  function shogunPieces(ctx, x) {
    const out = [];
    if (x.armies) out.push(interpolate(gettext("%(count)s armies"), { count: x.armies }, true));
    for (const b of ["castle", "temple", "theatre"]) if (x[b]) out.push(figureName(ctx, b));
    if (x.markers) out.push(interpolate(gettext("%(count)s revolt markers"), { count: x.markers }, true));
    return out;
  }

  /* -- Imjin -- */
  function imjin(ctx, seat, full) {
    const st = ctx.state;
    const side = (st.side || [])[seat];
    const f = faction(ctx, (st.faction || [])[seat]) || faction(ctx, side);
    const units = Object.values(st.units || {}).filter((u) => u.owner === seat);
    const hand = ((st.hands || [])[seat]) || { cards: [], hidden: 0 };
    const onMap = Object.entries(st.generals || {}).filter(([, g]) => g.owner === seat && g.where === "map").map(([id]) => id);
    const out = [stats([
      [gettext("Side"), f ? f.name : side],
      [gettext("Supply"), (st.supply || [])[seat]],
      [gettext("Income"), st.income && st.income[side]],
      [gettext("Land territories"), st.lands && st.lands[side]],
      [gettext("Units"), units.length], [gettext("Troops"), units.reduce((n, u) => n + (u.troops || 0), 0)],
      [gettext("Generals in hand"), (hand.cards || []).length + (hand.hidden || 0)],
    ])];
    out.push(el("h4", {}, gettext("Generals on the map")), full ? cardList(ctx, onMap, ["general"], gettext("None.")) : el("p", {}, onMap.map((id) => (card(ctx, id) || { name: id }).name).join(", ") || "—"));
    if (!full) {
      if (hand.cards.length) out.push(el("p", {}, gettext("Known in hand:"), " ", hand.cards.map((id) => (card(ctx, id) || { name: id }).name).join(", ")));
      return out;
    }
    if (ctx.private.includes("hands." + seat)) out.push(secret(gettext("Your hand"), cardList(ctx, hand.cards, ["general"], gettext("No generals in hand."))));
    const picks = (st.picks || [])[seat];
    if (ctx.private.includes("picks." + seat) && Array.isArray(picks) && picks.length) {
      out.push(secret(gettext("Your picks"), el("p", {}, picks.map((id) => (card(ctx, id) || { name: id }).name).join(", "))));
    }
    return out;
  }
  const RULESETS = { "rising-sun": risingSun, shogun: shogun, imjin: imjin };

  /* the seat's own mat (full: every card with its text and the private parts) */
  function mine(box, ctx) {
    const draw = RULESETS[ctx.ruleset];
    const parts = draw ? draw(ctx, ctx.seat, true) : [];
    box.replaceChildren(el("p", {}, interpolate(gettext("You play %(seat)s."), { seat: ctx.seatName(ctx.seat) }, true)), ...parts);
  }
  /* everyone else's public mat, in short */
  function others(box, ctx, seats) {
    const draw = RULESETS[ctx.ruleset];
    if (!draw) { box.replaceChildren(); return; }
    box.replaceChildren(...seats.filter((s) => s !== ctx.seat).map((s) => {
      const d = el("details", { class: "other-mat", "data-seat": s });
      d.append(el("summary", {}, ctx.seatName(s)), ...draw(ctx, s, false));
      return d;
    }));
  }

  /* -- the board in words: province -> its pieces, in the page's language -- */
  function pieces(ctx, state) {
    const out = {};
    const add = (where, text) => { (out[where] = out[where] || []).push(text); };
    const st = state || {};
    if (ctx.ruleset === "rising-sun") {
      const groups = {};
      for (const f of Object.values(st.figures || {})) {
        if (!f.at || f.at === "reserve") continue;
        const name = f.type === "monster" ? (card(ctx, f.name) || { name: f.name }).name : figureName(ctx, f.type);
        const key = f.at + "|" + f.owner + "|" + name;
        groups[key] = (groups[key] || 0) + 1;
      }
      for (const [q, p] of (st.players || []).entries()) for (const s of p.strongholds || []) { const key = s + "|" + q + "|" + figureName(ctx, "stronghold"); groups[key] = (groups[key] || 0) + 1; }
      for (const [key, n] of Object.entries(groups).sort()) {
        const [where, owner, name] = key.split("|");
        add(where, ctx.seatName(parseInt(owner, 10)) + ": " + (n > 1 ? n + " × " : "") + name);
      }
    } else if (ctx.ruleset === "shogun") {
      for (const [id, x] of Object.entries(st.provinces || {})) {
        const list = shogunPieces(ctx, x);
        if (x.owner !== null && x.owner !== undefined) add(id, ctx.seatName(x.owner) + (list.length ? ": " + list.join(", ") : ""));
        else if (list.length) add(id, list.join(", "));
      }
    } else if (ctx.ruleset === "imjin") {
      for (const u of Object.values(st.units || {})) {
        const general = u.general ? ", " + (card(ctx, u.general) || { name: u.general }).name : "";
        add(u.area, ctx.seatName(u.owner) + ": " + interpolate(gettext("%(count)s troops"), { count: u.troops }, true) + general);
      }
    }
    return out;
  }
  /* the text alternative: one item per province with pieces, in the catalogue's order */
  function boardList(list, ctx, changed) {
    const now = pieces(ctx, ctx.state);
    const provinces = (ctx.catalogue && ctx.catalogue.map && ctx.catalogue.map.provinces) || [];
    // provinces with pieces, and those emptied since you last looked (a change too)
    const ids = provinces.map((p) => p.id).filter((id) => now[id] || (changed && changed.has(id)));
    for (const id of Object.keys(now)) if (!ids.includes(id)) ids.push(id);  // shrines and the like
    if (changed) for (const id of changed) if (!ids.includes(id)) ids.push(id);
    list.replaceChildren(...ids.map((id) => {
      const li = el("li", { "data-province": id }, el("strong", {}, place(ctx, id)), ": " + (now[id] ? now[id].join("; ") : gettext("no pieces")));
      if (changed && changed.has(id)) { li.classList.add("changed"); li.append(" ", el("span", { class: "new-mark" }, gettext("changed"))); }
      return li;
    }));
    if (!ids.length) list.replaceChildren(el("li", { class: "muted" }, gettext("No pieces on the board yet.")));
  }
  /* provinces whose pieces differ between two views */
  function changedProvinces(ctx, before) {
    const a = pieces(ctx, before), b = pieces(ctx, ctx.state);
    const out = new Set();
    for (const id of new Set([...Object.keys(a), ...Object.keys(b)])) if ((a[id] || []).join("\n") !== (b[id] || []).join("\n")) out.add(id);
    return out;
  }

  /* the board's side panel as HTML (legible at any width): season, and a legend of the
     seats' colours with their scores */
  function swatch(colour) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("width", "14"); svg.setAttribute("height", "14"); svg.setAttribute("aria-hidden", "true"); svg.setAttribute("class", "swatch");
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("width", "14"); r.setAttribute("height", "14"); r.setAttribute("fill", colour || "#888"); r.setAttribute("stroke", "#333");
    svg.append(r);
    return svg;
  }
  const SEASONS = { spring: gettext("Spring"), summer: gettext("Summer"), autumn: gettext("Autumn"), winter: gettext("Winter") };  // translated when the page loads (/jsi18n/ comes first)
  function season(ctx) {
    const st = ctx.state;
    if (ctx.ruleset === "rising-sun" && Number.isInteger(st.season)) {
      const s = ((ctx.catalogue && ctx.catalogue.seasons) || [])[st.season];
      return s ? interpolate(gettext("Season: %(season)s"), { season: s.name }, true) : "";
    }
    if (ctx.ruleset === "shogun" && st.year) return interpolate(gettext("Year %(year)s, %(season)s"), { year: st.year, season: SEASONS[st.season_name] ? SEASONS[st.season_name] : st.season_name }, true);
    if (ctx.ruleset === "imjin" && st.resets !== undefined) return interpolate(gettext("Resets so far: %(count)s"), { count: st.resets }, true);
    return "";
  }
  function panel(box, ctx, seats) {
    const scores = ctx.header.scores || [];
    const label = ctx.ruleset === "imjin" ? gettext("land territories") : gettext("VP");
    const legend = el("ul", { class: "legend" }, ...seats.map((s) => {
      const f = faction(ctx, ctx.factionOf(s));
      return el("li", {}, swatch(f && f.colour), " ", ctx.seatName(s), scores[s] !== undefined ? " — " + scores[s] + " " + label : "");
    }));
    box.replaceChildren(el("p", { class: "season" }, season(ctx)), el("h3", {}, gettext("Legend")), legend);
  }

  /* -- since you last looked -- */
  function sinceNote(note, count) {
    note.textContent = interpolate(gettext("%(count)s new since you last looked"), { count }, true);
    note.hidden = count <= 0;
  }

  return { mine, others, boardList, changedProvinces, panel, sinceNote, pieces };
})();
