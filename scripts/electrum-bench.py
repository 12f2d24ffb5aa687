#!/usr/bin/env python3
"""Benchmark: the watcher following N addresses over one Electrum server's scripthash push.

For each N (default 10000, 100000) the script:

1. starts `watcher simnet` with its Electrum face (`--electrum-port`, electrs personality, `--block-interval 0`);
2. writes a config with one `electrum` provider (no rate limit), one `address` watch of N generated P2WPKH
   addresses (push on, the default) and a `file` sink;
3. runs `watcher run` as a separate process and times, from its start, until the simnet has counted N
   `blockchain.scripthash.subscribe` (the `electrum` family's per-method counter in /control/stats);
4. waits until the watcher's Electrum traffic settles (no new request for --settle seconds, at most --settle-max),
   the engine's own first reads of the addresses included;
5. reads RssAnon and VmRSS of the watcher process (/proc/<pid>/status) at the N subscriptions and after settling,
   and the peak of 1 s samples;
6. with --payments K (default 20; 0 skips): K times, pays one followed address (POST /control/tx) and times until
   its `address.tx.unconfirmed` is in the file sink (the file is polled every 10 ms).

It prints one line per N and a Markdown table, and writes raw results as JSON.

Usage:
    python3 scripts/electrum-bench.py --watcher .build-release/release/watcher
    python3 scripts/electrum-bench.py --watcher .build/debug/watcher --sizes 10000 --payments 20

Options: --watcher PATH (the watcher CLI binary; also runs the simnet), --sizes N,N,... (default 10000,100000),
--payments K (default 20, at the first size only unless --payments-all), --seed (default 42),
--settle S (default 5), --settle-max S (default 300), --subscribe-timeout S (default 900),
--workdir (default /tmp/electrumbench-run), --results PATH (default /tmp/electrumbench-results.json).
"""

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import time

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("scanbench", os.path.join(_here, "scan-bench.py"))
sb = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sb)


def proc_status(pid):
    with open(f"/proc/{pid}/status") as f:
        text = f.read()

    def kib(name):
        m = re.search(rf"{name}:\s+(\d+)", text)
        return int(m.group(1)) if m else None

    return {"RssAnon": kib("RssAnon"), "VmRSS": kib("VmRSS"), "VmHWM": kib("VmHWM"), "RssFile": kib("RssFile")}


def electrum_counts(base):
    fam = sb.jget(base + "/control/stats")["families"].get("electrum", {})
    return fam.get("requests", 0), dict(fam.get("endpoints", {}))


