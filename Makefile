# tracksnap: `make demo` runs the demo, `make test` runs the tests, `make fuzz` fuzzes the parsers,
# `make docs` builds the API reference, `make install` installs tracksnap, its man page and completions.
# Each installs what it needs.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
SWIFT ?= swift
TRACKSNAP := .build/debug/tracksnap
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test check public-api json-schema-suite docs docs-check front-page-check install-files install-check format bench bench-server bench-intercept bench-replay bench-plan bench-firebase bench-inspector plan-bench-venv deps build sdk-venv mitmproxy-venv test-tools install fuzz fuzz-build fuzz-smoke fuzz-run python-client control-api-check python-test screenshots

# PCRE2 and zlib are the system libraries tracksnap links; pkg-config finds them for SwiftPM.
deps:
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists libpcre2-8 zlib; then \
	  echo "Installing libpcre2-dev, zlib1g-dev and pkg-config (PCRE2 for patterns, zlib for gzip bodies)..."; \
	  if command -v apt-get >/dev/null; then $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq libpcre2-dev zlib1g-dev pkg-config >/dev/null; \
	  elif command -v brew >/dev/null; then brew install pcre2 zlib pkg-config; \
	  else echo "error: install PCRE2 (libpcre2-8), zlib and pkg-config, then run make again" >&2; exit 2; fi; \
	fi

# The first build (no binary yet) says what it builds as it goes, on stderr: each module once, with
# SwiftPM's step count; later builds are quiet. The demo's output stays what the README shows.
build: deps
	@if [ -x .build/debug/tracksnap ]; then $(SWIFT) build --product tracksnap -q; else \
	  echo "Building tracksnap and its dependencies the first time: 10 to 30 minutes on two cores, most of it SwiftNIO, swift-crypto and BoringSSL. Each module is named as it starts:" >&2; \
	  { $(SWIFT) build --product tracksnap 2>&1; echo "swift build exited $$?"; } | awk '\
	    /^\[[0-9]+\/[0-9]+\] Compiling / { if (!seen[$$3]++) { print "  " $$1 " " $$3; fflush() } next } \
	    /error:|warning: .tracksnap/ { print; fflush(); next } \
	    /^swift build exited / { status = $$4 } \
	    END { exit status }' >&2; fi

