"""The live-streams section of docs/benchmarks.md (results of bench/streams.py)."""

from __future__ import annotations

from bench.common import table


def verdict(ok: bool | None) -> str:
    return "n/a" if ok is None else ("**met**" if ok else "**not met**")


def streams_section(d: dict | None) -> tuple[list[str], list[list[str]]]:
    names = [
        "streams: event on every stream p99 < 1 s",
        "streams: /health p99 < 50 ms",
        "streams: command throughput drop < 20%",
        "streams: nothing leaks after closing",
    ]
    if d is None:
        return ["_Not measured (run `make bench`)._"], [[n, "n/a", verdict(None)] for n in names]
    dl, hl, res = d["delivery_ms"], d["health_ms"], d["resources"]
    lines = [
        f"Measured {d['measured_at']} on {d['machine']}: gunicorn + uvicorn workers ({d['workers']}) on "
        f"config.asgi, database {d['database']}, Redis {'yes' if d['redis'] else 'no'}. "
        f"{d['streams_open']}/{d['streams']} streams open over {d['users']} users and {d['games']} "
        f"`{d['ruleset']}` games while {d['clients']} clients post commands for {d['seconds']:.0f} s; "
        + (
            "the same load ran first without streams, each run on games of its own from their first turn. "
            if d.get("fresh_games")
            else "the same load ran first without streams. "
        )
        + "Delivery is measured per (command, watching stream) "
        "from the command's answer (its commit) to the stream receiving its last event. "
        f"Load average at the end: {d.get('loadavg_1m_at_end', '?')}.",
        "",
        table(
            ["", "value"],
            [
                ["commands/s without streams", d["commands_per_s_without"]],
                ["commands/s with streams", d["commands_per_s_with"]],
                ["throughput drop", f"{d['drop_percent']:.1f}%"],
                ["deliveries (never arrived)", f"{dl['count']:,} ({dl['missing']})"],
                ["delivery p50 / p99 / max (ms)", f"{dl['p50']:.0f} / {dl['p99']:.0f} / {dl['max']:.0f}"],
                [
                    "delivery from sending the command p50 / p99 (ms)",
                    f"{dl.get('from_send_p50', float('nan')):.0f} / {dl.get('from_send_p99', float('nan')):.0f}",
                ],
                ["/health p50 / p99 (ms)", f"{hl['p50']:.1f} / {hl['p99']:.1f}"],
            ],
        ),
        "",
        table(
            ["resource", "before streams", "streams open", "after closing", "after a 2nd round"],
            [
                [
                    k,
                    res["before"].get(k, "-"),
                    res["during"].get(k, "-"),
                    res["after"].get(k, "-"),
                    res.get("after_round_2", {}).get(k, "-"),
                ]
                for k in sorted(set(res["before"]) | set(res["after"]))
            ],
        ),
    ]
    cpu = d.get("cpu_ms_per_command")
    if cpu:
        lines += [
            "",
            "CPU per command (ms of CPU per command posted; clients include the bench's own stream "
            "readers), without → with streams: "
            + ", ".join(
                f"{k} {cpu['without'][k]} → {cpu['with'][k]}" for k in cpu["without"] if k != "machine"
            )
            + ". The difference is what the streams cost; it is CPU the commands no longer get on two cores.",
        ]
    if "after_round_2" in res:
        # pools fill in round one and stay; a leak grows again in round two
        no_leak = all(res["after_round_2"].get(k, 0) <= res["after"].get(k, 0) + 2 for k in res["after"])
    else:  # older results: against the baseline, with room for the fixed pools
        no_leak = all(
            res["after"].get(k, 0) <= res["before"].get(k, 0) + (8 if k == "server threads" else 2)
            for k in res["before"]
        )
    goals = [
        [
            names[0],
            f"{dl['p99']:.0f} ms, {dl['missing']} missing",
            verdict(dl["p99"] < 1000 and not dl["missing"]),
        ],
        [names[1], f"{hl['p99']:.1f} ms", verdict(hl["p99"] < 50)],
        [names[2], f"{d['drop_percent']:.1f}%", verdict(d["drop_percent"] < 20)],
        [names[3], "see the resource table", verdict(no_leak)],
    ]
    return lines, goals