def run_one(args, n, payments, log):
    work = os.path.join(args.workdir, f"n{n}")
    subprocess.run(["rm", "-rf", work], check=False)
    os.makedirs(work)
    result = {"n": n, "binary": args.watcher}
    sim_port, el_port = sb.free_port(), sb.free_port()
    sim_err = open(os.path.join(work, "simnet.err"), "w")
    simnet = subprocess.Popen(
        [args.watcher, "simnet", "--port", str(sim_port), "--seed", str(args.seed), "--block-interval", "0",
         "--electrum-port", str(el_port)], stdout=sim_err, stderr=sim_err)
    base = f"http://127.0.0.1:{sim_port}"
    watcher = None
    try:
        def sim_up():
            if simnet.poll() is not None:
                raise RuntimeError(f"simnet exited {simnet.returncode}")
            try:
                return sb.jget(base + "/control/electrum").get("port")
            except (OSError, RuntimeError):
                return None
        sb.wait_until(sim_up, time.time() + 60, what="simnet")
        addresses = sb.make_addresses(n, args.seed, tag="electrum")
        events_path = os.path.join(work, "events.jsonl")
        config = {
            "storage": {"path": os.path.join(work, "data")},
            "providers": [{"id": "el", "type": "electrum", "chain": "btc",
                           "options": {"url": f"tcp://127.0.0.1:{el_port}", "timeout": "60s"}}],
            "watches": [{"id": "shop", "type": "address", "chain": "btc", "providers": ["el"],
                         "addresses": addresses}],
            "sinks": [{"id": "file", "type": "file", "events": ["address.*"],
                       "options": {"path": events_path}}],
        }
        config_path = os.path.join(work, "watcher.json")
        with open(config_path, "w") as f:
            json.dump(config, f)
        sb.jpost(base + "/control/stats/reset", {})
        w_err = open(os.path.join(work, "watcher.err"), "w")
        env = dict(os.environ, WATCHER_LOG_LEVEL="error")
        t_start = time.time()
        watcher = subprocess.Popen([args.watcher, "run", "--config", config_path], stdout=w_err, stderr=w_err,
                                   cwd=work, env=env)
        sampler = sb.MemSampler(watcher.pid)
        sampler.start()

        def subscribed():
            if watcher.poll() is not None:
                raise RuntimeError(f"watcher exited {watcher.returncode}: {open(w_err.name).read()[-2000:]}")
            _, endpoints = electrum_counts(base)
            return endpoints.get("blockchain.scripthash.subscribe", 0) >= n
        sb.wait_until(subscribed, t_start + args.subscribe_timeout, step=0.1, what=f"{n} subscriptions")
        result["subscribeSeconds"] = round(time.time() - t_start, 2)
        result["atSubscribed"] = proc_status(watcher.pid)
        log(f"[N={n}] {n} subscribed {result['subscribeSeconds']} s after start; {result['atSubscribed']}")

        # Settle: no new Electrum request for --settle seconds.
        last, quiet_since, t_settle = -1, time.time(), time.time()
        while time.time() - t_settle < args.settle_max:
            count, _ = electrum_counts(base)
            if count != last:
                last, quiet_since = count, time.time()
            elif time.time() - quiet_since >= args.settle:
                break
            time.sleep(0.5)
        result["settledSeconds"] = round(time.time() - t_start, 1)
        result["settled"] = proc_status(watcher.pid)
        result["electrumEndpoints"] = electrum_counts(base)[1]
        log(f"[N={n}] settled {result['settledSeconds']} s after start; {result['settled']}")

        latencies = []
        tail = sb.EventTail(events_path)
        for i in range(payments):
            address = addresses[(i * 7919) % n]
            tail.poll()
            sent = time.time()
            txid = sb.jpost(base + "/control/tx", {"to": address, "amountSat": 20_000 + i})["txid"]
            deadline = sent + 60
            while True:
                tail.poll()
                seen, _ = tail.find("address.tx.unconfirmed", txid)
                if seen is not None:
                    latencies.append(round(seen - sent, 3))
                    break
                if time.time() > deadline:
                    raise TimeoutError(f"payment {txid} to {address} not announced within 60 s")
                time.sleep(0.01)
        if latencies:
            result["paymentLatencies"] = latencies
            result["paymentP50"] = sb.pct(latencies, 0.5)
            result["paymentMax"] = max(latencies)
            log(f"[N={n}] {payments} payments: p50 {result['paymentP50']} s, max {result['paymentMax']} s")
        result["peakRssMiB"], result["peakAnonMiB"] = sampler.max_between()
        result["end"] = proc_status(watcher.pid)
        sampler.stop_flag.set()
        return result
    finally:
        sb.terminate(watcher)
        sb.terminate(simnet)


def table(results):
    rows = ["| N | subscribed after start | RssAnon at N subscribed | RssAnon settled | peak RssAnon | VmRSS settled "
            "| payment p50 / max |", "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        pay = f"{r['paymentP50']} s / {r['paymentMax']} s" if "paymentP50" in r else "—"
        rows.append(f"| {r['n']:,} | {r['subscribeSeconds']} s | {r['atSubscribed']['RssAnon'] / 1024:.1f} MiB "
                    f"| {r['settled']['RssAnon'] / 1024:.1f} MiB | {r['peakAnonMiB']} MiB "
                    f"| {r['settled']['VmRSS'] / 1024:.1f} MiB | {pay} |")
    return "\n".join(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--watcher", required=True)
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--payments", type=int, default=20)
    parser.add_argument("--payments-all", action="store_true")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--settle", type=float, default=5)
    parser.add_argument("--settle-max", type=float, default=300)
    parser.add_argument("--subscribe-timeout", type=float, default=900)
    parser.add_argument("--workdir", default="/tmp/electrumbench-run")
    parser.add_argument("--results", default="/tmp/electrumbench-results.json")
    args = parser.parse_args()
    args.watcher = os.path.abspath(args.watcher)

    def log(text):
        print(text, file=sys.stderr, flush=True)

    results = []
    for index, n in enumerate(int(s) for s in args.sizes.split(",")):
        payments = args.payments if index == 0 or args.payments_all else 0
        results.append(run_one(args, n, payments, log))
        with open(args.results, "w") as f:
            json.dump(results, f, indent=1)
    print(table(results))


if __name__ == "__main__":
    main()
