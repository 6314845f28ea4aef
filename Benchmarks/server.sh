#!/usr/bin/env bash
# The capture server under load, on 127.0.0.1 only, every run bounded in time and count.
#
#   Benchmarks/server.sh            (or: make bench-server)
#
# Measures, in one run, with wrk: requests/s of tracksnap's collector (recording every request)
# beside nginx answering 204 itself; of tracksnap's reverse proxy beside mitmproxy's
# `mitmdump --mode reverse:` writing its flows, both forwarding to the same nginx; and the peak
# memory of tracksnap after 1,000,000 captured requests, with and without --max-requests.
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
# Requests/s from wrk against a URL.
rps() { wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "$1" | awk '/Requests\/sec/ {print $2}'; }
# Starts `tracksnap serve ARGS`, sets $port to the port it prints.
serve() {
  "$TRACKSNAP" serve --port 0 --quiet "$@" > "$work/serve.out" &
  pids+=($!); serve_pid=$!
  for _ in $(seq 200); do port=$(sed -n 's#^listening on http://127.0.0.1:\([0-9]*\).*#\1#p' "$work/serve.out"); [ -n "$port" ] && return 0; sleep 0.05; done
  echo "tracksnap serve did not start" >&2; return 1
}
stop() { kill -TERM "$1"; wait "$1" 2>/dev/null || true; }

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

serve
collector_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"

# As tests use it: one session open, so every request is also appended to that session.
serve
curl -s -X POST "http://127.0.0.1:$port/__tracksnap/sessions" > /dev/null
session_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"

serve --upstream "http://127.0.0.1:$nginx_port"
proxy_rps=$(rps "http://127.0.0.1:$port$path")
stop "$serve_pid"

mitm_port=$(free_port)
"$MITMDUMP" --mode "reverse:http://127.0.0.1:$nginx_port" --listen-host 127.0.0.1 \
  --listen-port "$mitm_port" -w "$work/flows.mitm" -q & mitm_pid=$!; pids+=($mitm_pid)
wait_port "$mitm_port"
mitm_rps=$(rps "http://127.0.0.1:$mitm_port$path")
kill "$mitm_pid"

# Peak memory after $MILLION captured requests: wrk stops each thread at its share.
cat > "$work/count.lua" <<LUA
local limit = math.floor($MILLION / 2)
local sent = 0
request = function() sent = sent + 1; if sent > limit then wrk.thread:stop() end; return wrk.format("GET", "$path") end
LUA
memory() {
  serve "$@"
  wrk -t2 -c"$CONNECTIONS" -d300s -s "$work/count.lua" "http://127.0.0.1:$port" > /dev/null
  local captured; captured=$(curl -s "http://127.0.0.1:$port/__tracksnap/health")
  local kib; kib=$(peak_kib "$serve_pid")
  stop "$serve_pid"
  echo "$kib $captured"
}
read -r unbounded_kib unbounded_health < <(memory)
read -r bounded_kib bounded_health < <(memory --max-requests 10000)

ratio() { python3 -c "print(f'{$1 / $2:.2f}x')"; }
printf '\n%-44s %12s\n' "server" "requests/s"
printf '%-44s %12.0f\n' "nginx, return 204" "$nginx_rps"
printf '%-44s %12.0f   %s of nginx (target: at least 0.60x)\n' "tracksnap collector, recording" "$collector_rps" "$(ratio "$collector_rps" "$nginx_rps")"
printf '%-44s %12.0f   %s of nginx\n' "tracksnap collector, a session open" "$session_rps" "$(ratio "$session_rps" "$nginx_rps")"
printf '%-44s %12.0f\n' "mitmdump --mode reverse:, writing flows" "$mitm_rps"
printf '%-44s %12.0f   %s of mitmdump (target: at least 20x)\n' "tracksnap --upstream, recording" "$proxy_rps" "$(ratio "$proxy_rps" "$mitm_rps")"
printf '\npeak memory after %s requests\n' "$MILLION"
printf '%-44s %9.0f MiB   %s\n' "tracksnap, no --max-requests" "$(python3 -c "print($unbounded_kib/1024)")" "$unbounded_health"
printf '%-44s %9.0f MiB   %s\n' "tracksnap, --max-requests 10000" "$(python3 -c "print($bounded_kib/1024)")" "$bounded_health"
