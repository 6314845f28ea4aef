"""The inspector (`/__tracksnap/ui/`) holding 10,000 and 100,000 captured events, in Debian's
headless chromium driven by selenium: how long the page takes to show them all, how long a request
sent to the server takes to appear as a row, how long the filter takes, and the page's JavaScript
heap and DOM size; beside the same figures for a plain table holding every row in the DOM (what
the page did before its list was virtualised), built in the same browser from the same rows.

    .build/sdk-venv/bin/python Benchmarks/inspector.py .build/release/tracksnap   (make bench-inspector)
"""

import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from tracksnap import Tracksnap

SIZES = [int(size) for size in os.environ.get("SIZES", "10000,100000").split(",")]
LIVE = int(os.environ.get("LIVE", "50"))
BATCH = 10_000  # the most one POST sessions/{id}/requests takes
FILTERS = ["track 123", "screen", "checkout"]  # a few events, a third of them, none
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def post(url, body, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST", headers=headers)
    with OPENER.open(request, timeout=120) as answer:
        assert answer.status == 200, answer.status


def event(index):
    """A small Segment call, as an SDK sends it: one event, decoded by the server."""
    kind = ("track", "page", "screen")[index % 3]
    body = {"type": kind, "userId": f"user-{index % 97}", "writeKey": "wk_bench",
            "properties": {"order": index, "sku": f"sku-{index % 50}", "price": index % 1000 / 10}}
    body["event" if kind == "track" else "name"] = f"{kind.title()} {index}"
    return body


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium")
    options.add_argument("--headless=new")
    options.add_argument("--no-proxy-server")
    options.add_argument("--window-size=1400,900")
    options.add_argument("--enable-precise-memory-info")
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    os.environ["SE_OFFLINE"] = "true"
    return webdriver.Chrome(service=Service(executable_path="/usr/bin/chromedriver"), options=options)


def renderers_rss(driver):
    """The resident memory of the browser's renderer processes (the DOM lives there, outside the
    JavaScript heap), in MiB: every process under chromedriver started with --type=renderer."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                pass
    below, total = {driver.service.process.pid}, 0
    for pid in sorted(parents):  # a child's id is above its parent's, short of wrapping around
        if parents[pid] in below:
            below.add(pid)
    for pid in below:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as line:
                if b"--type=renderer" not in line.read():
                    continue
            with open(f"/proc/{pid}/status") as status:
                total += next(int(row.split()[1]) for row in status if row.startswith("VmRSS:"))
        except (OSError, StopIteration):
            pass
    return total / 1024


def heap(driver):
    """The page's JavaScript heap in use (after a collection), its DOM nodes, and the renderers' memory."""
    driver.execute_cdp_cmd("HeapProfiler.collectGarbage", {})
    metrics = {m["name"]: m["value"] for m in driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]}
    return metrics["JSHeapUsedSize"] / 2**20, int(metrics["Nodes"]), renderers_rss(driver)


# Types `text` into the filter box as a person would (an input event), and answers the time until
# the browser painted the list it gave: the next animation frame after the change, and a task after it.
FILTER_SCRIPT = """
const [text, done] = arguments;
const box = document.getElementById("filter");
const started = performance.now();
box.value = text;
box.dispatchEvent(new Event("input"));
requestAnimationFrame(() => setTimeout(() => done([performance.now() - started,
    document.querySelectorAll("#rows tr").length]), 0));
"""

# The same on the plain table: every row hidden or shown by the same test on the same text.
PLAIN_FILTER_SCRIPT = """
const [text, done] = arguments;
const started = performance.now();
const needle = text.toLowerCase();
let shown = 0;
for (const row of window.plainRows) {
  row.hidden = needle !== "" && !row.search.includes(needle);
  if (!row.hidden) shown += 1;
}
requestAnimationFrame(() => setTimeout(() => done([performance.now() - started, shown]), 0));
"""

# A table of every row (six cells, the page's texts), built in one change of an empty page.
PLAIN_TABLE_SCRIPT = """
const [rows, done] = arguments;
const started = performance.now();
const table = document.createElement("table");
const body = document.createElement("tbody");
window.plainRows = [];
for (const cells of rows) {
  const row = document.createElement("tr");
  for (const text of cells) {
    const cell = document.createElement("td");
    cell.textContent = text;
    row.append(cell);
  }
  row.search = cells.join(" ").toLowerCase();
  window.plainRows.push(row);
  body.append(row);
}
table.append(body);
document.body.append(table);
requestAnimationFrame(() => setTimeout(() => done(performance.now() - started), 0));
"""

# Notes when each row naming a live marker is drawn (Date.now(), the clock Python's time.time() reads).
WATCH_SCRIPT = """
window.seen = {};
new MutationObserver((changes) => {
  const now = Date.now();
  for (const change of changes) for (const node of change.addedNodes) {
    const found = /Live (\\d+)/.exec(node.textContent || "");
    if (found && !(found[1] in window.seen)) window.seen[found[1]] = now;
  }
}).observe(document.getElementById("rows"), {childList: true});
"""


def wait(driver, script, seconds, poll=0.02):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(poll)
    raise SystemExit(f"error: gave up after {seconds} s waiting for: {script}")


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def measure_page(binary, driver, size):
    root = tempfile.mkdtemp()
    token = "bench-token"
    with Tracksnap.start(binary=binary, root=root, token=token) as server:
        session = server.session("bench")
        started = time.monotonic()
        for first in range(0, size, BATCH):
            records = [{"method": "POST", "url": "https://api.segment.io/v1/" + event(index)["type"],
                        "headers": [{"name": "Content-Type", "value": "application/json"}],
                        "body": json.dumps(event(index))} for index in range(first, min(size, first + BATCH))]
            post(f"{server.url}/__tracksnap/sessions/{session.id}/requests", records, token)
        ingest = time.monotonic() - started

        started = time.monotonic()
        driver.get(f"{server.url}/__tracksnap/ui/#token={token}")
        wait(driver, f'return document.getElementById("status").textContent === "live — {size} rows"', 240, 0.1)
        load = time.monotonic() - started
        driver.execute_script(WATCH_SCRIPT)

        latencies = []
        for index in range(LIVE):
            body = event(index)
            body["event" if body["type"] == "track" else "name"] = f"Live {index}"
            sent = time.time()
            post(session.base_url + "/v1/" + body["type"], body)
            seen = wait(driver, f'return window.seen["{index}"]', 10, 0.005)
            latencies.append(seen - sent * 1000)

        filters = {}
        for text in FILTERS + [""]:
            runs = [driver.execute_async_script(FILTER_SCRIPT, text) for _ in range(3)]
            filters[text] = (statistics.median(run[0] for run in runs), runs[0][1])
        memory, nodes, rss = heap(driver)
    shutil.rmtree(root, ignore_errors=True)
    return {"ingest": ingest, "load": load, "latency": latencies, "filters": filters, "heap": memory, "nodes": nodes,
            "rss": rss}


def measure_plain(driver, size):
    driver.get("about:blank")
    rows = [["12:00:00.000", "s1", "segment", event(index)["type"] + " " + (event(index).get("event") or event(index)["name"]),
             "POST api.segment.io/v1/" + event(index)["type"], ""] for index in range(size)]
    build = driver.execute_async_script(PLAIN_TABLE_SCRIPT, rows)
    filters = {}
    for text in FILTERS + [""]:
        runs = [driver.execute_async_script(PLAIN_FILTER_SCRIPT, text) for _ in range(3)]
        filters[text] = (statistics.median(run[0] for run in runs), runs[0][1])
    memory, nodes, rss = heap(driver)
    return {"load": build / 1000, "filters": filters, "heap": memory, "nodes": nodes, "rss": rss}


def main():
    binary = sys.argv[1]
    driver = browser()
    driver.set_script_timeout(120)
    driver.execute_cdp_cmd("Performance.enable", {})
    try:
        driver.get("about:blank")
        empty = heap(driver)[2]
        pages = {size: measure_page(binary, driver, size) for size in SIZES}
        plains = {size: measure_plain(driver, size) for size in SIZES}
    finally:
        driver.quit()
    version = driver.capabilities.get("browserVersion", "?")
    print(f"The inspector in headless chromium {version}, each event a Segment call ingested through the control API")
    print(f"{'':<34}" + "".join(f"{size:>14,}" for size in SIZES) + (f"{'ratio':>9}" if len(SIZES) == 2 else ""))

    def line(title, values, unit_format):
        text = f"{title:<34}" + "".join(f"{unit_format(value):>14}" for value in values)
        if len(values) == 2 and values[0]:
            text += f"{values[1] / values[0]:>8.1f}x"
        print(text)

    line("ingest (control API, s)", [pages[s]["ingest"] for s in SIZES], lambda v: f"{v:.1f}")
    line("page shows them all (s)", [pages[s]["load"] for s in SIZES], lambda v: f"{v:.1f}")
    line(f"request → row, median (ms, {LIVE})", [statistics.median(pages[s]["latency"]) for s in SIZES], lambda v: f"{v:.0f}")
    line(f"request → row, p95 (ms, {LIVE})", [percentile(pages[s]["latency"], 0.95) for s in SIZES], lambda v: f"{v:.0f}")
    for text in FILTERS + [""]:
        title = f'filter "{text}" (ms)' if text else "filter cleared (ms)"
        line(title, [pages[s]["filters"][text][0] for s in SIZES], lambda v: f"{v:.0f}")
    line("JS heap (MiB)", [pages[s]["heap"] for s in SIZES], lambda v: f"{v:.1f}")
    line("DOM nodes", [pages[s]["nodes"] for s in SIZES], lambda v: f"{v:,}")
    line("renderers' RSS (MiB)", [pages[s]["rss"] for s in SIZES], lambda v: f"{v:.0f}")
    print("A plain table, every row in the DOM (the page before its list was virtualised), the same rows:")
    line("table built and drawn (s)", [plains[s]["load"] for s in SIZES], lambda v: f"{v:.1f}")
    for text in FILTERS + [""]:
        title = f'filter "{text}" (ms)' if text else "filter cleared (ms)"
        line(title, [plains[s]["filters"][text][0] for s in SIZES], lambda v: f"{v:.0f}")
    line("JS heap (MiB)", [plains[s]["heap"] for s in SIZES], lambda v: f"{v:.1f}")
    line("DOM nodes", [plains[s]["nodes"] for s in SIZES], lambda v: f"{v:,}")
    line("renderers' RSS (MiB)", [plains[s]["rss"] for s in SIZES], lambda v: f"{v:.0f}")
    largest = SIZES[-1]
    worst = max(time for time, _ in pages[largest]["filters"].values())
    plain_worst = max(time for time, _ in plains[largest]["filters"].values())
    print(f"renderers' RSS with an empty page: {empty:.0f} MiB")
    print(f"at {largest:,}: slowest filter {worst:.0f} ms (goal: under 300), plain table {plain_worst:.0f} ms "
          f"({plain_worst / worst:.1f}x); renderers' RSS {pages[largest]['rss']:.0f} MiB against {plains[largest]['rss']:.0f}")
    for size in SIZES:
        counts = [pages[size]["filters"][text][1] for text in FILTERS]
        if counts[0] == 0 or counts[2] != 0:
            sys.exit(f"error: at {size} the filters drew {counts} rows: the page did not filter what it holds")


if __name__ == "__main__":
    main()
