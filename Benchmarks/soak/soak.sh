#!/usr/bin/env bash
# Memory soak: `watcher run` (release) against `watcher simnet` with 30% of the answers of both providers
# (Blockbook, and rawaddr as its failover for the address watch; rawaddr serves no block headers, so the blocks
# watch uses Blockbook alone) faulted with 500, timeout, malformed, truncated and wrong shape, until the
# simnet has served REQUESTS requests.
# Prints RSS samples (total, anonymous = heap, file-backed = the LMDB map and the binary) and the peak (VmHWM). Usage: Benchmarks/soak/soak.sh [REQUESTS] [BINARY]
set -euo pipefail
REQUESTS=${1:-10000}
W=${2:-.build/release/watcher}
PORT=18631
DIR=$(mktemp -d)
trap 'kill $SIM $RUN 2>/dev/null || true; rm -rf "$DIR"' EXIT

"$W" simnet --port $PORT --block-interval 2s --txs-per-block 40 >"$DIR/simnet.log" 2>&1 &
SIM=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/control/stats" >/dev/null && break; sleep 0.2; done
for FAMILY in blockbook rawaddr; do
  curl -sf -XPOST "http://127.0.0.1:$PORT/control/faults" \
    -d '{"family":"'$FAMILY'","rate":0.3,"kinds":["500","timeout","malformed","truncated","wrongshape"],"timeout":"1s"}' >/dev/null
done
ADDRESSES=$(curl -sf "http://127.0.0.1:$PORT/control/addresses" |
  python3 -c 'import json,sys; print(",".join(json.dumps(a["address"]) for a in json.load(sys.stdin)["addresses"][:60]))')
cat >"$DIR/watcher.json" <<JSON
{"storage": {"path": "$DIR/data"},
 "providers": [{"id": "bb", "type": "blockbook", "options": {"url": "http://127.0.0.1:$PORT", "timeout": "500ms"},
                "rateLimit": {"requests": 60000, "per": "1m", "burst": 200, "concurrency": 8}},
               {"id": "bci", "type": "rawaddr", "options": {"url": "http://127.0.0.1:$PORT", "timeout": "500ms"},
                "rateLimit": {"requests": 60000, "per": "1m", "burst": 200, "concurrency": 8}}],
 "watches": [{"id": "tip", "type": "blocks", "providers": ["bb"], "every": "1s"},
             {"id": "wallet", "type": "address", "providers": ["bb", "bci"], "every": "1s", "addresses": [$ADDRESSES]}],
 "sinks": [{"id": "file", "type": "file", "options": {"path": "$DIR/data/events.jsonl", "fsync": "1s"}}]}
JSON
WATCHER_LOG_LEVEL=error "$W" run --config "$DIR/watcher.json" >"$DIR/run.log" 2>&1 &
RUN=$!
START=$(date +%s)
printf "%8s %10s %10s %10s %10s\n" "seconds" "requests" "rss_kib" "anon_kib" "file_kib"
while :; do
  sleep 2
  COUNT=$(curl -sf "http://127.0.0.1:$PORT/control/stats" | python3 -c 'import json,sys; f=json.load(sys.stdin)["families"]; print(f["blockbook"]["requests"]+f["rawaddr"]["requests"])')
  RSS=$(awk '/VmRSS/ {print $2}' /proc/$RUN/status)
  ANON=$(awk '/RssAnon/ {print $2}' /proc/$RUN/status)
  FILE=$(awk '/RssFile/ {print $2}' /proc/$RUN/status)
  printf "%8d %10d %10d %10d %10d\n" $(( $(date +%s) - START )) "$COUNT" "$RSS" "$ANON" "$FILE"
  [ "$COUNT" -ge "$REQUESTS" ] && break
done
echo "peak (VmHWM): $(awk '/VmHWM/ {print $2}' /proc/$RUN/status) KiB; faults: $(curl -sf "http://127.0.0.1:$PORT/control/stats" | python3 -c 'import json,sys; f=json.load(sys.stdin)["families"]; print(f["blockbook"]["faults"]+f["rawaddr"]["faults"])')"
kill -TERM $RUN; wait $RUN || true
