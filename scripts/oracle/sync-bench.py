#!/usr/bin/env python3
"""A wallet's first full sync through a real ElectrumX, side by side: watcher against BDK's full_scan. Runs on the
oracles' venv (`make oracle-deps`); `make bench-oracle` runs it with the release build.

    sync-bench.py WATCHER [--receive 1000] [--every 10] [--seed N]

It starts a regtest simnet (`WATCHER simnet --network regtest`), a real ElectrumX indexing it through its Bitcoin
Core face, and draws a BDK wallet (wpkh, random key). Every `--every`-th receive address below `--receive` is paid
(index 0, 10, …, 990 by default) and change addresses 0 and 5, all in one block, so a scan with a gap of 20 walks
about `--receive` + 20 receive and 25 change addresses. Then, each through its own counting proxy in front of
ElectrumX (every JSON-RPC request counted, a batch as its elements, with the round trips they took):

- BDK: `full_scan` (stop gap 20, batch size 10), timed around the call;
- watcher: `watcher run` with one `electrum` provider and the wallet watch (gap 20, defaults otherwise), timed from
  the start of the process until `watcher wallets show` gives the true balance and number of used addresses (polled
  every 0.1 s).

Prints one JSON line per client, then a Markdown table. Exit status 1 if a client's balance is wrong.
"""
import argparse
import asyncio
import collections
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

import bdkpython as bdk

NETWORK = bdk.Network.REGTEST
KIND = bdk.NetworkKind.TEST
GAP = 20


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, condition, timeout=120, interval=0.05):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise SystemExit(f"timed out waiting for {what}")


class Proxy:
    """A TCP proxy in front of ElectrumX that counts the JSON-RPC requests clients send (a batch as its elements),
    the messages (lines) they came in, and the methods."""

    def __init__(self, upstream_port):
        self.upstream_port = upstream_port
        self.port = free_port()
        self.requests = 0
        self.messages = 0
        self.methods = collections.Counter()
        # Subscriptions per scripthash: how many each was asked (a repeated one is a re-check or a duplicate).
        self.subscriptions = collections.Counter()
        self.lock = threading.Lock()
        self.loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._run, args=(ready,), daemon=True).start()
        ready.wait()

    def _run(self, ready):
        asyncio.set_event_loop(self.loop)

        async def start():
            await asyncio.start_server(self._session, "127.0.0.1", self.port, limit=1 << 24)
            ready.set()

        self.loop.run_until_complete(start())
        self.loop.run_forever()

    def _count(self, line):
        try:
            message = json.loads(line)
        except ValueError:
            return
        calls = message if isinstance(message, list) else [message]
        with self.lock:
            self.messages += 1
            for call in calls:
                if isinstance(call, dict) and "method" in call:
                    self.requests += 1
                    self.methods[call["method"]] += 1
                    if call["method"] == "blockchain.scripthash.subscribe" and call.get("params"):
                        self.subscriptions[call["params"][0]] += 1

    async def _session(self, client_reader, client_writer):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.upstream_port, limit=1 << 24)

        async def upstream():
            while line := await client_reader.readline():
                self._count(line)
                writer.write(line)
                await writer.drain()
            writer.close()

        async def downstream():
            while data := await reader.read(1 << 16):
                client_writer.write(data)
                await client_writer.drain()
            client_writer.close()

        await asyncio.gather(upstream(), downstream(), return_exceptions=True)

    def snapshot(self):
        with self.lock:
            repeats = collections.Counter(self.subscriptions.values())
            return {
                "requests": self.requests,
                "messages": self.messages,
                "methods": dict(self.methods),
                "scripthashesSubscribed": len(self.subscriptions),
                "subscriptionsPerScripthash": {str(k): v for k, v in sorted(repeats.items())},
            }


