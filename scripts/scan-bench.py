#!/usr/bin/env python3
"""Benchmark: how the watcher's request cost and memory scale with the number of followed addresses.

For each N (default 100, 1000, 10000, 100000) the script:

1. starts `watcher simnet` on a free loopback port (`--block-interval 0`, `--txs-per-block 2500`,
   `--rate-limit blockbook=20/1m`), and checks that it accepts the script's generated bech32 addresses;
2. writes a config with one `blockbook` provider (rateLimit 20 per 1m), one `address` watch of N generated
   P2WPKH addresses (`strategy: auto`, `confirmations: [1]`) and a `file` sink, and records `watcher check`;
3. runs `watcher run` as a separate process, waits (with a deadline) until it has started up: `/healthz`
   answers and the simnet sees its first tip request, then traffic settles;
4. for K blocks, on a fixed wall-clock interval: pays 3-5 random followed addresses (POST /control/tx),
   waits `--mempool-wait` seconds, mines one block (POST /control/mine);
5. reads /control/stats at every block boundary (requests split by endpoint, 429s), tails the file sink for
   `address.tx.unconfirmed` / `address.tx.confirmed`, and samples /proc/<pid>/status (VmRSS, RssAnon) every
   second.

It prints `watcher check`'s job plan per N and a Markdown table, and writes raw results as JSON.

Usage:
    python3 scripts/scan-bench.py --watcher /tmp/watcher-debug
    python3 scripts/scan-bench.py --watcher /tmp/watcher-release --sizes 100,1000 --blocks 3 --interval 30

Options: --watcher PATH (the watcher CLI binary; also runs the simnet), --sizes N,N,... (default
100,1000,10000,100000), --blocks K (default 5), --interval S (seconds between mined blocks, default 40),
--mempool-wait S (payment to mining, default 8), --txs-per-block (default 2500), --rate REQ (Blockbook
requests per minute, simnet and watcher, default 20), --startup-timeout S (default 600), --settle S (quiet
seconds that end start-up, default 5), --settle-max S (start-up ends at most this long after the first tip
request, default 30), --seed (default 42), --workdir (default /tmp/scanbench-run),
--results PATH (default /tmp/scanbench-results.json), --tail S (keep reading the sink this long after the
last block so late announcements get a latency, default 130), --tip-every DUR (add a `blocks` watch with this
interval; default none: the daemon's implicit tip job, every 2m, which cannot see a 40 s block before the next
one), --websocket (the provider follows Blockbook's /websocket: blocks are pushed; tip requests per hour are then
counted per block, x 6, plus the 5-minute safety poll, instead of per wall-clock second).

Latency in blocks: 0 = `address.tx.confirmed` was in the file before the next block was mined; 1 = after one
more block, etc. (after the last block, virtual blocks every --interval).

Endpoint classes (from the simnet request log): tip = `/api/v2/block-index/` without a height and `/api/`
(status / sync probes); headers = `/api/v2/block-index/<height>`; block pages = `/api/v2/block/...`;
address = `/api/v2/address/...` and `/api/v2/tx/...`; other = anything else (e.g. tickers).
requests/h at 10-minute blocks = (non-tip requests per block) x 6 + tip requests per wall-clock second x 3600.
The block-scan bound is 6 x (1 header + ceil(txs/1000) pages) per hour + the same tip rate; the target is
requests/h <= 1.25 x bound for N >= 1000 with no 429.

Stdlib only.
"""

import argparse
import hashlib
import json
import math
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

# ---------------------------------------------------------------- bech32 (BIP173) ----------

CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def _polymod(values):
    gen = [0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3]
    chk = 1
    for v in values:
        top = chk >> 25
        chk = (chk & 0x1FFFFFF) << 5 ^ v
        for i in range(5):
            chk ^= gen[i] if ((top >> i) & 1) else 0
    return chk


