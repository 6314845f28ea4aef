# What the benchmark scripts share; sourced from the repository's root by each of them.
# Installs mitmproxy (`make mitmproxy-venv`: pip, in .build/mitmproxy-venv) and builds a release
# tracksnap; gives a scratch folder ($work) and a list of processes ($pids) that are removed and
# stopped on exit, whatever fails; and the helpers below.
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)

# need COMMAND PACKAGE: installs the Debian package when the command is missing.
need() { command -v "$1" >/dev/null || { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq "$2" >/dev/null; }; }

make --no-print-directory -s mitmproxy-venv
MITMPROXY_PYTHON=.build/mitmproxy-venv/bin/python
MITMDUMP=.build/mitmproxy-venv/bin/mitmdump
# TRACKSNAP=PATH measures a tracksnap built elsewhere (another commit's release build) instead.
if [ -z "${TRACKSNAP:-}" ]; then
  swift build -c release --product tracksnap -q
  TRACKSNAP=.build/release/tracksnap
fi

work=$(mktemp -d)
pids=()
# Bounded too: what has not ended 5 s after SIGTERM is killed.
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
# wait_port PORT [TRIES]: waits for a listener, 50 ms a try (20 s by default).
wait_port() { for _ in $(seq "${2:-400}"); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done; echo "nothing listens on $1" >&2; return 1; }
# The most memory process PID has held at once, in KiB.
peak_kib() { awk '/VmHWM/ {print $2}' "/proc/$1/status"; }
