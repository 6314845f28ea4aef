#!/usr/bin/env bash
# HTTPS interception under load, on 127.0.0.1 only, every run bounded in count.
#
#   Benchmarks/intercept.sh            (or: make bench-intercept)
#
# Measures, in one run, with the same client (curl --parallel through the proxy, trusting each
# proxy's CA): requests/s over kept-alive intercepted TLS connections, and new intercepted TLS
# connections/s (Connection: close, one CONNECT and one handshake per request), of
# `tracksnap serve --intercept api.segment.io --answer` beside mitmproxy's `mitmdump` with an
# addon that answers the same way; each beside the CPU time the proxy spent on a request. Then
# tracksnap's peak memory after $MANY intercepted requests with --max-requests. Installs what it
# needs: curl (apt), mitmproxy (pip, in .build/mitmproxy-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${REQUESTS:-20000}       # requests per kept-alive run
CONNECTIONS=${CONNECTIONS:-3000}  # requests per new-connection run
PARALLEL=${PARALLEL:-32}          # requests at once, over all clients
CLIENTS=${CLIENTS:-2}             # curl processes: one curl thread is slower at TLS than the proxy
MANY=${MANY:-100000}

source Benchmarks/common.sh
need curl curl
url="https://api.segment.io/v1/track"
body='{"type":"track","event":"Order Completed","userId":"user-42","properties":{"revenue":12.5}}'

# Writes $CLIENTS curl configs of COUNT POSTs in all through proxy PORT trusting CA, and prints
# their paths; with CLOSE each POST asks for its own connection. Each POST is an operation of its
# own (`next`): curl joins every `data` of one operation into one body, so without it the Nth
# request would carry N bodies.
configs() {
  local count=$1 close=$2 port=$3 ca=$4 client i file
  for client in $(seq "$CLIENTS"); do
    file="$work/curl-$count-$close-$port-$client.cfg"
    : > "$file"
    for i in $(seq $((count / CLIENTS))); do
      [ "$i" -gt 1 ] && printf 'next\n' >> "$file"
      printf 'url = "%s"\ndata = "%s"\noutput = "/dev/null"\nproxy = "http://127.0.0.1:%s"\ncacert = "%s"\n' \
        "$url" "${body//\"/\\\"}" "$port" "$ca" >> "$file"
      # The TLS 1.3 suite Chromium and Firefox offer first; curl with OpenSSL would pick AES-256
      # with SHA-384 first, whose hashing costs both proxies more than any browser makes them pay.
      printf 'header = "Content-Type: application/json"\ntls13-ciphers = TLS_AES_128_GCM_SHA256\n' >> "$file"
      printf 'silent\nshow-error\nfail\n' >> "$file"
      # HTTP/1.1: over HTTP/2 curl would multiplex them on one connection whatever the header says.
      if [ "$close" = close ]; then printf 'header = "Connection: close"\nhttp1.1\n' >> "$file"; fi
    done
    echo "$file"
  done
}

# Runs the configs at once, $PARALLEL requests at a time in all, curl's complaints appended to
# ERRORS. A request curl gives up on is not a reason to stop: the proxy's own count says what arrived.
clients() {
  local errors=$1 file client_pid pids_here=()
  shift
  for file in "$@"; do
    curl --silent --show-error --parallel --parallel-max $((PARALLEL / CLIENTS)) --config "$file" 2>> "$errors" & pids_here+=($!)
  done
  for client_pid in "${pids_here[@]}"; do wait "$client_pid" || echo "curl: some requests failed (exit $?)" >&2; done
}

# CPU seconds process PID has used, user and system.
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / hz}' "/proc/$1/stat"; }

# "requests/s  CPU-ms/request" of COUNT requests through proxy PID on PORT trusting CA, CLOSE or keep.
rate() {
  local pid=$1 port=$2 ca=$3 count=$4 close=$5 start end cpu0 cpu1
  mapfile -t files < <(configs "$count" "$close" "$port" "$ca")
  cpu0=$(cpu_seconds "$pid"); start=$(date +%s.%N)
  clients "$work/curl-$pid.err" "${files[@]}"
  end=$(date +%s.%N); cpu1=$(cpu_seconds "$pid")
  python3 -c "print(f'{$count / ($end - $start):.0f} {1000 * ($cpu1 - $cpu0) / $count:.3f}')"
}