def _hrp_expand(hrp):
    return [ord(x) >> 5 for x in hrp] + [0] + [ord(x) & 31 for x in hrp]


def _convertbits(data, frombits, tobits):
    acc, bits, ret, maxv = 0, 0, [], (1 << tobits) - 1
    for value in data:
        acc = (acc << frombits) | value
        bits += frombits
        while bits >= tobits:
            bits -= tobits
            ret.append((acc >> bits) & maxv)
    if bits:
        ret.append((acc << (tobits - bits)) & maxv)
    return ret


def segwit_v0_address(program, hrp="bc"):
    data = [0] + _convertbits(program, 8, 5)
    values = _hrp_expand(hrp) + data
    polymod = _polymod(values + [0] * 6) ^ 1  # bech32 constant (witness v0)
    checksum = [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
    return hrp + "1" + "".join(CHARSET[d] for d in data + checksum)


def make_addresses(n, seed, tag="follow"):
    return [segwit_v0_address(hashlib.sha256(f"scanbench-{tag}-{seed}-{i}".encode()).digest()[:20]) for i in range(n)]


# ---------------------------------------------------------------- HTTP helpers --------------


def http(method, url, body=None, timeout=30):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def jget(url):
    status, body = http("GET", url)
    if status != 200:
        raise RuntimeError(f"GET {url}: HTTP {status} {body[:200]!r}")
    return json.loads(body)


def jpost(url, body):
    status, raw = http("POST", url, body)
    if status != 200:
        raise RuntimeError(f"POST {url}: HTTP {status} {raw[:200]!r}")
    return json.loads(raw)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_until(pred, deadline, step=0.25, what="condition"):
    while time.time() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(step)
    raise TimeoutError(f"timed out waiting for {what}")


# ---------------------------------------------------------------- stats classification ------


def classify(path):
    if path.startswith("/api/v2/block-index"):
        rest = path[len("/api/v2/block-index"):].strip("/")
        return "headers" if rest else "tip"
    if path.startswith("/api/v2/block/") or path == "/api/v2/block":
        return "block"
    if path.startswith("/api/v2/address") or path.startswith("/api/v2/tx"):
        return "address"
    if path.startswith("/api/v2/tickers"):
        return "other"
    if path.startswith("/api"):
        return "tip"  # status / sync probe
    return "other"


CLASSES = ["tip", "headers", "block", "address", "other"]


class StatsReader:
    """Counts requests by class from the simnet's request log, remembering what it has seen."""

    def __init__(self, base):
        self.base = base
        self.last_t = 0.0
        self.last_seen_at_t = 0  # entries with t == last_t already counted
        self.prev_family = None

    def read(self):
        s = jget(self.base + "/control/stats")
        bb = s["families"]["blockbook"]
        fam = {"requests": bb["requests"], "rateLimited": bb["rateLimited"], "endpoints": dict(bb["endpoints"])}
        counts = {c: 0 for c in CLASSES}
        limited = 0
        log = [e for e in s["log"] if e["family"] == "blockbook"]
        new = []
        same = 0
        for e in log:
            if e["t"] > self.last_t:
                new.append(e)
            elif e["t"] == self.last_t:
                same += 1
                if same > self.last_seen_at_t:
                    new.append(e)
        for e in new:
            counts[classify(e["path"])] += 1
            if e["status"] == 429:
                limited += 1
        if new:
            self.last_t = new[-1]["t"]
            self.last_seen_at_t = sum(1 for e in log if e["t"] == self.last_t)
        delta = None
        if self.prev_family is not None:
            delta = {
                "requests": fam["requests"] - self.prev_family["requests"],
                "rateLimited": fam["rateLimited"] - self.prev_family["rateLimited"],
                "endpoints": {k: v - self.prev_family["endpoints"].get(k, 0) for k, v in fam["endpoints"].items()},
            }
        self.prev_family = fam
        paths = sorted({e["path"] if not e["path"].startswith("/api/v2/address/") else "/api/v2/address/*"
                        for e in new})
        return {"classes": counts, "logged429": limited, "counters": fam, "delta": delta,
                "logEntries": len(new), "samplePaths": paths[:20]}


# ---------------------------------------------------------------- memory sampler ------------


class MemSampler(threading.Thread):
    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid = pid
        self.stop_flag = threading.Event()
        self.samples = []  # (t, rss_kb, anon_kb)

    def run(self):
        while not self.stop_flag.is_set():
            try:
                with open(f"/proc/{self.pid}/status") as f:
                    text = f.read()
                rss = int(re.search(r"VmRSS:\s+(\d+)", text).group(1))
                anon_m = re.search(r"RssAnon:\s+(\d+)", text)
                anon = int(anon_m.group(1)) if anon_m else 0
                self.samples.append((time.time(), rss, anon))
            except (FileNotFoundError, ProcessLookupError, AttributeError):
                pass
            self.stop_flag.wait(1.0)

    def max_between(self, t0=0.0, t1=float("inf")):
        sel = [s for s in self.samples if t0 <= s[0] <= t1]
        if not sel:
            return None, None
        return round(max(s[1] for s in sel) / 1024, 1), round(max(s[2] for s in sel) / 1024, 1)


# ---------------------------------------------------------------- event tail ---------------


class EventTail:
    def __init__(self, path):
        self.path = path
        self.pos = 0
        self.buf = b""
        self.events = []  # (seen_at, envelope)

    def poll(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.pos)
                chunk = f.read()
        except FileNotFoundError:
            return
        if not chunk:
            return
        now = time.time()
        self.pos += len(chunk)
        self.buf += chunk
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            if line.strip():
                try:
                    self.events.append((now, json.loads(line)))
                except json.JSONDecodeError:
                    pass

    def find(self, etype, txid):
        for seen, ev in self.events:
            if ev.get("type") == etype and ev.get("data", {}).get("txid") == txid:
                return seen, ev
        return None, None


# ---------------------------------------------------------------- one run -------------------


def pct(values, p):
    if not values:
        return None
    values = sorted(values)
    k = (len(values) - 1) * p
    lo, hi = math.floor(k), math.ceil(k)
    return round(values[lo] + (values[hi] - values[lo]) * (k - lo), 2)


def terminate(proc, timeout=15):
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_one(args, n, log):
    work = os.path.join(args.workdir, f"n{n}")
    os.makedirs(work, exist_ok=True)
    for name in os.listdir(work):
        p = os.path.join(work, name)
        if os.path.isdir(p):
            subprocess.run(["rm", "-rf", p], check=False)
        else:
            os.remove(p)
    result = {"n": n, "work": work, "binary": args.watcher}
    rng = random.Random(args.seed * 1000003 + n)

    # --- simnet
    sim_port = free_port()
    sim_out = open(os.path.join(work, "simnet.out"), "w")
    sim_err = open(os.path.join(work, "simnet.err"), "w")
    simnet = subprocess.Popen(
        [args.watcher, "simnet", "--port", str(sim_port), "--seed", str(args.seed), "--block-interval", "0",
         "--txs-per-block", str(args.txs_per_block), "--rate-limit", f"blockbook={args.rate}/1m"],
        stdout=sim_out, stderr=sim_err)
    base = f"http://127.0.0.1:{sim_port}"
    watcher = None
    sampler = None
    try:
        def sim_up():
            if simnet.poll() is not None:
                raise RuntimeError(f"simnet exited {simnet.returncode}: {open(sim_err.name).read()[-2000:]}")
            try:
                return jget(base + "/control/tip")
            except (OSError, RuntimeError):
                return None
        tip0 = wait_until(sim_up, time.time() + 60, what="simnet")
        result["simnetStartTip"] = tip0

        addresses = make_addresses(n, args.seed)
        # The simnet accepts the generated encoding (a throwaway address of the same generator, not followed).
        probe = make_addresses(1, args.seed, tag="probe")[0]
        st, body = http("POST", base + "/control/tx", {"to": probe, "amountSat": 12345})
        result["addressProbe"] = {"address": probe, "status": st, "body": body.decode(errors="replace")[:200]}
        if st != 200:
            raise RuntimeError(f"simnet refused generated address {probe}: {st} {body[:200]!r}")

        # --- config
        events_path = os.path.join(work, "events.jsonl")
        status_port = free_port()
        config = {
            "storage": {"path": os.path.join(work, "data"), "durability": "nometasync"},
            "providers": [{
                "id": "bb", "type": "blockbook", "chain": "btc",
                "options": ({"url": base, "websocket": True, "websocketConnections": args.websocket_connections}
                            if args.websocket else {"url": base, "websocket": False}),
                "rateLimit": {"requests": args.rate, "per": "1m", "burst": args.rate},
            }],
            "watches": [{
                "id": "bench", "type": "address", "chain": "btc", "providers": ["bb"],
                "addresses": addresses, "strategy": "auto", "confirmations": [1],
            }],
            "sinks": [{"id": "file", "type": "file", "events": ["address.*", "block.*"],
                       "options": {"path": events_path, "fsync": "always"}}],
        }
        if args.tip_every:
            config["watches"].append({"id": "tip", "type": "blocks", "chain": "btc", "providers": ["bb"],
                                      "every": args.tip_every})
        config_path = os.path.join(work, "watcher.json")
        with open(config_path, "w") as f:
            json.dump(config, f)
        result["configBytes"] = os.path.getsize(config_path)

        t = time.time()
        chk = subprocess.run([args.watcher, "check", "--config", config_path], capture_output=True, text=True,
                             timeout=600)
        result["checkSeconds"] = round(time.time() - t, 1)
        result["checkExit"] = chk.returncode
        # Keep the plan (the part after the resolved config), not N addresses.
        out = chk.stdout
        plan_lines = [l for l in out.splitlines() if not re.match(r'^\s*"bc1q[0-9a-z]+",?$', l)]
        result["checkOutput"] = "\n".join(plan_lines)[-6000:]
        result["checkStderr"] = chk.stderr[-3000:]
        result["strategy"] = detect_strategy(out + "\n" + chk.stderr)
        log(f"[N={n}] check exit {chk.returncode} in {result['checkSeconds']}s, strategy: {result['strategy']}")
        if chk.returncode != 0:
            raise RuntimeError("watcher check failed:\n" + (chk.stdout[-2000:] + chk.stderr[-2000:]))

        # --- watcher
        stats = StatsReader(base)
        jpost(base + "/control/stats/reset", {})
        stats.read()
        w_out = open(os.path.join(work, "watcher.out"), "w")
        w_err = open(os.path.join(work, "watcher.err"), "w")
        t_start = time.time()
        watcher = subprocess.Popen([args.watcher, "run", "--config", config_path, "--http",
                                    f"127.0.0.1:{status_port}"], stdout=w_out, stderr=w_err, cwd=work)
        sampler = MemSampler(watcher.pid)
        sampler.start()
        result["pid"] = watcher.pid

        def alive():
            if watcher.poll() is not None:
                raise RuntimeError(f"watcher exited {watcher.returncode} during start-up")

        def healthz():
            alive()
            try:
                st, _ = http("GET", f"http://127.0.0.1:{status_port}/healthz", timeout=5)
                return st in (200, 503)
            except OSError:
                return None
        deadline = t_start + args.startup_timeout
        wait_until(healthz, deadline, what="/healthz")
        result["healthzAfterS"] = round(time.time() - t_start, 1)

        def first_tip():
            alive()
            s = jget(base + "/control/stats")["families"]["blockbook"]["endpoints"]
            return s.get("/api/v2/block-index", 0) > 0 or s.get("/api/v2/block", 0) > 0
        wait_until(first_tip, deadline, step=0.5, what="first tip request")
        # settle: no new blockbook requests for args.settle seconds, at most args.settle_max seconds
        # (a background balance fill may keep the provider busy for ever)
        last, last_change = -1, time.time()
        settle_deadline = min(deadline, time.time() + args.settle_max)
        while time.time() < settle_deadline:
            alive()
            cur = jget(base + "/control/stats")["families"]["blockbook"]["requests"]
            if cur != last:
                last, last_change = cur, time.time()
            elif time.time() - last_change >= args.settle:
                break
            time.sleep(0.5)
        else:
            log(f"[N={n}] traffic did not go quiet within {args.settle_max}s after the first tip request; continuing")
            result["startupSettled"] = False
        t_ready = time.time()
        result["startupSeconds"] = round(t_ready - t_start, 1)
        result["startupStats"] = stats.read()
        result["startupMaxMB"] = dict(zip(["rss", "rssAnon"], sampler.max_between()))
        log(f"[N={n}] ready after {result['startupSeconds']}s; start-up requests "
            f"{result['startupStats']['classes']}, mem {result['startupMaxMB']}")

        # --- blocks
        tail = EventTail(events_path)
        blocks, payments = [], []
        t0 = time.time()
        for k in range(args.blocks):
            slot = t0 + k * args.interval
            while time.time() < slot:
                alive()
                tail.poll()
                time.sleep(0.2)
            boundary = stats.read()
            if k > 0:
                blocks[-1]["stats"] = boundary
                blocks[-1]["seconds"] = round(time.time() - blocks[-1]["slotStart"], 2)
            count = rng.randint(3, 5)
            paid = []
            for addr in rng.sample(addresses, count):
                amt = rng.randint(10_000, 900_000)
                tpay = time.time()
                txid = jpost(base + "/control/tx", {"to": addr, "amountSat": amt})["txid"]
                p = {"block": k, "address": addr, "amountSat": amt, "txid": txid, "paidAt": tpay}
                payments.append(p)
                paid.append(p)
            mine_at = time.time() + args.mempool_wait
            while time.time() < mine_at:
                alive()
                tail.poll()
                time.sleep(0.2)
            mined = jpost(base + "/control/mine", {"count": 1})["blocks"][0]
            tm = time.time()
            for p in paid:
                p["minedAt"] = tm
                p["height"] = mined["height"]
            blocks.append({"index": k, "slotStart": slot, "minedAt": tm, "height": mined["height"],
                           "payments": len(paid)})
            log(f"[N={n}] block {k + 1}/{args.blocks}: height {mined['height']}, paid {len(paid)}")
        # the last block's window: until the next block would be mined; then keep tailing the sink for
        # --tail seconds so late announcements still get a latency (counted in virtual blocks)
        end = t0 + args.blocks * args.interval
        while time.time() < max(end + args.mempool_wait, blocks[-1]["minedAt"] + args.tail):
            alive()
            tail.poll()
            if time.time() >= end and "stats" not in blocks[-1]:
                blocks[-1]["stats"] = stats.read()
                blocks[-1]["seconds"] = round(time.time() - blocks[-1]["slotStart"], 2)
            time.sleep(0.2)
        tail.poll()
        t_end = time.time()
        result["tailStats"] = stats.read()
        result["tailSeconds"] = round(t_end - (blocks[-1]["slotStart"] + blocks[-1]["seconds"]), 2)

        # next-block deadline for each block: when the following block was (or would have been) mined
        for i, b in enumerate(blocks):
            b["nextMinedAt"] = blocks[i + 1]["minedAt"] if i + 1 < len(blocks) else b["minedAt"] + args.interval
        for p in payments:
            b = blocks[p["block"]]
            seen, ev = tail.find("address.tx.confirmed", p["txid"])
            p["confirmedSeenAt"] = seen
            p["confirmedAfterMineS"] = round(seen - p["minedAt"], 2) if seen else None
            p["confirmedBeforeNextBlock"] = bool(seen and seen < b["nextMinedAt"])
            if seen:
                mines = [x["minedAt"] for x in blocks] + [blocks[-1]["minedAt"] + j * args.interval
                                                           for j in range(1, 100)]
                p["confirmedLateBlocks"] = sum(1 for m in mines[p["block"] + 1:] if m <= seen)
            else:
                p["confirmedLateBlocks"] = None
            seen_u, ev_u = tail.find("address.tx.unconfirmed", p["txid"])
            p["mempoolSeenAt"] = seen_u
            p["mempoolLatencyS"] = round(seen_u - p["paidAt"], 2) if seen_u else None
        result["blocks"] = blocks
        result["payments"] = payments
        result["eventCounts"] = {}
        for _, ev in tail.events:
            result["eventCounts"][ev.get("type")] = result["eventCounts"].get(ev.get("type"), 0) + 1

        # --- aggregate: from the first block's slot to the end of the tail (the daemon may process a block
        # after the next one was mined, so per-window counts would miss work); block-driven classes are
        # divided by K, tip is a rate per wall-clock second; address lookups are also given per hour
        # because a one-off balance fill runs on time, not per block.
        windows = [b["stats"] for b in blocks] + [result["tailStats"]]
        total = {c: sum(w["classes"][c] for w in windows) for c in CLASSES}
        l429 = sum((w["delta"] or {}).get("rateLimited", w["logged429"]) for w in windows)
        secs = t_end - t0
        nb = len(blocks)
        avg = {c: round(total[c] / nb, 2) for c in CLASSES}
        tip_per_s = total["tip"] / secs if secs else 0.0
        if args.websocket:
            # With push the tip is polled once per pushed block (block-driven, scaled like the block pages) plus
            # the 5-minute safety poll (time-driven, 2 requests each): the rate per hour at 10-minute blocks.
            tip_per_s = (total["tip"] / nb * 6 + 3600 / 300 * 2) / 3600
        non_tip = sum(avg[c] for c in CLASSES if c != "tip")
        req_h = non_tip * 6 + tip_per_s * 3600
        pages = math.ceil(args.txs_per_block / 1000)
        bound = 6 * (1 + pages) + tip_per_s * 3600
        result["windowSeconds"] = round(secs, 1)
        result["totals"] = total
        mem_lat = [p["mempoolLatencyS"] for p in payments if p["mempoolLatencyS"] is not None]
        rss, anon = sampler.max_between()
        rss_run, anon_run = sampler.max_between(t_ready, t_end)
        result["summary"] = {
            "requestsPerBlock": avg, "tipPerHour": round(tip_per_s * 3600, 1),
            "requestsPerHourAt10MinBlocks": round(req_h, 1), "blockScanBoundPerHour": round(bound, 1),
            "ratioToBound": round(req_h / bound, 2) if bound else None,
            "rateLimited429": l429 + (result["startupStats"]["delta"] or {}).get("rateLimited", 0),
            "rateLimited429DuringBlocks": l429,
            "addressPerHourWallClock": round(total["address"] / secs * 3600, 1) if secs else None,
            "blockPerHourWallClock": round(total["block"] / secs * 3600, 1) if secs else None,
            "rateLimited429DuringStartup": (result["startupStats"]["delta"] or {}).get("rateLimited", 0),
            "confirmedBeforeNextBlock": [sum(p["confirmedBeforeNextBlock"] for p in payments), len(payments)],
            "confirmedLateBlocks": [p["confirmedLateBlocks"] for p in payments],
            "confirmedNeverSeen": sum(1 for p in payments if p["confirmedSeenAt"] is None),
            "requestsPerHourExclAddress": round((avg["headers"] + avg["block"] + avg["other"]) * 6
                                                 + tip_per_s * 3600, 1),
            "confirmedLatencyMaxS": max([p["confirmedAfterMineS"] for p in payments
                                         if p["confirmedAfterMineS"] is not None], default=None),
            "confirmedLatencyP50S": pct([p["confirmedAfterMineS"] for p in payments
                                         if p["confirmedAfterMineS"] is not None], 0.5),
            "mempoolSeen": [len(mem_lat), len(payments)],
            "mempoolLatencyP50S": pct(mem_lat, 0.5), "mempoolLatencyMaxS": max(mem_lat) if mem_lat else None,
            "maxRssMB": rss, "maxRssAnonMB": anon, "maxRssMBAfterStartup": rss_run,
            "maxRssAnonMBAfterStartup": anon_run,
        }
        result["memSamples"] = [(round(t - t_start, 1), r, a) for t, r, a in sampler.samples]
        log(f"[N={n}] summary: {json.dumps(result['summary'])}")
    except Exception as e:  # record and move on to the next N
        result["error"] = f"{type(e).__name__}: {e}"
        log(f"[N={n}] ERROR {result['error']}")
        if sampler:
            rss, anon = sampler.max_between()
            result["maxRssMB"], result["maxRssAnonMB"] = rss, anon
    finally:
        if sampler:
            sampler.stop_flag.set()
        terminate(watcher)
        terminate(simnet)
        if watcher is not None:
            result["watcherExit"] = watcher.returncode
            try:
                result["watcherStderrTail"] = open(os.path.join(work, "watcher.err")).read()[-4000:]
                result["watcherStdoutTail"] = open(os.path.join(work, "watcher.out")).read()[-2000:]
            except OSError:
                pass
    return result


def detect_strategy(text):
    """Find the strategy `watcher check` picked for the address watch."""
    m = re.search(r"auto picks (\w+)", text)
    if m:
        return m.group(1) + " (auto)"
    for line in text.splitlines():
        low = line.lower()
        if "bench" in low or "strategy" in low or "auto" in low:
            for word in ("scan", "poll"):
                if re.search(rf"\b{word}\b", low) and ("pick" in low or "auto" in low or "strategy" in low
                                                     or "→" in low or "->" in low):
                    return word + " (auto)"
    m = re.search(r"\b(scan|poll)\b", text.lower())
    return (m.group(1) + " (?)") if m else "?"


def fmt(v, nd=1):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:.{nd}f}".rstrip("0").rstrip(".") if nd else str(round(v))
    return str(v)


