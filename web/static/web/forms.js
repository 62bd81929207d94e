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
  function field(name, p, required, value, labels, seats) {
    const id = "sf-" + ++uid + "-" + name;
    const wrap = el("div", { class: "field" });
    const label = el("label", { for: id }, (labels && labels[name]) || p.title || name.replace(/_/g, " "));
    let input;
    let choices = enumOf(p);
    let names = null;
    if (!choices && seats && p.type === "integer" && /^(to|seat|from|target_seat|player)$/.test(name)) {
      choices = seats.map((s) => s.index);  // a seat: chosen by its player's name, not its number
      names = Object.fromEntries(seats.map((s) => [s.index, s.name]));
    }
    const itemChoices = p.type === "array" ? enumOf(p.items) : null;
    if (choices) {
      input = el("select", { id, name, "data-kind": "enum" });
      if (!required) input.append(el("option", { value: "" }, "—"));
      for (const c of choices) input.append(el("option", { value: JSON.stringify(c) }, names ? names[c] : String(c)));
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
        l.append(box, " " + String(c));
        input.append(l);
      });
      wrap.append(input);
      return wrap;
    } else {
      const json = p.type === "array" || p.type === "object";
      input = el("input", { id, name, type: "text", "data-kind": json ? "json" : "string", placeholder: json ? "JSON" : "" });
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
      container.append(field(name, p, req.has(name), (opts.values || {})[name], opts.labels, opts.seats));
    }
  }
  /* The object the inputs describe; fixed properties (const) filled in. */
  function read(container, schema) {
    const out = {};
    for (const [name, p] of Object.entries(schema.properties || {})) if ("const" in p) out[name] = p.const;
    for (const input of container.querySelectorAll("[data-kind]")) {
      const name = input.getAttribute("name") || input.dataset.name;
      const kind = input.dataset.kind;
      if (kind === "boolean") out[name] = input.checked;
      else if (kind === "multi") out[name] = [...input.querySelectorAll("input:checked")].map((b) => JSON.parse(b.value));
      else if (input.value === "") continue;
      else if (kind === "enum" || kind === "json") out[name] = JSON.parse(input.value);
      else if (kind === "integer") out[name] = parseInt(input.value, 10);
      else if (kind === "number") out[name] = Number(input.value);
      else out[name] = input.value;
    }
    return out;
  }
  return { build, read, el, enumOf };
})();
