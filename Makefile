# The commands of the README. They install what a fresh Debian 12 machine with the Swift 6 toolchain lacks
# (`make deps`, `make test-deps`), so they work from a fresh clone.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# The Python that runs the test scripts (scripts/*.py) and that the Swift tests spawn (as WATCHER_PYTHON): Debian's,
# the one that sees the python3-* packages below. A pyenv or venv `python3` on PATH does not.
PYTHON ?= /usr/bin/python3
export WATCHER_PYTHON := $(PYTHON)
# The oracles' Python (ElectrumX and BDK from PyPI, pinned in scripts/oracle/requirements.txt): a venv that
# `make oracle-deps` creates with Debian's python3-venv, never the system Python (PEP 668). The oracle tests find it
# through WATCHER_ORACLE_PYTHON and fail, naming what to install, when it is not there.
ORACLE_VENV ?= $(CURDIR)/.build/oracle-venv
export WATCHER_ORACLE_PYTHON := $(ORACLE_VENV)/bin/python

.PHONY: run test wall-clock-test check deps test-deps oracle-deps build lint format bench bench-oracle fuzz fuzz-ci example-test package package-test

# Every package comes from Debian's apt (no pip: Debian 12's Python refuses it, PEP 668). Each has a cheap test of
# whether it is there already, and the test decides, not dpkg: a PostgreSQL of another repository, a library built
# by hand or a PYTHON that imports the module counts. pkg-config is there for the three tests that ask it.
# Build: LMDB (the store), libsecp256k1 (key derivation), libzmq (ZMQ) and libqrencode (payment requests' QR codes).
BUILD_PACKAGES := pkg-config liblmdb-dev libsecp256k1-dev libzmq3-dev libqrencode-dev
# Tests: /metrics is checked with Prometheus' reference text parser (prometheus_client), the postgres sink tests
# start a throwaway PostgreSQL cluster (initdb, pg_ctl), the web UI's browser tests drive chromium through
# chromium-driver with Selenium, the API is checked against docs/openapi.yaml with jsonschema and yaml, and
# scripts/derive-check.py re-derives wallet addresses over python-ecdsa's secp256k1 arithmetic, and a payment
# request's QR code is decoded back with zbar's zbarimg.
TEST_PACKAGES := postgresql chromium chromium-driver python3-prometheus-client python3-selenium python3-jsonschema \
	python3-yaml python3-ecdsa zbar-tools