def table(results):
    rows = ["| N | strategy | requests/block (tip, headers, block pages, address) | requests/h at 10-min blocks "
            "(bound ×1.25) | address req/h (wall clock) | 429s | confirmed before next block | mempool latency p50/max s | max RssAnon MB "
            "| max RSS MB |",
            "|---:|---|---|---|---:|---:|---|---|---:|---:|"]
    for r in results:
        s = r.get("summary")
        if not s:
            rows.append(f"| {r['n']:,} | {r.get('strategy', '?')} | error: {r.get('error', '?')[:80]} | | | | | | "
                        f"{fmt(r.get('maxRssAnonMB'))} | {fmt(r.get('maxRssMB'))} |")
            continue
        a = s["requestsPerBlock"]
        other = f" +{fmt(a['other'])} other" if a["other"] else ""
        rpb = f"{fmt(a['tip'])}, {fmt(a['headers'])}, {fmt(a['block'])}, {fmt(a['address'])}{other}"
        mem = ("not seen (scan)" if s["mempoolSeen"][0] == 0 else
               f"{fmt(s['mempoolLatencyP50S'])} / {fmt(s['mempoolLatencyMaxS'])} ({s['mempoolSeen'][0]}/"
               f"{s['mempoolSeen'][1]})")
        rows.append(
            f"| {r['n']:,} | {r['strategy']} | {rpb} | {fmt(s['requestsPerHourAt10MinBlocks'])} "
            f"({fmt(1.25 * s['blockScanBoundPerHour'])}) | {fmt(s['addressPerHourWallClock'])} | {s['rateLimited429']} | "
            f"{s['confirmedBeforeNextBlock'][0]}/{s['confirmedBeforeNextBlock'][1]} (late blocks "
            f"{','.join('∅' if x is None else str(x) for x in s['confirmedLateBlocks'])}) | {mem} | "
            f"{fmt(s['maxRssAnonMB'])} | {fmt(s['maxRssMB'])} |")
    return "\n".join(rows)


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


