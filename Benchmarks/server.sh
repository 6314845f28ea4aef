#!/usr/bin/env bash
# The capture server under load, on 127.0.0.1 only, every run bounded in time and count.
#
#   Benchmarks/server.sh            (or: make bench-server)
#
# Measures, in one run, with wrk: requests/s of tracksnap's collector (recording every request,
# its log on as by default and with --quiet) beside nginx answering 204 itself and beside SwiftNIO
# answering 204 with nothing around it (Tools/NIOFloor: what the collector is built on, on the
# same event loops with the same HTTP/1 handlers, so the most they answer here); of tracksnap's
# reverse proxy (log on, and --quiet) beside mitmproxy's `mitmdump --mode reverse:` writing its
# flows and beside SwiftNIO passing each request on with AsyncHTTPClient and nothing else (NIOFloor
# given an upstream: what the proxy is built on), all forwarding to the same nginx; and the peak memory of tracksnap after 1,000,000
# captured requests, with and without --max-requests.
# Installs what it needs: wrk and nginx (apt), mitmproxy (pip, in .build/mitmproxy-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-10}          # seconds per wrk run
CONNECTIONS=${CONNECTIONS:-64}
MILLION=${MILLION:-1000000}

source Benchmarks/common.sh
need wrk wrk
need nginx nginx
need curl curl
# Every step is bounded in time: a wrk run by its duration and a margin (wrk's own -d does not
# end a thread whose connections are all stuck), a server's stop by STOP_SECONDS, then SIGKILL.
STOP_SECONDS=${STOP_SECONDS:-10}
# bounded SECONDS COMMAND...: runs COMMAND, killed when it takes longer; says so on stderr.
bounded() {
  local limit=$1; shift
  timeout --kill-after=5 "$limit" "$@" && return 0
  local status=$?
  [ "$status" = 124 ] || [ "$status" = 137 ] && echo "$1 did not finish in ${limit}s: stopped" >&2
  return "$status"
}
# Requests/s from wrk against a URL, after one request has been answered (a server still
# starting, as mitmdump is a while after it listens, would count as one answering nothing).
rps() {
  curl -s -o /dev/null --max-time 30 "$1" || echo "no answer from $1 in 30 s" >&2
  bounded $((DURATION + 30)) wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "$1" | awk '/Requests\/sec/ {print $2}'
}
# Starts `tracksnap serve ARGS`, sets $port to the port it prints. Its log (a line a request on
# stderr, unless ARGS say --quiet) goes to a file, as a CI job or a terminal's scrollback takes it.
serve() {
  "$TRACKSNAP" serve --port 0 "$@" > "$work/serve.out" 2> "$work/serve.log" &
  pids+=($!); serve_pid=$!
  for _ in $(seq 200); do port=$(sed -n 's#^listening on http://127.0.0.1:\([0-9]*\).*#\1#p' "$work/serve.out"); [ -n "$port" ] && return 0; sleep 0.05; done
  echo "tracksnap serve did not start" >&2; return 1
}
# stop PID: SIGTERM, then SIGKILL if it has not ended in STOP_SECONDS (told: a server that does
# not stop on SIGTERM is a bug).
stop() {
  kill -TERM "$1" 2>/dev/null || true
  for _ in $(seq $((STOP_SECONDS * 20))); do kill -0 "$1" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$1" 2>/dev/null; then echo "process $1 did not stop on SIGTERM in ${STOP_SECONDS}s: killed" >&2; kill -KILL "$1" 2>/dev/null || true; fi
  wait "$1" 2>/dev/null || true
}

nginx_port=$(free_port)
mkdir -p "$work/nginx/logs"
cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;
  uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  server { listen 127.0.0.1:$nginx_port; location / { return 204; } }
}
CONF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" & pids+=($!)
wait_port "$nginx_port"
path="/v1/e?ev=screen_view&screen=Home&sid=s-1a2b3c4d"

echo "wrk: 2 threads, $CONNECTIONS connections, ${DURATION}s per run, GET $path"
nginx_rps=$(rps "http://127.0.0.1:$nginx_port$path")

swift build -c release --product NIOFloor -q
# floor [UPSTREAM]: starts NIOFloor (passing requests on to UPSTREAM when given), sets $floor_port.
floor() {
  .build/release/NIOFloor 0 "$@" > "$work/floor.out" & floor_pid=$!; pids+=($floor_pid)
  for _ in $(seq 200); do floor_port=$(sed -n 's#^listening on http://127.0.0.1:\([0-9]*\).*#\1#p' "$work/floor.out"); [ -n "$floor_port" ] && return 0; sleep 0.05; done
  echo "NIOFloor did not start" >&2; return 1
}
floor
floor_rps=$(rps "http://127.0.0.1:$floor_port$path")
stop "$floor_pid"

serve
collector_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"
logged_lines=$(wc -l < "$work/serve.log")

serve --quiet
quiet_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"

# As tests use it: one session open, so every request is also appended to that session.
serve
curl -s --max-time 10 -X POST "http://127.0.0.1:$port/__tracksnap/sessions" > /dev/null
session_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"

serve --upstream "http://127.0.0.1:$nginx_port"
proxy_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"