# The demo: a web shop's checkout, captured from two releases of the app, checked against
# Snapshots/demo/checkout.json; then a product team's edit to the snapshot; then the two-sided
# loop, live (Snapshots/demo/shop: python3 alone): one run records the API's cassette and the
# analytics' snapshot, later runs are answered offline and validated.
demo: build
	@echo '$$ tracksnap lint Snapshots Validators'
	@$(TRACKSNAP) lint Snapshots Validators
	@echo
	@echo '# Release 1.4 sends what the analytics team expects:'
	@echo '$$ tracksnap validate Snapshots/demo/checkout.json --capture Snapshots/demo/captures/release-1.4.har'
	@$(TRACKSNAP) validate Snapshots/demo/checkout.json --capture Snapshots/demo/captures/release-1.4.har
	@echo
	@echo '# Release 1.5 renamed an event, dropped a parameter and sends a screen view twice:'
	@echo '$$ tracksnap validate Snapshots/demo/checkout.json --capture Snapshots/demo/captures/release-1.5.har'
	@$(TRACKSNAP) validate Snapshots/demo/checkout.json --capture Snapshots/demo/captures/release-1.5.har || test $$? -eq 1
	@echo
	@echo '# The product team now wants a coupon on every purchase, and adds "coupon": "WELCOME10" to'
	@echo '# a copy of the snapshot, .build/demo/checkout.json; release 1.4 does not send one:'
	@mkdir -p .build/demo
	@sed 's/^\( *\)"currency": "EUR",/\1"coupon": "WELCOME10",\n&/' Snapshots/demo/checkout.json > .build/demo/checkout.json
	@echo '$$ tracksnap validate .build/demo/checkout.json --capture Snapshots/demo/captures/release-1.4.har'
	@$(TRACKSNAP) validate .build/demo/checkout.json --capture Snapshots/demo/captures/release-1.4.har || test $$? -eq 1
	@echo
	@echo "# Recorded from one run of Segment's Python SDK against tracksnap serve (default profile):"
	@rm -f .build/demo/segment.json .build/demo/segment-events.json
	@echo '$$ tracksnap record .build/demo/segment.json --capture Snapshots/demo/captures/segment-run-1.ndjson'
	@$(TRACKSNAP) record .build/demo/segment.json --capture Snapshots/demo/captures/segment-run-1.ndjson
	@echo
	@echo '# The next run (new message ids, new times, the server on another port) passes with no edit:'
	@echo '$$ tracksnap validate .build/demo/segment.json --capture Snapshots/demo/captures/segment-run-2.ndjson'
	@$(TRACKSNAP) validate .build/demo/segment.json --capture Snapshots/demo/captures/segment-run-2.ndjson
	@echo
	@echo '# Learnt from both runs, event by event; a later build renamed "Order Completed":'
	@echo '$$ tracksnap record .build/demo/segment-events.json --capture Snapshots/demo/captures/segment-run-1.ndjson --rerun Snapshots/demo/captures/segment-run-2.ndjson --validator segment'
	@$(TRACKSNAP) record .build/demo/segment-events.json --capture Snapshots/demo/captures/segment-run-1.ndjson --rerun Snapshots/demo/captures/segment-run-2.ndjson --validator segment
	@echo '$$ tracksnap validate .build/demo/segment-events.json --capture Snapshots/demo/captures/segment-run-3-renamed.ndjson'
	@$(TRACKSNAP) validate .build/demo/segment-events.json --capture Snapshots/demo/captures/segment-run-3-renamed.ndjson || test $$? -eq 1
	@echo
	@echo '# Vendor traffic is checked event by event: one Segment batch from the official Python SDK:'
	@echo '$$ tracksnap validate Snapshots/examples/segment.json --capture Snapshots/examples/captures/segment.ndjson'
	@$(TRACKSNAP) validate Snapshots/examples/segment.json --capture Snapshots/examples/captures/segment.ndjson
	@echo
	@echo "# The apps' own analytics too: a Firebase upload (a protobuf batch, events named as GA4 names them):"
	@echo '$$ tracksnap validate Snapshots/examples/firebase.json --capture Snapshots/examples/captures/firebase.ndjson'
	@$(TRACKSNAP) validate Snapshots/examples/firebase.json --capture Snapshots/examples/captures/firebase.ndjson
	@echo
	@Snapshots/demo/shop/demo.sh $(TRACKSNAP) .build/demo/shop

# The analytics SDKs the end-to-end tests run against `tracksnap serve`, at the versions the decoder
# fixtures were recorded with, jsonschema for Schemas/check.py and as the JSON Schema validator's
# differential peer (its sources also hold the official test suite: `json-schema-suite` below),
# schemathesis for the control API's OpenAPI check, pytest for the Python client's tests, h2 for
# the intercepted HTTP/2 timeout tests' client, vcrpy for the replay tests' cassettes (brotli, for
# their brotli answer), selenium for the inspector's browser tests (it drives Debian's chromedriver,
# never one it downloads), bbpb (blackboxprotobuf) as the schemaless protobuf reader's differential
# peer, protobuf to encode the descriptor-set tests' bodies, iab-tcf to read back the TC strings the
# consent tests build (Tests/SDKs/build_tc_strings.py), in their
# own venv (current Debian and Ubuntu refuse pip into the system Python). Installed only when one is
# missing or at another version; when PyPI cannot be reached this fails, it does not skip the tests.
SDK_VENV := .build/sdk-venv
JSONSCHEMA_VERSION := 4.26.0
SDK_PACKAGES := segment-analytics-python==2.4.0 rudder-sdk-python==2.1.9 mixpanel==5.4.1 \
                amplitude-analytics==1.3.0 snowplow-tracker==1.1.0 posthog==7.91.1 jsonschema==$(JSONSCHEMA_VERSION) \
                schemathesis==4.32.5 pytest==9.2.0 h2==4.4.1 vcrpy==9.4.2 selenium==4.38.0 bbpb==1.4.2 brotli==1.2.1 \
                protobuf==7.36.2 iab-tcf==0.2.2
VENV_CHECK := import sys, importlib.metadata as m; \
  key = lambda name: name.lower().replace("_", "-"); \
  have = {key(d.metadata["Name"]): d.version for d in m.distributions()}; \
  sys.exit(any(have.get(key(n)) != v for n, v in (p.split("==") for p in sys.argv[1:])))