def main():
    # background jobs of a non-interactive shell ignore SIGINT: handle both so children are stopped
    signal.signal(signal.SIGTERM, _raise_interrupt)
    signal.signal(signal.SIGINT, _raise_interrupt)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--watcher", default="/tmp/watcher-debug")
    ap.add_argument("--sizes", default="100,1000,10000,100000")
    ap.add_argument("--blocks", type=int, default=5)
    ap.add_argument("--interval", type=float, default=40.0)
    ap.add_argument("--mempool-wait", type=float, default=8.0)
    ap.add_argument("--txs-per-block", type=int, default=2500)
    ap.add_argument("--rate", type=int, default=20)
    ap.add_argument("--startup-timeout", type=float, default=600.0)
    ap.add_argument("--settle", type=float, default=5.0)
    ap.add_argument("--settle-max", type=float, default=30.0)
    ap.add_argument("--tail", type=float, default=130.0)
    ap.add_argument("--tip-every", default=None)
    ap.add_argument("--websocket", action="store_true",
                    help="follow Blockbook's /websocket: blocks are pushed, the tip is polled per pushed block and "
                         "every 5 minutes; tip requests/h are then scaled per block, not per wall-clock second")
    ap.add_argument("--websocket-connections", type=int, default=1,
                    help="with --websocket: connections opened, 1,000 followed addresses each")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--workdir", default="/tmp/scanbench-run")
    ap.add_argument("--results", default="/tmp/scanbench-results.json")
    args = ap.parse_args()
    args.watcher = os.path.abspath(args.watcher)
    sizes = [int(x) for x in args.sizes.split(",")]

    def log(msg):
        print(time.strftime("%H:%M:%S ") + msg, file=sys.stderr, flush=True)

    try:
        version = subprocess.run([args.watcher, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except Exception as e:  # noqa: BLE001
        version = f"? ({e})"
    meta = {"binary": args.watcher, "version": version, "args": vars(args), "started": time.strftime(
        "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cpus": os.cpu_count(), "loadavg": os.getloadavg()}
    results = []
    for n in sizes:
        r = run_one(args, n, log)
        results.append(r)
        with open(args.results, "w") as f:
            json.dump({"meta": meta, "runs": results}, f, indent=1)

    print(f"# scan-bench: {args.watcher} ({version}), {args.blocks} blocks of {args.txs_per_block} txs every "
          f"{args.interval:g}s, Blockbook {args.rate}/1m\n")
    for r in results:
        print(f"## N = {r['n']:,}: `watcher check` (exit {r.get('checkExit')}, {r.get('checkSeconds')}s), plan:\n")
        out = r.get("checkOutput", "")
        idx = out.find("jobs and request budget plan")
        print("```\n" + (out[idx:] if idx >= 0 else out[-3000:]).strip()[-3000:] + "\n```\n")
        if r.get("error"):
            print(f"ERROR: {r['error']}\n\nwatcher stderr tail:\n```\n{r.get('watcherStderrTail', '')[-1500:]}\n```\n")
        elif r.get("watcherStderrTail"):
            print(f"watcher stderr tail:\n```\n{r['watcherStderrTail'][-800:]}\n```\n")
    print(table(results))
    print(f"\nRaw results: {args.results}")


if __name__ == "__main__":
    main()