"$TRACKSNAP" ca --ca-dir "$work/ca" > /dev/null
port=$(free_port)
"$TRACKSNAP" serve --port "$port" --quiet --intercept api.segment.io --answer --ca-dir "$work/ca" --max-requests 10000 \
  > /dev/null & serve_pid=$!; pids+=("$serve_pid")
wait_port "$port"
read -r ts_keep ts_keep_cpu < <(rate "$serve_pid" "$port" "$work/ca/ca-cert.pem" "$REQUESTS" keep)
read -r ts_new ts_new_cpu < <(rate "$serve_pid" "$port" "$work/ca/ca-cert.pem" "$CONNECTIONS" close)

cat > "$work/answer.py" <<'PY'
from mitmproxy import http

def request(flow: http.HTTPFlow) -> None:
    flow.response = http.Response.make(200, b'{"code":200,"status":1}', {"Content-Type": "application/json"})
PY
mitm_port=$(free_port)
"$MITMDUMP" --listen-host 127.0.0.1 --listen-port "$mitm_port" --set confdir="$work/mitm" \
  --allow-hosts 'api\.segment\.io' --set connection_strategy=lazy --set upstream_cert=false \
  -s "$work/answer.py" -q & mitm_pid=$!; pids+=($mitm_pid)
wait_port "$mitm_port"
for _ in $(seq 100); do [ -f "$work/mitm/mitmproxy-ca-cert.pem" ] && break; sleep 0.1; done
read -r mitm_keep mitm_keep_cpu < <(rate "$mitm_pid" "$mitm_port" "$work/mitm/mitmproxy-ca-cert.pem" "$REQUESTS" keep)
read -r mitm_new mitm_new_cpu < <(rate "$mitm_pid" "$mitm_port" "$work/mitm/mitmproxy-ca-cert.pem" "$CONNECTIONS" close)
kill "$mitm_pid"

# Peak memory of the server after $MANY intercepted requests (in batches of $REQUESTS).
mapfile -t keep < <(configs "$REQUESTS" keep "$port" "$work/ca/ca-cert.pem")
for _ in $(seq $((MANY / REQUESTS - 1))); do clients "$work/curl-$serve_pid.err" "${keep[@]}"; done
many_health=$(curl -s "http://127.0.0.1:$port/__tracksnap/health")
kib=$(peak_kib "$serve_pid")
kill -TERM "$serve_pid"

ratio() { python3 -c "print(f'{$1 / $2:.2f}x')"; }
printf '\n%s curl processes, --parallel-max %s each, POST %s\n' "$CLIENTS" $((PARALLEL / CLIENTS)) "$url"
printf '%-48s %11s %13s %16s %13s\n' "proxy, answering locally" "requests/s" "CPU ms/req" "new TLS conns/s" "CPU ms/conn"
printf '%-48s %11s %13s %16s %13s\n' "mitmdump 11.0.2 with an answering addon" "$mitm_keep" "$mitm_keep_cpu" "$mitm_new" "$mitm_new_cpu"
printf '%-48s %11s %13s %16s %13s\n' "tracksnap serve --intercept --answer, recording" "$ts_keep" "$ts_keep_cpu" "$ts_new" "$ts_new_cpu"
printf '%-48s %11s %13s %16s %13s   (targets: 10x / 5x)\n' "tracksnap against mitmdump" "$(ratio "$ts_keep" "$mitm_keep")" \
  "$(ratio "$mitm_keep_cpu" "$ts_keep_cpu")" "$(ratio "$ts_new" "$mitm_new")" "$(ratio "$mitm_new_cpu" "$ts_new_cpu")"
# What curl gave up on, with each reason once.
for proxy in "mitmdump $mitm_pid" "tracksnap $serve_pid"; do
  set -- $proxy
  touch "$work/curl-$2.err"
  printf 'requests curl gave up on through %s, in all its runs: %s\n' "$1" "$(grep -c '^curl: (' "$work/curl-$2.err" || true)"
  sed -n 's/^curl: /  /p' "$work/curl-$2.err" | sort | uniq -c | sort -rn | head -3
done
printf '\npeak memory of tracksnap (--max-requests 10000) after %s intercepted requests: %.0f MiB   %s\n' \
  "$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['captured'])" "$many_health")" "$(python3 -c "print($kib/1024)")" "$many_health"