serve --quiet --upstream "http://127.0.0.1:$nginx_port"
quiet_proxy_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"

mitm_port=$(free_port)
"$MITMDUMP" --mode "reverse:http://127.0.0.1:$nginx_port" --listen-host 127.0.0.1 \
  --listen-port "$mitm_port" -w "$work/flows.mitm" -q & mitm_pid=$!; pids+=($mitm_pid)
wait_port "$mitm_port"
mitm_rps=$(rps "http://127.0.0.1:$mitm_port$path")
stop "$mitm_pid"

floor "http://127.0.0.1:$nginx_port"
floor_proxy_rps=$(rps "http://127.0.0.1:$floor_port$path")
stop "$floor_pid"

# Peak memory after $MILLION captured requests: wrk stops each thread at its share. wrk itself
# still sleeps out its whole -d (thread:stop() ends a thread's sending, not the run): this is what
# left the script silent for ten minutes. So the server's count is watched instead, and wrk is
# stopped once it is reached (or after 300 s).
cat > "$work/count.lua" <<LUA
local limit = math.floor($MILLION / 2)
local sent = 0
request = function() sent = sent + 1; if sent > limit then wrk.thread:stop() end; return wrk.format("GET", "$path") end
LUA
# memory ARGS: sets $kib and $health. Run in this shell, not a subshell, so that the server it
# starts is in $pids and stopped on exit whatever fails.
memory() {
  serve --quiet "$@"
  bounded 330 wrk -t2 -c"$CONNECTIONS" -d300s -s "$work/count.lua" "http://127.0.0.1:$port" > /dev/null &
  local wrk_pid=$!; pids+=($wrk_pid)
  local captured=0
  while kill -0 "$wrk_pid" 2>/dev/null && [ "$captured" -lt "$MILLION" ]; do
    sleep 0.5
    captured=$(curl -s --max-time 5 "http://127.0.0.1:$port/__tracksnap/health" | sed -n 's/.*"captured":\([0-9]*\).*/\1/p')
    captured=${captured:-0}
  done
  stop "$wrk_pid"
  health=$(curl -s --max-time 10 "http://127.0.0.1:$port/__tracksnap/health")
  kib=$(peak_kib "$serve_pid")
  stop "$serve_pid"
}
memory; unbounded_kib=$kib; unbounded_health=$health
memory --max-requests 10000; bounded_kib=$kib; bounded_health=$health

ratio() { python3 -c "print(f'{$1 / $2:.2f}x' if $2 else 'n/a')"; }
printf '\n%-44s %12s\n' "server" "requests/s"
printf '%-44s %12.0f\n' "nginx, return 204" "$nginx_rps"
printf '%-44s %12.0f   %s of nginx (the most SwiftNIO answers here)\n' "SwiftNIO alone, HTTP/1, return 204" "$floor_rps" "$(ratio "$floor_rps" "$nginx_rps")"
printf '%-44s %12.0f   %s of nginx (target: at least 0.60x), %s of SwiftNIO alone\n' "tracksnap collector, recording, log on" "$collector_rps" "$(ratio "$collector_rps" "$nginx_rps")" "$(ratio "$collector_rps" "$floor_rps")"
printf '%-44s %12.0f   %s of nginx, %s of SwiftNIO alone\n' "tracksnap collector, recording, --quiet" "$quiet_rps" "$(ratio "$quiet_rps" "$nginx_rps")" "$(ratio "$quiet_rps" "$floor_rps")"
printf '%-44s %12.0f   %s of nginx\n' "tracksnap collector, a session open, log on" "$session_rps" "$(ratio "$session_rps" "$nginx_rps")"
printf '%-44s %12.0f\n' "mitmdump --mode reverse:, writing flows" "$mitm_rps"
printf '%-44s %12.0f   %s of mitmdump (the most SwiftNIO and AsyncHTTPClient pass on here)\n' "SwiftNIO + AsyncHTTPClient alone, passing on" "$floor_proxy_rps" "$(ratio "$floor_proxy_rps" "$mitm_rps")"
printf '%-44s %12.0f   %s of mitmdump (target: at least 25x), %s of them alone\n' "tracksnap --upstream, recording, log on" "$proxy_rps" "$(ratio "$proxy_rps" "$mitm_rps")" "$(ratio "$proxy_rps" "$floor_proxy_rps")"
printf '%-44s %12.0f   %s of mitmdump, %s of them alone\n' "tracksnap --upstream, recording, --quiet" "$quiet_proxy_rps" "$(ratio "$quiet_proxy_rps" "$mitm_rps")" "$(ratio "$quiet_proxy_rps" "$floor_proxy_rps")"
printf '(the collector logged %s lines in its %ss run; load average when done: %s)\n' "$logged_lines" "$DURATION" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '\npeak memory after %s requests\n' "$MILLION"
printf '%-44s %9.0f MiB   %s\n' "tracksnap, no --max-requests" "$(python3 -c "print($unbounded_kib/1024)")" "$unbounded_health"
printf '%-44s %9.0f MiB   %s\n' "tracksnap, --max-requests 10000" "$(python3 -c "print($bounded_kib/1024)")" "$bounded_health"
