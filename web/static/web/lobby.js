/* The create-game form: players and options follow the chosen ruleset's schema. */
"use strict";
(function () {
  const form = document.getElementById("create-form");
  if (!form) return;
  const sets = JSON.parse(document.getElementById("rulesets").textContent);
  const ruleset = form.querySelector("#id_ruleset");
  const players = form.querySelector("#id_players");
  const bots = form.querySelector("#id_bots");
  const box = document.getElementById("options");
  let schema = null;
  function counts() {
    return (sets.find((r) => r.id === ruleset.value) || { per_players: [] }).per_players;
  }
  function refresh() {
    const per = counts();
    const ns = per.map((c) => c.players);
    if (!ns.length) return;
    players.min = Math.min(...ns);
    players.max = Math.max(...ns);
    if (!ns.includes(parseInt(players.value, 10))) players.value = ns[0];
    bots.max = parseInt(players.value, 10) - 1;
    if (parseInt(bots.value, 10) > bots.max) bots.value = bots.max;
    const entry = per.find((c) => c.players === parseInt(players.value, 10)) || per[0];
    schema = entry.options;
    box.querySelectorAll(".field").forEach((f) => f.remove());
    SchemaForm.build(box, schema);
  }
  ruleset.addEventListener("change", refresh);
  players.addEventListener("change", refresh);
  form.addEventListener("submit", () => {
    if (schema) form.querySelector("[name=options]").value = JSON.stringify(SchemaForm.read(box, schema));
  });
  refresh();
})();
