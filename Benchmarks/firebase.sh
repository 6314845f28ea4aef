#!/usr/bin/env bash
# Firebase Analytics uploads decoded, beside Python's bbpb (blackboxprotobuf) reading the same bodies.
#
#   Benchmarks/firebase.sh            (or: make bench-firebase)
#
# Benchmarks/firebase_batches.py writes, the same on every run, $BATCHES protobuf Batches as the
# iOS SDK uploads them (10 to 40 events each, 3 to 10 parameters an event). Then, in one run,
# each reads every body once: tracksnap's Firebase decoder into events (`VendorDecoder.firebase`,
# what validation, recording and the inspector run), tracksnap's schemaless reader
# (`ProtobufValue.read`) and bbpb's `decode_message` (schemaless), each from bytes already in
# memory (`TracksnapBenchmarks firebase`, a release build). They take turns, $ROUNDS passes
# each, and each keeps its fastest; all must count the events the generator wrote, or the script
# fails. bbpb is the version the test venv pins (`make sdk-venv`).
set -euo pipefail
cd "$(dirname "$0")/.."

BATCHES=${BATCHES:-200}
ROUNDS=${ROUNDS:-3}

make --no-print-directory -s sdk-venv
PYTHON=.build/sdk-venv/bin/python
swift build -c release --product TracksnapBenchmarks -q

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

expected=$("$PYTHON" Benchmarks/firebase_batches.py write "$work/bodies.b64" "$BATCHES")
for _ in $(seq "$ROUNDS"); do
  .build/release/TracksnapBenchmarks firebase "$work/bodies.b64"
  "$PYTHON" Benchmarks/firebase_batches.py measure "$work/bodies.b64"
done > "$work/results"

version=$("$PYTHON" -c 'import importlib.metadata as m; print(m.version("bbpb"))')
"$PYTHON" - "$work/results" "$expected" "$BATCHES" "$version" <<'PY'
import sys

results, expected, batches, version = sys.argv[1:]
best, counted = {}, {}
for line in open(results):
    name, count, events, seconds = line.split()
    best[name] = min(best.get(name, float("inf")), float(seconds))
    counted.setdefault(name, set()).add(int(events))
rows = [("bbpb", f"Python bbpb {version}, decode_message (schemaless)"),
        ("tracksnap-schemaless", "tracksnap ProtobufValue.read (schemaless)"),
        ("tracksnap-firebase", "tracksnap VendorDecoder.firebase (into events)")]
print(f"{batches} Firebase batches (protobuf, before gzip), {expected} events")
print(f"{'reader':<52}{'batches/s':>11}{'events/s':>12}{'vs bbpb':>10}")
for name, title in rows:
    batch_rate = int(batches) / best[name]
    event_rate = int(expected) / best[name]
    print(f"{title:<52}{batch_rate:>11.0f}{event_rate:>12.0f}{best['bbpb'] / best[name]:>9.0f}x")
print("goal: tracksnap's decoder at least 20x bbpb")
wrong = [name for name in counted if counted[name] != {int(expected)}]
if wrong:
    sys.exit(f"error: {', '.join(wrong)} did not count {expected} events")
PY