# $(call venv,FOLDER): a venv there unless there is one, installing python3-venv if need be.
venv = [ -x $(1)/bin/python ] || python3 -m venv $(1) 2>/dev/null || { \
	  echo "Installing python3-venv (for $(1))..."; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq python3-venv >/dev/null && python3 -m venv $(1); }
sdk-venv:
	@$(call venv,$(SDK_VENV))
	@$(SDK_VENV)/bin/python -c '$(VENV_CHECK)' $(SDK_PACKAGES) || { \
	  echo "Installing the analytics SDKs the end-to-end tests run: $(SDK_PACKAGES)"; \
	  $(SDK_VENV)/bin/python -m pip install -q --disable-pip-version-check $(SDK_PACKAGES) \
	    || { echo "error: pip could not install the SDKs into $(SDK_VENV) (is PyPI reachable?)" >&2; exit 2; }; }

# The official JSON-Schema-Test-Suite (json-schema-org/JSON-Schema-Test-Suite), which
# JSONSchemaValidationTests run every required case of: it ships inside Python jsonschema's source
# distribution (`json/tests`, `json/remotes`), fetched at the version the venv pins with its pip and
# unpacked into .build/json-schema-suite; nothing of it is committed. Fetched once per version.
JSON_SCHEMA_SUITE_VERSION := $(JSONSCHEMA_VERSION)
JSON_SCHEMA_SUITE := .build/json-schema-suite
JSON_SCHEMA_SUITE_STAMP := $(JSON_SCHEMA_SUITE)/.jsonschema-$(JSON_SCHEMA_SUITE_VERSION)
json-schema-suite: $(JSON_SCHEMA_SUITE_STAMP)
$(JSON_SCHEMA_SUITE_STAMP): | sdk-venv
	@rm -rf $(JSON_SCHEMA_SUITE) && mkdir -p $(JSON_SCHEMA_SUITE)/download
	@$(SDK_VENV)/bin/python -m pip download -q --disable-pip-version-check --no-binary :all: --no-deps \
	  -d $(JSON_SCHEMA_SUITE)/download jsonschema==$(JSON_SCHEMA_SUITE_VERSION) \
	  || { echo "error: pip could not download jsonschema $(JSON_SCHEMA_SUITE_VERSION)'s sources (is PyPI reachable?)" >&2; exit 2; }
	@tar -xzf $(JSON_SCHEMA_SUITE)/download/jsonschema-$(JSON_SCHEMA_SUITE_VERSION).tar.gz -C $(JSON_SCHEMA_SUITE) \
	  --strip-components=2 jsonschema-$(JSON_SCHEMA_SUITE_VERSION)/json/tests jsonschema-$(JSON_SCHEMA_SUITE_VERSION)/json/remotes
	@rm -rf $(JSON_SCHEMA_SUITE)/download && touch $@

# mitmproxy, the peer the benchmarks measure beside and whose HAR files the replay tests read, in a
# venv of its own: it pins h2, h11 and cryptography below the versions in the SDK venv. Installed
# only when missing or at another version (30 to 40 s from PyPI on this project's machine).
MITMPROXY_VENV := .build/mitmproxy-venv
MITMPROXY_PACKAGES := mitmproxy==11.0.2
mitmproxy-venv:
	@$(call venv,$(MITMPROXY_VENV))
	@$(MITMPROXY_VENV)/bin/python -c '$(VENV_CHECK)' $(MITMPROXY_PACKAGES) || { \
	  echo "Installing $(MITMPROXY_PACKAGES) into $(MITMPROXY_VENV)"; \
	  $(MITMPROXY_VENV)/bin/python -m pip install -q --disable-pip-version-check $(MITMPROXY_PACKAGES) \
	    || { echo "error: pip could not install mitmproxy into $(MITMPROXY_VENV) (is PyPI reachable?)" >&2; exit 2; }; }

