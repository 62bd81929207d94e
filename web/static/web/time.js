/* Dates, times and remaining time in the page's language (<html lang>) and the browser's
   time zone, through Intl: the server sends ISO 8601 instants, the reader sees
   "28 Nov 2026, 10:20" or "2026年11月28日 10:20" and "in 3 hours" in their own words. */
"use strict";
window.Time = (function () {
  function lang() { return document.documentElement.lang || "en"; }
  function parse(when) { return when instanceof Date ? when : new Date(when); }
  /* a date and time, e.g. for a deadline: medium date, short time, the browser's zone */
  function dateTime(when) {
    const d = parse(when);
    if (isNaN(d)) return "";
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(d);
  }
  function date(when) {
    const d = parse(when);
    return isNaN(d) ? "" : new Intl.DateTimeFormat(lang(), { dateStyle: "medium" }).format(d);
  }
  /* "in 3 hours", "5 minutes ago": the largest unit that fits */
  const UNITS = [["day", 86400], ["hour", 3600], ["minute", 60], ["second", 1]];
  function relative(when, now) {
    const d = parse(when);
    if (isNaN(d)) return "";
    const seconds = Math.round((d - (now === undefined ? Date.now() : now)) / 1000);
    const fmt = new Intl.RelativeTimeFormat(lang(), { numeric: "auto" });
    for (const [unit, size] of UNITS) {
      if (Math.abs(seconds) >= size || unit === "second") return fmt.format(Math.trunc(seconds / size), unit);
    }
    return "";
  }
  /* time left as a duration ("2 h 05 min 09 s", in the page's language where Intl knows
     unit names), never negative */
  function remaining(when, now) {
    const left = Math.max(0, Math.round((parse(when) - (now === undefined ? Date.now() : now)) / 1000));
    const unit = (value, name) => new Intl.NumberFormat(lang(), { style: "unit", unit: name, unitDisplay: "narrow" }).format(value);
    const h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
    const parts = [];
    if (h >= 24) parts.push(unit(Math.floor(h / 24), "day"), unit(h % 24, "hour"));
    else if (h) parts.push(unit(h, "hour"), unit(m, "minute"));
    else parts.push(unit(m, "minute"), unit(s, "second"));
    return parts.join(" ");
  }
  return { dateTime, date, relative, remaining, lang };
})();
