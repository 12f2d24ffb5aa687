#!/usr/bin/python3
"""The event stream's cost (docs/benchmarks.md, "Event stream"): CPU per event of `watcher run` with 0, 1 and 64
clients on /api/events/stream, the 65th client's 503, and the resident memory before and after 2,000 stream
connects and disconnects.

Everything runs on loopback: a `watcher simnet` that mines only on demand, a `watcher run --http` following its
blocks (no sinks, so the stream is what varies), and the stream clients as plain sockets in this process, read by one
selector loop. CPU is utime + stime of the daemon from /proc/PID/stat, RSS is VmRSS from /proc/PID/status. Bounded:
each phase mines a fixed number of blocks, every wait has a deadline, and both children are killed at the end.

    /usr/bin/python3 scripts/stream-bench.py --binary .build/release/watcher
"""

import argparse
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(method, url, body=None, timeout=10):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def stream_status(port):
    """The status code of one /api/events/stream request (its first line only); the connection is closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /api/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        line = b""
        while b"\r\n" not in line:
            chunk = s.recv(1024)
            if not chunk:
                break
            line += chunk
        return int(line.split(b" ")[1])


def wait(what, predicate, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate():
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"timed out waiting for {what}")


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid, field="VmRSS"):
    """VmRSS (everything resident, LMDB's mapped pages included) or RssAnon (the heap and stacks) in MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    return 0.0


class Clients:
    """Stream clients as non-blocking sockets, all read by one selector thread; counts the events each receives."""

    def __init__(self, port):
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.lock = threading.Lock()
        self.state = {}  # socket -> [opened, events, tail]
        self.running = True
        self.thread = threading.Thread(target=self.loop, daemon=True)
        self.thread.start()

    def open(self, count):
        opened = []
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", self.port))
            s.sendall(b"GET /api/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            s.setblocking(False)
            with self.lock:
                self.state[s] = [False, 0, b""]
                self.selector.register(s, selectors.EVENT_READ)
            opened.append(s)
        wait(f"{count} clients to be served", lambda: self.served(opened) == len(opened), timeout=60)
        return opened

    def served(self, sockets):
        with self.lock:
            return sum(1 for s in sockets if self.state.get(s, [False])[0])

    def events(self, sockets):
        with self.lock:
            return [self.state[s][1] for s in sockets if s in self.state]

    def close(self, sockets):
        with self.lock:
            for s in sockets:
                if s in self.state:
                    self.selector.unregister(s)
                    del self.state[s]
                s.close()

    def loop(self):
        while self.running:
            with self.lock:
                empty = not self.state
            if empty:
                time.sleep(0.01)
                continue
            for key, _ in self.selector.select(timeout=0.05):
                s = key.fileobj
                try:
                    data = s.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                with self.lock:
                    entry = self.state.get(s)
                    if entry is None:
                        continue
                    if not data:
                        self.selector.unregister(s)
                        del self.state[s]
                        continue
                    text = entry[2] + data
                    if b"retry: 2000" in text:
                        entry[0] = True
                    entry[1] += text.count(b"\nid: ")
                    entry[2] = text[-5:]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/release/watcher")
    parser.add_argument("--blocks", type=int, default=400, help="blocks mined per phase (one event each)")
    parser.add_argument("--rate", type=int, default=40, help="blocks mined per second")
    parser.add_argument("--clients", default="0,1,64,0",
                        help="client counts, one phase each; the 0-client phases (first and last, since the daemon's "
                             "own cost per block drifts as its chain grows) are the baseline")
    parser.add_argument("--connects", type=int, default=2000, help="connects and disconnects for the RSS check")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="watcher-stream-bench-")
    simnet_port, http_port = free_port(), free_port()
    children = []
    try:
        simnet = subprocess.Popen(
            [args.binary, "simnet", "--port", str(simnet_port), "--block-interval", "0", "--txs-per-block", "2"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        children.append(simnet)
        simnet_url = f"http://127.0.0.1:{simnet_port}"
        wait("the simnet", lambda: http("GET", simnet_url + "/control/price")[0] == 200)
        config = {
            "storage": {"path": os.path.join(work, "data"), "keepHeaders": 1000},
            "providers": [{"id": "bb", "type": "blockbook", "options": {"url": simnet_url},
                           "rateLimit": {"requests": 100000, "per": "1m", "burst": 1000}}],
            "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"}],
            "sinks": [],
        }
        path = os.path.join(work, "watcher.json")
        with open(path, "w") as f:
            json.dump(config, f)
        env = dict(os.environ, WATCHER_LOG_LEVEL="error")
        daemon = subprocess.Popen(
            [args.binary, "run", "--config", path, "--http", f"127.0.0.1:{http_port}", "--http-stream-clients", "64"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        children.append(daemon)
        base = f"http://127.0.0.1:{http_port}"
        wait("the daemon to store the tip", lambda: b"merkleRoot" in http("GET", base + "/api/blocks?limit=1")[1])

        def last_seq():
            entries = json.loads(http("GET", base + "/api/events?limit=1")[1])
            return entries[0]["seq"] if entries else 0

        def simnet_tip():
            return json.loads(http("GET", simnet_url + "/control/addresses")[1])["tip"]["height"]

        def stored_tip():
            blocks = json.loads(http("GET", base + "/api/blocks?limit=1")[1])
            return blocks[0]["height"] if blocks else 0

        clients = Clients(http_port)
        time.sleep(2)  # let the start-up settle before the first measurement
        rss_before = rss_mb(daemon.pid)
        print(f"machine: {os.cpu_count()} CPUs; daemon pid {daemon.pid}; RSS at start {rss_before:.1f} MB")
        print(f"phase: {args.blocks} blocks mined at {args.rate}/s, one block.new event each")
        results = []
        for count in [int(c) for c in args.clients.split(",")]:
            opened = clients.open(count)
            seq0, cpu0 = last_seq(), cpu_seconds(daemon.pid)
            started = time.monotonic()
            mined = 0
            while mined < args.blocks:
                batch = min(args.rate // 10 or 1, args.blocks - mined)
                http("POST", simnet_url + "/control/mine", {"count": batch})
                mined += batch
                time.sleep(0.1)
            target = simnet_tip()
            wait("the daemon to reach the simnet's tip", lambda: stored_tip() >= target)
            seq1 = last_seq()
            wait("every client to receive every event",
                 lambda: all(n >= seq1 - seq0 for n in clients.events(opened)), timeout=60)
            cpu1 = cpu_seconds(daemon.pid)
            elapsed = time.monotonic() - started
            events = seq1 - seq0
            per_event = (cpu1 - cpu0) / events * 1e6
            results.append((count, events, cpu1 - cpu0, per_event))
            print(f"{count:3d} clients: {events} events in {elapsed:.1f} s, daemon CPU {cpu1 - cpu0:.2f} s, "
                  f"{per_event:.0f} µs per event")
            clients.close(opened)
        baseline = [per_event for count, _, _, per_event in results if count == 0] or [results[0][3]]
        base_cost = sum(baseline) / len(baseline)
        print(f"baseline: {base_cost:.0f} µs per event, the mean of {len(baseline)} phase(s) without clients")
        for count, _, _, per_event in results:
            if count:
                print(f"{count:3d} clients cost {per_event / base_cost:.2f}× the CPU per event of the baseline")

        # The cap: 64 served, the 65th refused with Retry-After.
        held = clients.open(64)
        status, body, headers = http("GET", base + "/api/events/stream")
        print(f"65th client: {status} Retry-After: {headers.get('Retry-After')} {body.decode().strip()}")
        clients.close(held)

        # Memory: 2,000 connects and disconnects, 50 at a time.
        wait("the clients to be let go", lambda: stream_status(http_port) == 200)
        peak = rss_mb(daemon.pid)
        before = peak
        anon_before = rss_mb(daemon.pid, "RssAnon")
        done = 0
        while done < args.connects:
            batch = clients.open(min(50, args.connects - done))
            peak = max(peak, rss_mb(daemon.pid))
            clients.close(batch)
            done += len(batch)
        time.sleep(3)
        after = rss_mb(daemon.pid)
        anon_after = rss_mb(daemon.pid, "RssAnon")
        print(f"RSS: {before:.1f} MB before {done} connects and disconnects, peak {peak:.1f} MB, "
              f"{after:.1f} MB 3 s after ({(after - before) / before * 100:+.1f} %); "
              f"RssAnon {anon_before:.1f} -> {anon_after:.1f} MB")
        clients.running = False
    finally:
        for child in reversed(children):
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
                try:
                    child.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    child.kill()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    sys.exit(main())