# The plan benchmark's peers, Python's jsonschema (at the version the tests use) and jsonschema-rs,
# in a venv of their own. Installed only when missing or at another version.
PLAN_BENCH_VENV := .build/plan-bench-venv
PLAN_BENCH_PACKAGES := jsonschema==$(JSONSCHEMA_VERSION) jsonschema-rs==0.61.0
plan-bench-venv:
	@$(call venv,$(PLAN_BENCH_VENV))
	@$(PLAN_BENCH_VENV)/bin/python -c '$(VENV_CHECK)' $(PLAN_BENCH_PACKAGES) || { \
	  echo "Installing $(PLAN_BENCH_PACKAGES) into $(PLAN_BENCH_VENV)"; \
	  $(PLAN_BENCH_VENV)/bin/python -m pip install -q --disable-pip-version-check $(PLAN_BENCH_PACKAGES) \
	    || { echo "error: pip could not install the plan benchmark's peers into $(PLAN_BENCH_VENV) (is PyPI reachable?)" >&2; exit 2; }; }

# The Python client (clients/python), installed into the venv as a user installs it, again only
# when one of its files changed.
PYTHON_CLIENT_STAMP := $(SDK_VENV)/.tracksnap-client-installed
PYTHON_CLIENT_FILES := $(shell find clients/python -type f -not -path '*/__pycache__/*' -not -path '*.egg-info*' -not -path 'clients/python/build/*' 2>/dev/null)
$(PYTHON_CLIENT_STAMP): $(PYTHON_CLIENT_FILES) | sdk-venv
	@$(SDK_VENV)/bin/python -m pip install -q --disable-pip-version-check ./clients/python \
	  || { echo "error: pip could not install clients/python into $(SDK_VENV)" >&2; exit 2; }
	@touch $@
python-client: sdk-venv $(PYTHON_CLIENT_STAMP)

# The control API against its OpenAPI description (schemathesis, a bounded run), then the Python
# client's own tests (the vendors' SDKs through its pytest plugin), both against the debug binary.
control-api-check: python-client
	@TRACKSNAP_BIN=$(CURDIR)/$(TRACKSNAP) $(SDK_VENV)/bin/python Schemas/check_control_api.py
python-test: python-client
	@cd clients/python && TRACKSNAP_BIN=$(CURDIR)/$(TRACKSNAP) $(CURDIR)/$(SDK_VENV)/bin/python -m pytest -q -p no:cacheprovider

# The inspector's screenshots in Documentation/images, made by its browser test.
screenshots: build python-client
	@cd clients/python && TRACKSNAP_SCREENSHOTS=$(CURDIR)/Documentation/images TRACKSNAP_BIN=$(CURDIR)/$(TRACKSNAP) \
	  $(CURDIR)/$(SDK_VENV)/bin/python -m pytest -q -p no:cacheprovider tests/test_inspector.py

# curl, openssl, Debian's chromium, NSS's certutil and ca-certificates are the HTTPS interception tests' clients,
# certificate checker and trust store, as a user's; strace shows the mode the CA's folder is made with; Debian's
# chromedriver lets the inspector's tests drive that chromium; protoc compiles the descriptor-set tests' .proto (COMMAND:PACKAGE).
TEST_TOOLS := curl:curl openssl:openssl chromium:chromium certutil:libnss3-tools update-ca-certificates:ca-certificates \
	strace:strace chromedriver:chromium-driver protoc:protobuf-compiler
test-tools:
	@missing=""; for pair in $(TEST_TOOLS); do command -v $${pair%%:*} >/dev/null || missing="$$missing $${pair#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing$$missing (the HTTPS interception and inspector tests' clients)..."; \
	  $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

# The code the toolchain's formatter keeps in shape (.swift-format); `make format` applies it.
FORMATTED := Sources Tools Tests Package.swift
format:
	@$(SWIFT) format --in-place --recursive --parallel $(FORMATTED)

