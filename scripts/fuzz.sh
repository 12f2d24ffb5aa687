#!/usr/bin/env bash
# Builds the libFuzzer binary and runs every harness (or the ones named) for SECONDS each.
#   scripts/fuzz.sh 60                 # make fuzz (every harness: the folders of Fuzz/corpus/)
#   scripts/fuzz.sh 15                 # make fuzz-ci, the bounded pass `make test` runs
#   scripts/fuzz.sh 300 config address
# New inputs go to a scratch corpus (not committed); a crash is saved to Fuzz/crashes/<harness>/ and the script
# exits 1. Prints one line per harness: executions, coverage (cov), features (ft), corpus size, seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
harnesses=("$@")
# Every harness has its seed corpus in Fuzz/corpus/<harness>/ (FuzzCorpusTests checks that the folders and the
# harnesses of FuzzHarness.swift are the same set), so the folders list them.
if [ ${#harnesses[@]} -eq 0 ]; then
    for folder in Fuzz/corpus/*/; do harnesses+=("$(basename "$folder")"); done
fi
swift=${SWIFT:-swift}
scratch=.build-fuzz
$swift build -c debug --product watcher-fuzz --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING >"$scratch.log" 2>&1 ||
    { tail -40 "$scratch.log"; echo "fuzz: the fuzzer build failed"; exit 1; }
binary=$($swift build -c debug --product watcher-fuzz --scratch-path "$scratch" --show-bin-path)/watcher-fuzz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=0
for harness in "${harnesses[@]}"; do
    mkdir -p "$work/$harness" "Fuzz/crashes/$harness"
    log="$work/$harness.log"
    status=0
    WATCHER_FUZZ_TARGET=$harness ASAN_OPTIONS=detect_leaks=0 "$binary" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="Fuzz/crashes/$harness/" \
        "$work/$harness" "Fuzz/corpus/$harness" >"$log" 2>&1 </dev/null || status=$?
    done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 || true)
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | awk '{print $2}' || true)
    cov=$(sed -nE 's/.*cov: ([0-9]+).*/\1/p' <<<"$done_line")
    ft=$(sed -nE 's/.*ft: ([0-9]+).*/\1/p' <<<"$done_line")
    corp=$(sed -nE 's/.*corp: ([0-9]+\/[0-9A-Za-z]+).*/\1/p' <<<"$done_line")
    if [ "$status" -ne 0 ]; then
        failed=1
        echo "fuzz $harness: CRASH (exit $status); input saved under Fuzz/crashes/$harness/"
        grep -E 'ERROR|SUMMARY|Fatal error|panic' "$log" | head -5 || true
    else
        echo "fuzz $harness: ${runs:-?} executions in ${seconds}s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}, no crash"
    fi
done
exit $failed
