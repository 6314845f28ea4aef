#!/usr/bin/env bash
# The two-sided loop of `make demo`: one run of the shop's app records both what its API answered
# (a cassette) and what it told analytics (a snapshot); later runs are answered from the
# cassette, offline, while their analytics are validated. Prints each command as it runs it.
# Usage: Snapshots/demo/shop/demo.sh TRACKSNAP OUT_DIR
set -euo pipefail
tracksnap=$1
out=$2
here=Snapshots/demo/shop
rm -rf "$out" && mkdir -p "$out"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true' EXIT

# serve RUN MODE: tracksnap serve with the shop's cassette, journaling run RUN; sets $TRACKSNAP.
serve() {
  rm -f "$out/serve.out"
  echo "\$ tracksnap serve --cassette $out/Cassettes/shop.json --record-mode $2 --journal $out/$1.ndjson &"
  "$tracksnap" serve --port 0 --quiet --cassette "$out/Cassettes/shop.json" --record-mode "$2" \
    --journal "$out/$1.ndjson" > "$out/serve.out" 2> "$out/$1.stderr" &
  server=$!
  pids+=("$server")
  for _ in $(seq 200); do grep -q listening "$out/serve.out" 2>/dev/null && break; sleep 0.05; done
  TRACKSNAP=$(sed -n 's/^listening on //p' "$out/serve.out")
}
# app [BUILD]: one run of the app, its API through tracksnap, its analytics to tracksnap's collector.
app() {
  echo "\$ python3 $here/app.py --proxy \$TRACKSNAP --api \$API --collector \$TRACKSNAP${1:+ --build $1}"
  python3 "$here/app.py" --proxy "$TRACKSNAP" --api "$API" --collector "$TRACKSNAP" ${1:+--build "$1"} || true
}
# stop: stops the server (which writes what the cassette recorded).
stop() { kill "$server"; wait "$server" 2>/dev/null || true; }

echo '# One run against the live API (a new order id on every call, a bearer token) records both halves.'
echo "# \$API is the shop's API (python3 $here/backend.py, which prints its port); \$TRACKSNAP is serve's address:"
python3 "$here/backend.py" > "$out/backend.port" &
backend=$!
pids+=("$backend")
for _ in $(seq 200); do [ -s "$out/backend.port" ] && break; sleep 0.05; done
API=http://127.0.0.1:$(cat "$out/backend.port")
serve run-1 all
app
stop
echo "\$ tracksnap record $out/checkout.json --capture $out/run-1.ndjson --validator segment"
"$tracksnap" record "$out/checkout.json" --capture "$out/run-1.ndjson" --validator segment
echo "\$ grep -c shop-s3cr3t $out/Cassettes/shop.json   # the API's token and cookies stay out of the cassette"
grep -c shop-s3cr3t "$out/Cassettes/shop.json" || true
echo
echo '# The API is stopped. The next run is answered from the cassette, offline, and its analytics pass:'
kill "$backend"
wait "$backend" 2>/dev/null || true
serve run-2 never
app
stop
echo "\$ tracksnap validate $out/checkout.json --capture $out/run-2.ndjson"
"$tracksnap" validate "$out/checkout.json" --capture "$out/run-2.ndjson"
echo
echo '# Build 1.6 renamed "Order Completed"; replayed the same way, the change is caught:'
serve run-3 never
app 1.6
stop
echo "\$ tracksnap validate $out/checkout.json --capture $out/run-3.ndjson"
"$tracksnap" validate "$out/checkout.json" --capture "$out/run-3.ndjson" || test $? -eq 1