present.pkg-config = command -v pkg-config
present.liblmdb-dev = pkg-config --exists lmdb
present.libsecp256k1-dev = pkg-config --exists libsecp256k1
present.libzmq3-dev = pkg-config --exists libzmq
present.libqrencode-dev = pkg-config --exists libqrencode
present.postgresql = ls /usr/lib/postgresql/*/bin/initdb
present.chromium = command -v chromium
present.chromium-driver = command -v chromedriver
present.python3-prometheus-client = $(PYTHON) -c "import prometheus_client"
present.python3-selenium = $(PYTHON) -c "import selenium"
present.python3-jsonschema = $(PYTHON) -c "import jsonschema"
present.python3-yaml = $(PYTHON) -c "import yaml"
present.python3-ecdsa = $(PYTHON) -c "import ecdsa"
present.zbar-tools = command -v zbarimg
# The oracles' venv: Debian's python3-venv (ensurepip with it) creates it.
ORACLE_PACKAGES := python3-venv
present.python3-venv = $(PYTHON) -c "import ensurepip, venv"
# Packaging (`make package`, `make package-test`): Debian's own tools, not needed to build or test.
PACKAGE_PACKAGES := dpkg-dev binutils lintian systemd
PACKAGE_TEST_PACKAGES := debootstrap
present.dpkg-dev = command -v dpkg-shlibdeps && command -v dpkg-gencontrol
present.binutils = command -v objcopy && command -v strip
present.lintian = command -v lintian
present.systemd = command -v systemd-analyze
present.debootstrap = command -v debootstrap

# $(call install,PACKAGES): the shell commands that install those of PACKAGES whose test fails, with at most one
# `apt-get update` and one `apt-get install` (a package without a test counts as missing).
install = missing=""; \
	$(foreach p,$(1),$(or $(present.$(p)),false) >/dev/null 2>&1 || missing="$$missing $(p)";) \
	if [ -n "$$missing" ]; then \
		echo "installing from apt:$$missing"; \
		$(SUDO) apt-get update -qq && \
		$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# What building needs.
deps:
	@$(call install,$(BUILD_PACKAGES))

# What building and every test need, in one pass.
test-deps:
	@$(call install,$(BUILD_PACKAGES) $(TEST_PACKAGES) $(ORACLE_PACKAGES))

# The oracles' venv, remade when the pinned requirements change (the stamp is newer than the list once installed).
oracle-deps: $(ORACLE_VENV)/.installed
$(ORACLE_VENV)/.installed: scripts/oracle/requirements.txt
	@$(call install,$(ORACLE_PACKAGES))
	rm -rf $(ORACLE_VENV)
	$(PYTHON) -m venv $(ORACLE_VENV)
	$(ORACLE_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r scripts/oracle/requirements.txt
	$(ORACLE_VENV)/bin/python -c "import electrumx, bdkpython"
	touch $@

build: deps
	$(SWIFT) build

# The main job: the demo (simulated network in-process, events on stdout). Pass ARGS=... (e.g. ARGS="--duration 30s").
# Builds the watcher product only (what the demo needs), then runs the binary it built.
run: deps
	$(SWIFT) build --product watcher
	.build/debug/watcher demo $(ARGS)

# The suites of the wall-clock phase: they measure on the wall clock (jitter between two rate limiters to the tens
# of milliseconds; requests per hour against the job plan; a block's payments announced before the next block) and
# fail when the parallel suites (daemons, PostgreSQL clusters, a browser) take the CPU. `make test` runs them after
# the rest, one test at a time within each group, the three groups side by side: together they use under half a
# core (73 s of CPU in 185 s), since they mostly wait for a server's next token or the next round
# (docs/testing.md, "The wall-clock phase").
# - WALL_CLOCK_RATES: requests against the simnet's own limiter (a server allowing 1 request in 7 s, a 429 and its
#   Retry-After, a correct limit used to 90%), and requests per hour against the job plan.
# - WALL_CLOCK_BLOCKS: blocks of 2,500 transactions on the public budget (20 requests a minute), ZMQ and Electrum
#   push against polling.
# - WALL_CLOCK_AGREE: the agree suites (three providers must each answer within the 1 s rounds before anything is
#   confirmed; in the parallel phase's start-up burst one such wait took longer than its 90 s deadline on CI) and
#   the oracle suites (a real ElectrumX and BDK: Python processes that take a core while they index and sync; in the
#   parallel phase they starved other suites' process and port waits past their deadlines). And
#   EngineIntegrationTests: balances converging under 30% injected faults, whose slow answers are told from normal
#   ones by a 1 s request timeout; 1.4 s alone, it took 86 s in the parallel phase and once missed its 90 s deadline
#   there (a gate run, 2026-11-29), when ordinary answers under load took longer than that second.
WALL_CLOCK_RATES := WallClockRateLimitTests JobPlanAccuracyTests
WALL_CLOCK_BLOCKS := BlockScanTests ZMQEngineTests ElectrumWatchShapeTests ElectrumPushEngineTests ElectrumBlockCostTests
WALL_CLOCK_AGREE := EngineIntegrationTests AgreeCostTests AgreeTests AgreedTipTests AgreeOmissionTests AgreeByProofTests AgreePushTests RequestAgreeTests ElectrumXIndexTests FourViewOracleTests
WALL_CLOCK_TESTS := $(WALL_CLOCK_RATES) $(WALL_CLOCK_BLOCKS) $(WALL_CLOCK_AGREE)
empty :=
space := $(empty) $(empty)
regex = $(subst $(space),|,$(strip $(1)))
WALL_CLOCK_REGEX := $(call regex,$(WALL_CLOCK_TESTS))
# The test binary `swift test` runs. The three wall-clock processes start it themselves: a second `swift test`
# would wait for the first one's lock on .build.
TEST_BINARY := .build/debug/watcherPackageTests.xctest

# Tier 1, while editing (under 3 minutes on a warm build): formatting and banned imports, then the build and every
# test that needs no PostgreSQL, no browser and no quiet machine. Such suites say so in their name: `Postgres` (the
# WatcherPostgresTests target) or `Browser` (BrowserWebUITests, which also holds the docs/openapi.yaml check), and
# the wall-clock ones are listed above. The test IDs matched are Target.Suite/test().
CHECK_SKIP := Postgres|Browser|$(WALL_CLOCK_REGEX)
check: test-deps oracle-deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(CHECK_SKIP)'

# Tier 2, what CI runs (.ci/run) and what a change must pass (docs/testing.md says where its time goes): formatting,
# the build, the rules' tests alone first (values only: seconds, and the first to say a decision broke), every other
# suite in parallel but the wall-clock ones, then those one after another in a single `--no-parallel` process, and
# the example adapter package. The fuzzers' committed corpora are replayed by FuzzCorpusTests in the parallel phase;
# open-ended libFuzzer runs with their sanitizer build are `make fuzz` (docs/fuzzing.md).
test: test-deps oracle-deps lint
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --filter WatcherRulesTests
	$(SWIFT) test --skip-build --skip 'WatcherRulesTests|$(WALL_CLOCK_REGEX)'
	$(MAKE) wall-clock-test
	$(MAKE) example-test

# The wall-clock phase: the three groups side by side, each one test at a time (`--no-parallel`), each through the
# test binary itself (a second `swift test` would wait for the first one's lock on .build), its output kept in a
# file and printed when all are done. Fails when any group does.
wall-clock-test:
	@run() { $(TEST_BINARY) --testing-library swift-testing --no-parallel --filter "$$1" > "$$2" 2>&1; }; \
	run '$(call regex,$(WALL_CLOCK_RATES))' .build/wall-clock-rates.log & rates=$$!; \
	run '$(call regex,$(WALL_CLOCK_BLOCKS))' .build/wall-clock-blocks.log & blocks=$$!; \
	run '$(call regex,$(WALL_CLOCK_AGREE))' .build/wall-clock-agree.log & agree=$$!; \
	failed=""; \
	wait $$rates || failed="$$failed rates"; wait $$blocks || failed="$$failed blocks"; \
	wait $$agree || failed="$$failed agree"; \
	for group in rates blocks agree; do echo "--- wall clock, $$group:"; cat .build/wall-clock-$$group.log; done; \
	[ -z "$$failed" ] || { echo "wall-clock groups failed:$$failed"; false; }

# The adapter package of examples/esplora-adapter (docs/writing-a-provider.md), a package of its own that depends
# on this checkout by path. It shares this package's scratch path, so it reuses every module already built here
# (SwiftPM recompiles only Hummingbird's two for the other root, about 40 s) instead of a second cold build. Its
# binary must list esplora beside the built-ins and accept the example config.
EXAMPLE := examples/esplora-adapter
example-test: deps
	$(SWIFT) build --package-path $(EXAMPLE) --scratch-path $(CURDIR)/.build --build-tests
	$(SWIFT) test --package-path $(EXAMPLE) --scratch-path $(CURDIR)/.build --skip-build
	.build/debug/watcher-esplora plugins | grep -q '^esplora ' || (echo "watcher-esplora does not list esplora" && false)
	cd $(EXAMPLE) && $(CURDIR)/.build/debug/watcher-esplora check -c esplora.json > /dev/null
	@# The build plan on disk is now the example's: drop it, so the next build here plans afresh (deleted files!).
	rm -f .build/debug.yaml .build/*/debug/description.json