# The tests: schema examples, the formatter's check, a build free of warnings in this package's
# own code (dependencies' warnings are theirs), the documentation's links and demo output, the
# install step, the DocC catalog without warnings, a short fuzz of every parser, the control API against its OpenAPI
# description, the Python client's tests, then every Swift test (the SDK end-to-end tests need
# `sdk-venv`), whose closing line ends the output.
OWN_WARNINGS := ^$(CURDIR)/(Sources|Tools|Tests)/.*warning:|warning: 'tracksnap'
# Swift Testing runs at most this many tests at once (its SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH):
# unbounded, the CPU-heavy suites (the official JSON Schema suite through snapshots, the schema
# bounds, the protobuf differential test) beside the waiting and timeout tests made different timing
# tests fail on each of three whole runs on this 2-core machine (every one passed alone); with 4,
# 881 tests passed in 162 s instead of about 120 s.
SWIFT_TEST_WIDTH ?= 4
test: deps sdk-venv mitmproxy-venv test-tools json-schema-suite
	@$(SDK_VENV)/bin/python Schemas/check.py
	@$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED) || { echo "error: run make format" >&2; exit 1; }
	@$(SWIFT) build --build-tests 2>&1 | tee .build-warnings.log | grep -E "error:|$(OWN_WARNINGS)" || true
	@! grep -qE "$(OWN_WARNINGS)" .build-warnings.log || { echo "error: the build has warnings (see above)" >&2; exit 1; }
	@! grep -q 'error:' .build-warnings.log
	@rm -f .build-warnings.log
	@$(MAKE) --no-print-directory docs-check front-page-check install-check docs
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory control-api-check python-test
	@SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(SWIFT_TEST_WIDTH) $(SWIFT) test

# The fast loop while working: the formatter's check and every Swift test not tagged .process,
# .network or .browser (Tests/Support/Costs.swift; TRACKSNAP_CHECK cancels the tagged ones), after
# a build. `make test` runs everything, and is what CI runs.
check: deps json-schema-suite
	@$(SWIFT) format lint --strict --recursive --parallel $(FORMATTED) || { echo "error: run make format" >&2; exit 1; }
	@$(SWIFT) build --build-tests
	@TRACKSNAP_CHECK=1 $(SWIFT) test --skip-build

# The API reference: TracksnapTesting's DocC catalog (Sources/TracksnapTesting/TracksnapTesting.docc
# and its doc comments), built by swift-docc-plugin into .build/docs; a warning fails it.
docs: deps
	@$(SWIFT) package --disable-sandbox --allow-writing-to-directory .build/docs generate-documentation --target TracksnapTesting \
	  --output-path .build/docs --warnings-as-errors 2>&1 \
	  | { grep -vE '^(Building for debugging|\[[0-9]+/[0-9]+\]|Build of (product|target)|Write complete|Compiling|Emitting|Linking|Extracting symbol|Finished (extracting|building)|Building documentation|Generated documentation archive|  /|$$)' || true; }
	@echo "documentation: TracksnapTesting's DocC archive in .build/docs, no warnings"

# How many public declarations each library product brings into scope (ARCHITECTURE.md's table):
# its module's own and what its Exports.swift re-exports, counted from symbol graphs.
public-api: build
	@python3 Tools/public-api.py

# README.md, ARCHITECTURE.md and Documentation/: every relative link and anchor leads somewhere, and
# the README's demo output is what `make demo` prints.
docs-check: build
	@mkdir -p .build/demo
	@$(MAKE) --no-print-directory -s demo > .build/demo/output.txt
	@python3 Documentation/check.py --demo .build/demo/output.txt

# The README's "A Swift test" as a user writes it: its Package.swift lines and its Swift test, in a
# package of their own in .build/front-page (written by Documentation/check.py, with the app and the
# snapshot from Tests/FrontPage) that depends on this checkout by path and resolves the rest as this
# package does (git's URL mirrors, this package's Package.resolved), plus a second test target on the
# TracksnapCapture and TracksnapExtensions products, and the guide's command line of one's own
# (SnapshotsAndProfiles.md: its executable target on TracksnapCommandLine and its main.swift, with a
# decoder of its own) run by a third test target. `swift test` there builds only what those products
# need (no SwiftNIO, no server; swift-argument-parser for the command line): from an empty
# .build/front-page (resolving included) on 2 cores under a load of 5 to 8, 207 s without the command
# line's targets and 238 s with them (43 s without, on a quieter machine, before); 20 s after (the
# page's files are written anew each run).
FRONT_PAGE := .build/front-page
front-page-check: deps
	@python3 Documentation/check.py --front-page $(FRONT_PAGE)
	@start=$$(date +%s); \
	(cd $(FRONT_PAGE) && $(SWIFT) test > test.log 2>&1) \
	  || { grep -E "error:|✘" $(FRONT_PAGE)/test.log | head -40; echo "error: the README's Swift test fails as a user's package (see $(FRONT_PAGE)/test.log)" >&2; exit 1; }; \
	echo "front page: its Package.swift and Swift test, as a package of their own, pass ($$(( $$(date +%s) - start )) s)"

