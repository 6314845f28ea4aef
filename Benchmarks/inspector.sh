#!/usr/bin/env bash
# The inspector's page at 10,000 and 100,000 captured events, in headless chromium.
#
#   Benchmarks/inspector.sh            (or: make bench-inspector)
#
# Builds a release tracksnap, then Benchmarks/inspector.py (in the SDK venv, with selenium and the
# Python client; Debian's chromium and chromedriver) starts `tracksnap serve` on 127.0.0.1 for each
# size, ingests that many Segment calls through the control API, opens the page, and measures: the
# time for the page to show them all, a request's time to its row (50 posted to the collector, one
# at a time), the filter's time to a painted list, and the page's JavaScript heap and DOM nodes;
# then the same rows as a plain table with every row in the DOM, the peer. SIZES=10000,100000 and
# LIVE=50 by default; PYTHON names another venv with selenium and the client.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product tracksnap -q
"${PYTHON:-.build/sdk-venv/bin/python}" Benchmarks/inspector.py .build/release/tracksnap
