#!/usr/bin/env bash
# Replaying a cassette under load, on 127.0.0.1 only, every run bounded in time.
#
#   Benchmarks/replay.sh            (or: make bench-replay)
#
# Measures, in one run: requests/s with wrk (cycling through all 10,000 requests; the two take
# turns, and each keeps its fastest run) of
# `tracksnap serve --upstream … --cassette` replaying a 10,000-interaction cassette beside
# `mitmdump --server-replay` replaying the same flows, each checked to have answered from its
# recording; and the time from start to listening and the peak memory of `tracksnap serve` with
# that cassette and without one. The flows come from Benchmarks/replay_flows.py, the same on
# every run. Installs what it needs: wrk (apt), mitmproxy (pip).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}          # seconds per wrk run
CONNECTIONS=${CONNECTIONS:-64}
ROUNDS=${ROUNDS:-2}               # wrk runs of each proxy; the fastest counts
LOADS=${LOADS:-5}                 # starts of tracksnap timed, each way; the fastest counts

source Benchmarks/common.sh
need wrk wrk

"$MITMPROXY_PYTHON" Benchmarks/replay_flows.py write "$work"
cassette="$work/cassette.json"
bytes=$(stat -c %s "$cassette")

# Requests/s and non-2xx answers from wrk through a proxy on PORT.
load() {
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s "$work/requests.lua" "http://127.0.0.1:$1" > "$work/wrk.out"
  awk '/Requests\/sec/ {rps = $2} /Non-2xx/ {bad = $NF} END {print rps, bad + 0}' "$work/wrk.out"
}

# Starts `tracksnap serve ARGS` and waits for its line `listening on http://127.0.0.1:PORT`; sets
# $port, $serve_pid and $ready (seconds from start to that line).
serve() {
  local start; start=$(date +%s.%N)
  : > "$work/serve.out"  # before the start: a line left from the last run would be read
  "$TRACKSNAP" serve --port 0 --quiet "$@" > "$work/serve.out" &
  serve_pid=$!; pids+=("$serve_pid")
  for _ in $(seq 6000); do
    port=$(sed -n 's#^listening on http://127.0.0.1:\([0-9]*\).*#\1#p' "$work/serve.out")
    if [ -n "$port" ]; then ready=$(python3 -c "print($(date +%s.%N) - $start)"); return 0; fi
    sleep 0.005
  done
  echo "tracksnap serve did not start" >&2; return 1
}
stop() { kill -TERM "$1"; wait "$1" 2>/dev/null || true; }

# Nothing listens on port 9: only the recordings can answer.
replaying=(--upstream http://127.0.0.1:9 --cassette "$cassette" --record-mode never)

# Start-up, with the cassette and without: the fastest of $LOADS starts, and the peak memory
# (VmHWM) once listening.
best() { python3 -c "import sys; print(min(float(x) for x in sys.argv[1:]))" "$@"; }
with=() without=()
for _ in $(seq "$LOADS"); do
  serve "${replaying[@]}"; with+=("$ready"); with_kib=$(peak_kib "$serve_pid"); stop "$serve_pid"
  serve --upstream http://127.0.0.1:9; without+=("$ready"); without_kib=$(peak_kib "$serve_pid"); stop "$serve_pid"
done

serve "${replaying[@]}"
# Matched without host and port, as tracksnap's reverse proxy matches; an unmatched request is a
# 404 rather than forwarded; each flow answers as often as it is asked, as tracksnap's do.
mitm_port=$(free_port)
"$MITMDUMP" --mode reverse:https://127.0.0.1:9 --listen-host 127.0.0.1 --listen-port "$mitm_port" \
  --set confdir="$work/mitm" --set connection_strategy=lazy --server-replay "$work/flows.mitm" \
  --set server_replay_reuse=true --set server_replay_extra=404 \
  --set server_replay_ignore_host=true --set server_replay_ignore_port=true -q & mitm_pid=$!; pids+=($mitm_pid)
wait_port "$mitm_port" 1200

# The two take turns, $ROUNDS runs each, and each keeps its fastest: a neighbour's burst of work
# on the shared cores slows one run, not one proxy. Non-2xx answers are counted over all runs.
echo "wrk: 2 threads, $CONNECTIONS connections, ${DURATION}s per run, $ROUNDS runs each, cycling through 10,000 requests (1 in 10 a POST)"
ts_rps=0 ts_bad=0 mitm_rps=0 mitm_bad=0
for _ in $(seq "$ROUNDS"); do
  read -r rps bad < <(load "$port"); ts_bad=$((ts_bad + bad))
  ts_rps=$(python3 -c "print(max($ts_rps, $rps))")
  read -r rps bad < <(load "$mitm_port"); mitm_bad=$((mitm_bad + bad))
  mitm_rps=$(python3 -c "print(max($mitm_rps, $rps))")
done
"$MITMPROXY_PYTHON" Benchmarks/replay_flows.py check "$port" "tracksnap"
"$MITMPROXY_PYTHON" Benchmarks/replay_flows.py check "$mitm_port" "mitmdump"
stop "$serve_pid"
kill "$mitm_pid"

ratio() { python3 -c "print(f'{$1 / $2:.2f}x')"; }
mib() { python3 -c "print(f'{$1 / 1024:.0f} MiB')"; }
printf '\n%-52s %11s %9s\n' "proxy, replaying 10,000 interactions" "requests/s" "non-2xx"
printf '%-52s %11.0f %9s\n' "mitmdump 11.0.2 --server-replay" "$mitm_rps" "$mitm_bad"
printf '%-52s %11.0f %9s   %s of mitmdump (goal: at least 20x)\n' "tracksnap serve --cassette" "$ts_rps" "$ts_bad" "$(ratio "$ts_rps" "$mitm_rps")"

printf '\nthe cassette: %s interactions, %s bytes (%s) of JSON\n' 10000 "$bytes" "$(mib $((bytes / 1024)))"
printf '%-52s %11s %14s\n' "tracksnap serve, from start to listening" "seconds" "peak memory"
printf '%-52s %11.3f %14s\n' "without a cassette" "$(best "${without[@]}")" "$(mib "$without_kib")"
printf '%-52s %11.3f %14s\n' "with the cassette" "$(best "${with[@]}")" "$(mib "$with_kib")"
load_s=$(python3 -c "print($(best "${with[@]}") - $(best "${without[@]}"))")
load_ratio=$(python3 -c "print(f'{($with_kib - $without_kib) * 1024 / $bytes:.1f}x')")
printf '%-52s %11.3f %14s   %s the file'"'"'s size (goals: under 1 s, under 10x)\n' "loading the cassette (the difference)" \
  "$load_s" "$(mib $((with_kib - without_kib)))" "$load_ratio"
