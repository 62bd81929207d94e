/* Small forms from JSON Schema (ruleset options, command templates).
   One input per property: enum -> select, boolean -> checkbox, integer/number -> number,
   array of enum -> checkboxes, anything else -> text (JSON for arrays/objects). */
"use strict";
window.SchemaForm = (function () {
  let uid = 0;
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === true) e.setAttribute(k, "");
      else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
    }
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function enumOf(p) {
    if (!p) return null;
    if (Array.isArray(p.enum)) return p.enum;
    if (Array.isArray(p.oneOf) && p.oneOf.every((o) => "const" in o)) return p.oneOf.map((o) => o.const);
    return null;
  }
  /* opts.words (optional): {label(name), option(name, value)}, the words of the
     game for a field and its choices (moves.js); opts.labels: {name: label}. */
  function field(name, p, required, value, opts) {
    const labels = opts.labels, seats = opts.seats, words = opts.words;
    const id = "sf-" + ++uid + "-" + name;
    const wrap = el("div", { class: "field" });
    const short = name.slice(name.lastIndexOf(".") + 1);
    const label = el("label", { for: id }, (words && words.label(name)) || (labels && labels[short]) || p.title || short.replace(/_/g, " "));
    let input;
    if (p.type === "object" && p.properties) {
      // a nested object (Shogun's plan: one choice per action space): a fieldset of its own
      const set = el("fieldset", { class: "nested" });
      set.append(el("legend", {}, (words && words.label(name)) || (labels && labels[name]) || p.title || name.replace(/_/g, " ")));
      build(set, p, { values: value || {}, labels, seats, words, prefix: name + "." });
      return set;
    }
    let choices = enumOf(p);
    let names = null;
    if (!choices && seats && p.type === "integer" && /^(to|seat|from|target_seat|player)$/.test(name)) {
      choices = seats.map((s) => s.index);  // a seat: chosen by its player's name, not its number
      names = Object.fromEntries(seats.map((s) => [s.index, s.name]));
    }
    const itemChoices = p.type === "array" ? enumOf(p.items) : null;
    if (choices) {
      input = el("select", { id, name, "data-kind": "enum" });
      const given = value !== undefined || p.default !== undefined;
      if (!required) input.append(el("option", { value: "" }, "—"));
      else if (!given) input.append(el("option", { value: "", disabled: true, selected: true }, gettext("Choose…")));
      input.required = required;
      const said = (c) => (names ? names[c] : words ? words.option(name, c) : c === null ? gettext("— (nothing)") : String(c));
      for (const c of choices) input.append(el("option", { value: JSON.stringify(c) }, said(c)));
      const v = value !== undefined ? value : p.default;
      if (v !== undefined) input.value = JSON.stringify(v);
    } else if (p.type === "boolean") {
      input = el("input", { id, name, type: "checkbox", "data-kind": "boolean" });
      input.checked = value !== undefined ? !!value : !!p.default;
      wrap.classList.add("check");
      wrap.append(input, label);
      return wrap;
    } else if (p.type === "integer" || p.type === "number") {
      input = el("input", { id, name, type: "number", "data-kind": p.type, min: p.minimum, max: p.maximum, step: p.type === "integer" ? 1 : "any" });
      const v = value !== undefined ? value : p.default;
      if (v !== undefined) input.value = v;
      if (required) input.required = true;
    } else if (itemChoices) {
      input = el("fieldset", { id, "data-kind": "multi", "data-name": name });
      input.append(el("legend", {}, label.textContent));
      itemChoices.forEach((c, i) => {
        const cid = id + "-" + i;
        const box = el("input", { type: "checkbox", id: cid, value: JSON.stringify(c) });
        const l = el("label", { for: cid, class: "check" });
        l.append(box, " " + (words ? words.option(name, c) : String(c)));
        input.append(l);
      });
      wrap.append(input);
      return wrap;
    } else {
      const json = p.type === "array" || p.type === "object";
      input = el("input", { id, name, type: "text", "data-kind": json ? "json" : "string", placeholder: json ? "[…]" : "" });
      const v = value !== undefined ? value : p.default;
      if (v !== undefined) input.value = json ? JSON.stringify(v) : v;
      if (required) input.required = true;
    }
    wrap.append(label, input);
    if (p.description) {
      const d = el("small", { class: "muted", id: id + "-help" }, p.description);
      input.setAttribute("aria-describedby", d.id);
      wrap.append(d);
    }
    return wrap;
  }
  /* Inputs for every property of `schema` except the fixed ones (e.g. "type"). */
  function build(container, schema, opts) {
    opts = opts || {};
    const req = new Set(schema.required || []);
    for (const [name, p] of Object.entries(schema.properties || {})) {
      if ("const" in p || (opts.skip || []).includes(name)) continue;
      const f = field((opts.prefix || "") + name, p, req.has(name), (opts.values || {})[name], opts);
      container.append(f);
    }
  }
  /* The object the inputs describe; fixed properties (const) filled in; "a.b" names nest. */
  function read(container, schema) {
    const out = {};
    for (const [name, p] of Object.entries(schema.properties || {})) if ("const" in p) out[name] = p.const;
    for (const input of container.querySelectorAll("[data-kind]")) {
      const path = (input.getAttribute("name") || input.dataset.name).split(".");
      const kind = input.dataset.kind;
      let value;
      if (kind === "boolean") value = input.checked;
      else if (kind === "multi") value = [...input.querySelectorAll("input:checked")].map((b) => JSON.parse(b.value));
      else if (input.value === "") continue;
      else if (kind === "enum" || kind === "json") value = JSON.parse(input.value);
      else if (kind === "integer") value = parseInt(input.value, 10);
      else if (kind === "number") value = Number(input.value);
      else value = input.value;
      let at = out;
      for (const key of path.slice(0, -1)) at = at[key] = at[key] || {};
      at[path[path.length - 1]] = value;
    }
    return out;
  }
  /* Put a command's values into the inputs (an example to start from). */
  function fill(container, command, prefix) {
    for (const [k, v] of Object.entries(command)) {
      const name = (prefix || "") + k;
      if (v && typeof v === "object" && !Array.isArray(v)) { fill(container, v, name + "."); continue; }
      const input = container.querySelector('[name="' + name + '"]');
      if (!input) continue;
      if (input.dataset.kind === "boolean") input.checked = !!v;
      else if (input.dataset.kind === "enum" || input.dataset.kind === "json") input.value = JSON.stringify(v);
      else input.value = v;
    }
  }
  return { build, read, fill, el, enumOf };
})();