# Fuzzing: every parser under libFuzzer with AddressSanitizer, one target at a time
# (Tools/TracksnapFuzzing/Targets; `TRACKSNAP_FUZZ=list .build-fuzz/debug/TracksnapFuzz` lists
# them). The sanitized build has its own scratch path. Each target's corpus grows in
# .build-fuzz/corpus/TARGET, seeded from the repository's fixtures and from Tests/Fuzz/TARGET; an
# input that crashes or breaks a property is written to .build-fuzz/crashes/TARGET/ and the run
# fails (libFuzzer's log: .build-fuzz/logs/TARGET.log). Fix the parser, then copy the input into
# Tests/Fuzz/TARGET/: the unit tests replay it (by hand: `swift run TracksnapFuzz TARGET FILE`).
# `make fuzz FUZZ_SECONDS=600 FUZZ_TARGETS=json` fuzzes one target for ten minutes.
FUZZ_SECONDS ?= 60
FUZZ_SCRATCH := .build-fuzz
FUZZ := $(FUZZ_SCRATCH)/debug/TracksnapFuzz
FUZZ_TARGETS ?= $(shell TRACKSNAP_FUZZ=list $(FUZZ) 2>/dev/null | cut -d' ' -f1)

# gold warns once for each of the ASan runtime's local symbols: the toolchain's, not this package's.
fuzz-build: deps
	@$(SWIFT) build -q --product TracksnapFuzz --scratch-path $(FUZZ_SCRATCH) \
	  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING 2>&1 | { grep -v "Cannot export local symbol '__asan" || true; }

fuzz: fuzz-build
	@$(MAKE) --no-print-directory fuzz-run FUZZ_RUN_SECONDS=$(FUZZ_SECONDS)

# In `make test`: a few seconds of each target.
FUZZ_SMOKE_SECONDS ?= 4
fuzz-smoke: fuzz-build
	@$(MAKE) --no-print-directory fuzz-run FUZZ_RUN_SECONDS=$(FUZZ_SMOKE_SECONDS)

fuzz-run:
	@for target in $(FUZZ_TARGETS); do \
	  seeds=$$(TRACKSNAP_FUZZ=list $(FUZZ) | awk -v t=$$target '$$1 == t { $$1 = ""; print }'); \
	  mkdir -p $(FUZZ_SCRATCH)/corpus/$$target $(FUZZ_SCRATCH)/crashes/$$target $(FUZZ_SCRATCH)/logs Tests/Fuzz/$$target; \
	  printf 'fuzz %-9s %ss: ' $$target $(FUZZ_RUN_SECONDS); \
	  if SWIFT_BACKTRACE=enable=no LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Fuzz/lsan.supp TRACKSNAP_FUZZ=$$target $(FUZZ) -max_total_time=$(FUZZ_RUN_SECONDS) -max_len=65536 -timeout=10 \
	       -artifact_prefix=$(FUZZ_SCRATCH)/crashes/$$target/ \
	       $(FUZZ_SCRATCH)/corpus/$$target Tests/Fuzz/$$target $$seeds > $(FUZZ_SCRATCH)/logs/$$target.log 2>&1; then \
	    echo "$$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' $(FUZZ_SCRATCH)/logs/$$target.log) runs, $$(ls $(FUZZ_SCRATCH)/corpus/$$target | wc -l) inputs in the corpus, no crash"; \
	  else \
	    echo "FAILED"; grep -v '^\(INFO\|#\|\s*NEW_FUNC\)' $(FUZZ_SCRATCH)/logs/$$target.log | head -60; \
	    echo "error: the fuzzer found an input that crashes '$$target' or breaks a property: see $(FUZZ_SCRATCH)/crashes/$$target/" >&2; \
	    exit 1; \
	  fi; \
	done