# Coverage-guided fuzzing of the parsers that face the outside (docs/fuzzing.md): libFuzzer through the toolchain's
# -sanitize=fuzzer,address, in its own scratch path. `make fuzz` runs each harness FUZZ_SECONDS (default 60);
# `make fuzz-ci` is a bounded pass (15 s each, about 6 minutes with the sanitizer build) to run before a change to a
# parser lands. A crash fails it and is saved under Fuzz/crashes/. `make test` replays the committed corpora instead.
FUZZ_SECONDS ?= 60
fuzz: deps
	SWIFT=$(SWIFT) scripts/fuzz.sh $(FUZZ_SECONDS)

fuzz-ci: deps
	SWIFT=$(SWIFT) scripts/fuzz.sh 15

# Formatting (the toolchain's swift format, --strict) and banned imports: the first step of both tiers.
lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Providers Tests Benchmarks examples/esplora-adapter
	@! grep -rn "import FoundationNetworking" Sources Providers Tests || (echo "FoundationNetworking is banned: use AsyncHTTPClient" && false)

# Formats the tree in place: what lint asks for.
format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Providers Tests Benchmarks examples/esplora-adapter

bench: deps
	$(SWIFT) run -c release watcher-bench

# A 1,000-address wallet's first full sync through a real ElectrumX: watcher against BDK's full_scan, requests
# counted by a proxy in front of the server (docs/benchmarks.md). About 10 minutes; not part of `make test`.
bench-oracle: deps oracle-deps
	$(SWIFT) build -c release --product watcher
	$(WATCHER_ORACLE_PYTHON) scripts/oracle/sync-bench.py .build/release/watcher

# The Debian package (docs/operations.md, "Installing the Debian package"): dist/watcher_<version>_<arch>.deb and its
# -dbgsym, from a release build with the static Swift standard library (about 15-30 minutes cold on 2 cores), checked
# with lintian and systemd-analyze. Not part of `make test`: CI does not run it.
package: deps
	@$(call install,$(PACKAGE_PACKAGES))
	SWIFT=$(SWIFT) scripts/package.sh

# Installs that .deb in a clean Debian 12 root (debootstrap minbase, cached in /var/cache/watcher-package-test) with
# apt-get and proves it runs there with no Swift: version, check, run, demo, upgrade, remove, purge. Needs root.
package-test: package
	@$(call install,$(PACKAGE_TEST_PACKAGES))
	scripts/package-test.sh
