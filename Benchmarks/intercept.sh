#!/usr/bin/env bash
# HTTPS interception under load, on 127.0.0.1 only, every run bounded in count.
#
#   Benchmarks/intercept.sh            (or: make bench-intercept)
#
# Measures, in one run, with the same client (curl --parallel through the proxy, trusting each
# proxy's CA): requests/s over kept-alive intercepted TLS connections, and new intercepted TLS
# connections/s (Connection: close, one CONNECT and one handshake per request), of
# `tracksnap serve --intercept api.segment.io --answer` beside mitmproxy's `mitmdump` with an
# addon that answers the same way; then tracksnap's peak memory after $MANY intercepted requests
# with --max-requests. Installs what it needs: curl (apt), mitmproxy (pip, in .build/bench-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

REQUESTS=${REQUESTS:-20000}       # requests per kept-alive run
CONNECTIONS=${CONNECTIONS:-2000}  # requests per new-connection run
PARALLEL=${PARALLEL:-32}
MANY=${MANY:-100000}

source Benchmarks/common.sh
need curl curl
url="https://api.segment.io/v1/track"
body='{"type":"track","event":"Order Completed","userId":"user-42","properties":{"revenue":12.5}}'

# A curl config of COUNT POSTs through proxy PORT trusting CA; with CLOSE each asks for its own
# connection. Each POST is an operation of its own (`next`): curl joins every `data` of one
# operation into one body, so without it the Nth request would carry N bodies.
config() {
  local count=$1 close=$2 port=$3 ca=$4 file="$work/curl-$1-$2-$3.cfg"
  : > "$file"
  for i in $(seq "$count"); do
    [ "$i" -gt 1 ] && printf 'next\n' >> "$file"
    printf 'url = "%s"\ndata = "%s"\noutput = "/dev/null"\nproxy = "http://127.0.0.1:%s"\ncacert = "%s"\n' \
      "$url" "${body//\"/\\\"}" "$port" "$ca" >> "$file"
    printf 'header = "Content-Type: application/json"\nsilent\nfail\n' >> "$file"
    # HTTP/1.1: over HTTP/2 curl would multiplex them on one connection whatever the header says.
    if [ "$close" = close ]; then printf 'header = "Connection: close"\nhttp1.1\n' >> "$file"; fi
  done
  echo "$file"
}

# Requests/s of curl --parallel through proxy PORT trusting CA, COUNT requests, CLOSE or keep.
rate() {
  local port=$1 ca=$2 count=$3 close=$4 file start end
  file=$(config "$count" "$close" "$port" "$ca")
  start=$(date +%s.%N)
  curl --parallel --parallel-max "$PARALLEL" --config "$file" || echo "curl: some requests failed (exit $?)" >&2
  end=$(date +%s.%N)
  python3 -c "print(f'{$count / ($end - $start):.0f}')"
}

"$TRACKSNAP" ca --ca-dir "$work/ca" > /dev/null
port=$(free_port)
"$TRACKSNAP" serve --port "$port" --quiet --intercept api.segment.io --answer --ca-dir "$work/ca" --max-requests 10000 \
  > /dev/null & serve_pid=$!; pids+=($serve_pid)
wait_port "$port"
ts_keep=$(rate "$port" "$work/ca/ca-cert.pem" "$REQUESTS" keep)
ts_new=$(rate "$port" "$work/ca/ca-cert.pem" "$CONNECTIONS" close)

cat > "$work/answer.py" <<'PY'
from mitmproxy import http

def request(flow: http.HTTPFlow) -> None:
    flow.response = http.Response.make(200, b'{"code":200,"status":1}', {"Content-Type": "application/json"})
PY
mitm_port=$(free_port)
.build/bench-venv/bin/mitmdump --listen-host 127.0.0.1 --listen-port "$mitm_port" --set confdir="$work/mitm" \
  --allow-hosts 'api\.segment\.io' --set connection_strategy=lazy --set upstream_cert=false \
  -s "$work/answer.py" -q & mitm_pid=$!; pids+=($mitm_pid)
wait_port "$mitm_port"
for _ in $(seq 100); do [ -f "$work/mitm/mitmproxy-ca-cert.pem" ] && break; sleep 0.1; done
mitm_keep=$(rate "$mitm_port" "$work/mitm/mitmproxy-ca-cert.pem" "$REQUESTS" keep)
mitm_new=$(rate "$mitm_port" "$work/mitm/mitmproxy-ca-cert.pem" "$CONNECTIONS" close)
kill "$mitm_pid"

# Peak memory of the server after $MANY intercepted requests (in batches of $REQUESTS).
keep=$(config "$REQUESTS" keep "$port" "$work/ca/ca-cert.pem")
for _ in $(seq $((MANY / REQUESTS - 1))); do
  # A request curl gives up on is not a reason to stop: health counts what was captured.
  curl --parallel --parallel-max "$PARALLEL" --config "$keep" || true
done
many_health=$(curl -s "http://127.0.0.1:$port/__tracksnap/health")
kib=$(peak_kib "$serve_pid")
kill -TERM "$serve_pid"

ratio() { python3 -c "print(f'{$1 / $2:.2f}x')"; }
printf '\ncurl --parallel --parallel-max %s, POST %s\n' "$PARALLEL" "$url"
printf '%-52s %12s %18s\n' "proxy, answering locally" "requests/s" "new TLS conns/s"
printf '%-52s %12s %18s\n' "mitmdump 11.0.2 with an answering addon" "$mitm_keep" "$mitm_new"
printf '%-52s %12s %18s   %s / %s of mitmdump (targets: 10x / 5x)\n' "tracksnap serve --intercept --answer, recording" "$ts_keep" "$ts_new" \
  "$(ratio "$ts_keep" "$mitm_keep")" "$(ratio "$ts_new" "$mitm_new")"
printf '\npeak memory of tracksnap (--max-requests 10000) after %s intercepted requests: %.0f MiB   %s\n' \
  "$(python3 -c "import json,sys; print(json.loads(sys.argv[1])['captured'])" "$many_health")" "$(python3 -c "print($kib/1024)")" "$many_health"