# `make install [PREFIX=/usr/local] [DESTDIR=]`: a release tracksnap with the Swift standard
# library and Foundation linked in statically, so that it runs without the toolchain on the PATH;
# its man page (argument-parser's generate-manual, the tool behind its `generate-manual` plugin,
# run on that binary) and its bash, zsh and fish completions (`--generate-completion-script`).
PREFIX ?= /usr/local
install: deps
	@$(SWIFT) build -c release --product tracksnap --static-swift-stdlib -q 2>&1 \
	  | { grep -v "use of \`mktemp' is dangerous" || true; }
	@$(SWIFT) build -c release --product generate-manual -q
	@$(MAKE) --no-print-directory install-files INSTALL_BUILD=.build/release

# What `install` puts under $(DESTDIR)$(PREFIX), from the binaries in INSTALL_BUILD.
INSTALL_BUILD ?= .build/release
install-files:
	@root="$(DESTDIR)$(PREFIX)"; bin=$(INSTALL_BUILD)/tracksnap; man=$(INSTALL_BUILD)/man; \
	install -d "$$root/bin" "$$root/share/man/man1" "$$root/share/bash-completion/completions" \
	  "$$root/share/zsh/site-functions" "$$root/share/fish/vendor_completions.d" "$$man"; \
	install -s -m 0755 $$bin "$$root/bin/tracksnap"; \
	$(INSTALL_BUILD)/generate-manual $$bin --output-directory "$$man" >/dev/null; \
	install -m 0644 "$$man/tracksnap.1" "$$root/share/man/man1/tracksnap.1"; \
	$$bin --generate-completion-script bash > "$$root/share/bash-completion/completions/tracksnap"; \
	$$bin --generate-completion-script zsh > "$$root/share/zsh/site-functions/_tracksnap"; \
	$$bin --generate-completion-script fish > "$$root/share/fish/vendor_completions.d/tracksnap.fish"; \
	echo "installed $$root/bin/tracksnap, its man page and its bash, zsh and fish completions"

# In `make test`: the install step, from the debug build, into a fresh directory: every file there,
# the man page in mdoc, each completion script naming the subcommands.
install-check:
	@$(SWIFT) build --product generate-manual -q
	@prefix=$$(mktemp -d); trap 'rm -rf "$$prefix"' EXIT; \
	$(MAKE) --no-print-directory install-files INSTALL_BUILD=.build/debug PREFIX="$$prefix" >/dev/null; \
	for file in bin/tracksnap share/man/man1/tracksnap.1 share/bash-completion/completions/tracksnap \
	    share/zsh/site-functions/_tracksnap share/fish/vendor_completions.d/tracksnap.fish; do \
	  test -s "$$prefix/$$file" || { echo "error: make install put no $$file under PREFIX" >&2; exit 1; }; \
	done; \
	grep -q '^\.Sh NAME' "$$prefix/share/man/man1/tracksnap.1" || { echo "error: tracksnap.1 is no man page" >&2; exit 1; }; \
	for file in share/bash-completion/completions/tracksnap share/zsh/site-functions/_tracksnap \
	    share/fish/vendor_completions.d/tracksnap.fish; do \
	  grep -q validate "$$prefix/$$file" || { echo "error: $$file does not complete tracksnap's subcommands" >&2; exit 1; }; \
	done; \
	echo "make install: the binary, the man page and 3 completion scripts"

# Benchmarks: a release build; figures and ratios to peers measured in the same run.
bench: deps
	@$(SWIFT) run -c release -q TracksnapBenchmarks

# The capture server under wrk on 127.0.0.1, beside nginx and mitmdump (installs them).
bench-server: deps
	@Benchmarks/server.sh

# HTTPS interception (serve --intercept --answer) beside mitmdump, through curl --parallel.
bench-intercept: deps
	@Benchmarks/intercept.sh

# Replaying a 10,000-interaction cassette under wrk beside mitmdump --server-replay; loading it.
bench-replay: deps
	@Benchmarks/replay.sh

# Events per second checked against a plan of 200 event schemas, beside jsonschema and jsonschema-rs.
bench-plan: deps
	@Benchmarks/plan.sh

# Firebase uploads decoded into events per second, beside Python's bbpb reading the same bodies schemaless.
bench-firebase: deps
	@Benchmarks/firebase.sh

# The inspector's page at 10,000 and 100,000 events in headless chromium, beside a plain table of every row.
bench-inspector: deps python-client test-tools
	@Benchmarks/inspector.sh