def control(base, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def electrum_tip(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            f = s.makefile("rwb")
            f.write(b'{"id":1,"method":"server.version","params":["bench","1.4"]}\n')
            f.write(b'{"id":2,"method":"blockchain.headers.subscribe","params":[]}\n')
            f.flush()
            for _ in range(2):
                reply = json.loads(f.readline())
                if reply.get("id") == 2:
                    return reply["result"]["height"]
    except OSError:
        return None


def bdk_sync(port, external, internal):
    wallet = bdk.Wallet(external, internal, NETWORK, bdk.Persister.new_in_memory())
    started = time.monotonic()
    client = bdk.ElectrumClient(f"tcp://127.0.0.1:{port}")
    request = wallet.start_full_scan().build()
    wallet.apply_update(client.full_scan(request, GAP, 10, False))
    seconds = time.monotonic() - started
    return seconds, wallet.balance().confirmed.to_sat(), len(wallet.transactions())


def watcher_sync(watcher, directory, port, descriptor, expected, timeout):
    config = os.path.join(directory, "watcher.json")
    with open(config, "w") as f:
        json.dump(
            {
                "storage": {"path": os.path.join(directory, "data")},
                "providers": [
                    {
                        "id": "ex",
                        "type": "electrum",
                        "chain": "btc-regtest",
                        "options": {"url": f"tcp://127.0.0.1:{port}"},
                        "rateLimit": {"requests": 60000, "per": "1m", "burst": 1000, "concurrency": 8},
                    }
                ],
                "watches": [
                    {"id": "w", "type": "wallet", "chain": "btc-regtest", "providers": ["ex"], "gap": GAP,
                     "descriptor": descriptor}
                ],
                "sinks": [],
            },
            f,
        )
    log = open(os.path.join(directory, "watcher.log"), "w")
    started = time.monotonic()
    daemon = subprocess.Popen([watcher, "run", "--config", config], stdout=log, stderr=subprocess.STDOUT)
    try:
        def synced():
            shown = subprocess.run(
                [watcher, "wallets", "show", "w", "--config", config, "--json"], capture_output=True, text=True
            )
            if shown.returncode != 0:
                return None
            view = json.loads(shown.stdout)
            # One payment per paid address: the used addresses count them (`transactions` lists the newest 50 only).
            got = (view.get("balanceSat"), view.get("usedAddresses"))
            return got if got == expected else None

        wait_for("watcher's sync", synced, timeout=timeout, interval=0.1)
        return time.monotonic() - started
    finally:
        daemon.terminate()
        daemon.wait(timeout=60)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("watcher")
    parser.add_argument("--receive", type=int, default=1000)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 32))
    parser.add_argument("--timeout", type=float, default=900)
    args = parser.parse_args()
    python = sys.executable
    work = tempfile.mkdtemp(prefix="watcher-sync-bench-")
    children = []
    try:
        simnet_port = free_port()
        children.append(
            subprocess.Popen(
                [args.watcher, "simnet", "--network", "regtest", "--seed", str(args.seed), "--port", str(simnet_port),
                 "--block-interval", "0"],
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "simnet.log"), "w"),
            )
        )
        base = f"http://127.0.0.1:{simnet_port}"
        wait_for("the simnet", lambda: _try(lambda: control(base, "/control/tip")))

        electrumx_port = free_port()
        os.makedirs(os.path.join(work, "db"))
        server = os.path.join(os.path.dirname(python), "electrumx_server")
        environment = dict(
            os.environ, ALLOW_ROOT="1", COIN="Bitcoin", NET="regtest",
            DAEMON_URL=f"http://watcher:watcher@127.0.0.1:{simnet_port}/", DB_DIRECTORY=os.path.join(work, "db"),
            DB_ENGINE="leveldb", SERVICES=f"tcp://127.0.0.1:{electrumx_port}", PEER_DISCOVERY="off", PEER_ANNOUNCE="",
            DAEMON_POLL_INTERVAL_BLOCKS="100", DAEMON_POLL_INTERVAL_MEMPOOL="100", CACHE_MB="64",
            COST_SOFT_LIMIT="100000000", COST_HARD_LIMIT="1000000000", REQUEST_SLEEP="0", INITIAL_CONCURRENT="1000",
        )
        children.append(
            subprocess.Popen([python, server], env=environment, stdout=open(os.path.join(work, "electrumx.log"), "w"),
                             stderr=subprocess.STDOUT)
        )

        secret = bdk.DescriptorSecretKey(KIND, bdk.Mnemonic(bdk.WordCount.WORDS12), None)
        external = bdk.Descriptor.new_bip84(secret, bdk.KeychainKind.EXTERNAL, KIND)
        internal = bdk.Descriptor.new_bip84(secret, bdk.KeychainKind.INTERNAL, KIND)
        wallet = bdk.Wallet(external, internal, NETWORK, bdk.Persister.new_in_memory())
        receive = [str(wallet.peek_address(bdk.KeychainKind.EXTERNAL, i).address) for i in range(args.receive)]
        change = [str(wallet.peek_address(bdk.KeychainKind.INTERNAL, i).address) for i in (0, 5)]
        paid = receive[:: args.every] + change
        rng = random.Random(args.seed)
        total = 0
        for address in paid:
            amount = rng.randrange(10_000, 1_000_000)
            control(base, "/control/tx", {"to": address, "amountSat": amount})
            total += amount
        tip = control(base, "/control/mine", {"count": 1})["blocks"][-1]["height"]
        expected = (total, len(paid))
        wait_for("ElectrumX at the tip", lambda: electrum_tip(electrumx_port) == tip, timeout=180, interval=0.2)

        rows = []
        proxy = Proxy(electrumx_port)
        seconds, confirmed, txs = bdk_sync(proxy.port, external, internal)
        rows.append(dict(client="BDK full_scan", seconds=round(seconds, 2), balance=confirmed, txs=txs,
                         **proxy.snapshot()))

        proxy = Proxy(electrumx_port)
        multipath = str(external).split("#")[0].replace("/0/*)", "/<0;1>/*)")
        seconds = watcher_sync(args.watcher, work, proxy.port, multipath, expected, args.timeout)
        rows.append(dict(client="watcher", seconds=round(seconds, 2), balance=expected[0], txs=expected[1],
                         **proxy.snapshot()))

        wrong = False
        for row in rows:
            row.update(seed=args.seed, addressesPaid=len(paid), expectedBalance=total)
            wrong = wrong or (row["balance"], row["txs"]) != expected
            print(json.dumps(row))
        print()
        print(f"| client | requests | round trips | wall time | balance (expected {total} sat, {len(paid)} txs) |")
        print("|---|---:|---:|---:|---|")
        for row in rows:
            methods = ", ".join(f"{k} {v}" for k, v in sorted(row["methods"].items(), key=lambda kv: -kv[1]))
            print(f"| {row['client']} | {row['requests']} ({methods}) | {row['messages']} | {row['seconds']} s | "
                  f"{row['balance']} sat, {row['txs']} txs |")
        return 1 if wrong else 0
    finally:
        for child in reversed(children):
            child.terminate()
            try:
                child.wait(timeout=30)
            except subprocess.TimeoutExpired:
                child.kill()
        if os.environ.get("KEEP"):
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)


def _try(function):
    try:
        return function()
    except OSError:
        return None


if __name__ == "__main__":
    sys.exit(main())
