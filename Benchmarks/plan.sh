#!/usr/bin/env bash
# Events checked against a tracking plan, beside Python's jsonschema and jsonschema-rs.
#
#   Benchmarks/plan.sh            (or: make bench-plan)
#
# Benchmarks/plan_events.py writes, the same on every run, a native plan of 200 event schemas and
# $EVENTS events as JSON lines, one in twenty invalid. Then, in one run, each of them validates
# every event against its event's schema by name, from events already parsed: tracksnap through
# `TrackingPlan.check` (what `validate --plan` runs on each decoded event) and through the
# compiled `JSONSchema.isValid` alone (`TracksnapBenchmarks plan`, a release build), jsonschema
# (`Draft7Validator(schema).is_valid`) and jsonschema-rs (`validator_for(schema).is_valid`), each
# validator compiled once. They take turns, $ROUNDS passes each, and each keeps its fastest; all
# must count the same valid events as the generator meant, or the script fails. Installs its peers
# with pip in .build/plan-bench-venv (`make plan-bench-venv`).
set -euo pipefail
cd "$(dirname "$0")/.."

EVENTS=${EVENTS:-100000}
ROUNDS=${ROUNDS:-3}

make --no-print-directory -s plan-bench-venv
PYTHON=.build/plan-bench-venv/bin/python
swift build -c release --product TracksnapBenchmarks -q

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

expected=$("$PYTHON" Benchmarks/plan_events.py write "$work" "$EVENTS")
for _ in $(seq "$ROUNDS"); do
  .build/release/TracksnapBenchmarks plan "$work/plan.json" "$work/events.ndjson"
  "$PYTHON" Benchmarks/plan_events.py measure "$work" jsonschema-rs
  "$PYTHON" Benchmarks/plan_events.py measure "$work" jsonschema
done > "$work/results"

versions=$("$PYTHON" -c 'import importlib.metadata as m; print(m.version("jsonschema"), m.version("jsonschema-rs"))')
"$PYTHON" - "$work/results" "$expected" "$EVENTS" $versions <<'EOF'
import sys

results, expected, events, jsonschema_version, rs_version = sys.argv[1:]
best, valid = {}, {}
for line in open(results):
    name, count, seconds = line.split()
    best[name] = min(best.get(name, float("inf")), float(seconds))
    valid.setdefault(name, set()).add(int(count))
rows = [("jsonschema", f"Python jsonschema {jsonschema_version}, Draft7Validator.is_valid"),
        ("jsonschema-rs", f"jsonschema-rs {rs_version}, validator_for(schema).is_valid"),
        ("tracksnap-plan", "tracksnap TrackingPlan.check (validate --plan)"),
        ("tracksnap-schema", "tracksnap JSONSchema.isValid, schema by name")]
rate = {name: int(events) / best[name] for name in best}
print(f"{events} events (JSON lines), a native plan of 200 event schemas; {expected} events valid by construction")
print(f"{'validator':<56}{'valid':>8}{'events/s':>11}{'vs jsonschema':>15}{'vs jsonschema-rs':>18}")
for name, title in rows:
    counts = ",".join(str(c) for c in sorted(valid[name]))
    print(f"{title:<56}{counts:>8}{rate[name]:>11.0f}{rate[name] / rate['jsonschema']:>14.2f}x"
          f"{rate[name] / rate['jsonschema-rs']:>17.2f}x")
print("goals: at least 20x jsonschema, at least 1x jsonschema-rs")
wrong = [name for name in valid if valid[name] != {int(expected)}]
if wrong:
    sys.exit(f"error: {', '.join(wrong)} did not count {expected} valid events")
EOF
