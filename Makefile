# The two commands of the README. Both install what a fresh Debian 12 machine with the Swift 6
# toolchain lacks (liblmdb-dev), so they work from a fresh clone.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test deps test-deps build lint format bench fuzz fuzz-ci example-test

deps:
	@if ! pkg-config --exists lmdb 2>/dev/null; then \
		echo "installing liblmdb-dev (LMDB headers and pkg-config file)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq liblmdb-dev; \
	fi

# The tests check /metrics with Prometheus' reference text parser (Python prometheus_client), the postgres
# sink tests start a throwaway PostgreSQL cluster (Debian's postgresql: initdb and pg_ctl), the web UI's browser
# tests drive Debian's chromium through chromium-driver with Selenium, and the API is checked against
# docs/openapi.yaml with jsonschema.
test-deps: deps
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "installing postgresql (the postgres sink tests run a throwaway server)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq postgresql; \
	fi
	@python3 -c "import prometheus_client" 2>/dev/null || python3 -m pip install --quiet prometheus_client
	@if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then \
		echo "installing chromium and chromium-driver (the web UI's browser tests)"; \
		$(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq chromium chromium-driver; \
	fi
	@python3 -c "import selenium" 2>/dev/null || python3 -m pip install --quiet selenium
	@python3 -c "import jsonschema, yaml" 2>/dev/null || python3 -m pip install --quiet jsonschema pyyaml

build: deps
	$(SWIFT) build

# The main job: the demo (simulated network in-process, events on stdout). Pass ARGS=... (e.g. ARGS="--duration 30s").
run: build
	$(SWIFT) run watcher demo $(ARGS)

# Everything CI checks: formatting, no banned imports, and the whole test suite.
# The wall-clock rate-limit tests measure jitter between two clocks to the tens of milliseconds: they run on
# their own after the rest, so the parallel suites (daemons, PostgreSQL clusters) do not add jitter of their own.
WALL_CLOCK_TESTS := WallClockRateLimitTests
test: test-deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip $(WALL_CLOCK_TESTS)
	$(SWIFT) test --skip-build --filter $(WALL_CLOCK_TESTS)
	$(MAKE) example-test
	$(MAKE) fuzz-ci

# The adapter package of examples/esplora-adapter (docs/writing-a-provider.md), a package of its own that depends
# on this checkout by path. It shares this package's scratch path, so it reuses every module already built here
# (SwiftPM recompiles only Hummingbird's two for the other root, about 40 s) instead of a second cold build. Its
# binary must list esplora beside the built-ins and accept the example config.
EXAMPLE := examples/esplora-adapter
example-test:
	$(SWIFT) build --package-path $(EXAMPLE) --scratch-path $(CURDIR)/.build --build-tests
	$(SWIFT) test --package-path $(EXAMPLE) --scratch-path $(CURDIR)/.build --skip-build
	.build/debug/watcher-esplora plugins | grep -q '^esplora ' || (echo "watcher-esplora does not list esplora" && false)
	cd $(EXAMPLE) && $(CURDIR)/.build/debug/watcher-esplora check -c esplora.json > /dev/null
	@# The build plan on disk is now the example's: drop it, so the next build here plans afresh (deleted files!).
	rm -f .build/debug.yaml .build/*/debug/description.json

# Coverage-guided fuzzing of the parsers that face the outside (docs/fuzzing.md): libFuzzer through the toolchain's
# -sanitize=fuzzer,address, in its own scratch path. `make fuzz` runs each harness FUZZ_SECONDS (default 60);
# `make fuzz-ci` is the bounded pass `make test` ends with. A crash fails it and is saved under Fuzz/crashes/.
FUZZ_SECONDS ?= 60
fuzz:
	SWIFT=$(SWIFT) scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-ci:
	SWIFT=$(SWIFT) scripts/fuzz.sh 15

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Providers Tests Benchmarks examples/esplora-adapter
	@! grep -rn "import FoundationNetworking" Sources Providers Tests || (echo "FoundationNetworking is banned: use AsyncHTTPClient" && false)

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Providers Tests Benchmarks examples/esplora-adapter

bench: deps
	$(SWIFT) run -c release watcher-bench
