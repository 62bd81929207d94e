/* The public API from the page, with the session cookie (CSRF on writes), and
   the Server-Sent Events stream read with fetch (event names are event types,
   which EventSource can only hear one by one). */
"use strict";
window.Api = (function () {
  function csrf() {
    const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  async function call(method, path, body) {
    const opts = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (method !== "GET") {
      opts.headers["X-CSRFToken"] = csrf();
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body === undefined ? {} : body);
    }
    const r = await fetch("/api/v1" + path, opts);
    const text = await r.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
    if (!r.ok) {
      const err = new Error((data && data.detail) || gettext("The request failed."));
      err.status = r.status;
      err.code = data && data.code;
      throw err;
    }
    return data;
  }
  async function text(path) {
    const r = await fetch(path, { credentials: "same-origin" });
    if (!r.ok) { const e = new Error(r.statusText); e.status = r.status; throw e; }
    return r.text();
  }
  /* Follow an SSE stream; onEvent({id, event, data}) per frame. Reconnects after
     the last id it saw; stops on `end` or when stop() is called. */
  function stream(path, after, onEvent, onState) {
    let last = after, stopped = false, ctl = null;
    async function run() {
      while (!stopped) {
        ctl = new AbortController();
        try {
          const sep = path.includes("?") ? "&" : "?";
          const r = await fetch("/api/v1" + path + sep + "stream=1&after=" + last, {
            credentials: "same-origin", headers: { Accept: "text/event-stream" }, signal: ctl.signal,
          });
          if (!r.ok) throw new Error("stream " + r.status);
          onState && onState("live");
          const reader = r.body.getReader();
          const dec = new TextDecoder();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buf += dec.decode(value, { stream: true });
            let i;
            while ((i = buf.indexOf("\n\n")) >= 0) {
              const frame = buf.slice(0, i); buf = buf.slice(i + 2);
              const ev = { id: null, event: "message", data: "" };
              for (const line of frame.split("\n")) {
                if (line.startsWith(":")) continue;
                const k = line.indexOf(":");
                const f = k < 0 ? line : line.slice(0, k), v = k < 0 ? "" : line.slice(k + 1).replace(/^ /, "");
                if (f === "id") ev.id = v; else if (f === "event") ev.event = v; else if (f === "data") ev.data += (ev.data ? "\n" : "") + v;
              }
              if (ev.id !== null && /^\d+$/.test(ev.id)) last = parseInt(ev.id, 10);
              if (ev.event === "end") { stopped = true; onState && onState("ended"); return; }
              if (ev.event === "reconnect") continue;
              if (ev.data) { try { ev.data = JSON.parse(ev.data); } catch (e) { /* plain text */ } onEvent(ev); }
            }
          }
        } catch (e) {
          if (stopped) return;
        }
        onState && onState("reconnecting");
        await new Promise((res) => setTimeout(res, 2000));
      }
    }
    run();
    return { stop() { stopped = true; if (ctl) ctl.abort(); } };
  }
  return { call, text, stream, csrf };
})();
