// The tracksnap inspector: captured requests and their decoded events, live, from
// GET /__tracksnap/requests/stream (Server-Sent Events, read with fetch so that the token goes
// in an Authorization header). Captured traffic is hostile input: every text captured reaches
// the page through textContent or an attribute's value, never as markup.
"use strict";

(() => {
  const api = "/__tracksnap/";
  const tokenKey = "tracksnap.token";
  // Requests kept in the page when the server keeps them all (no --max-requests); with a
  // limit, the page keeps as many as the server (its stream's first event says how many).
  const defaultLimit = 100000;
  // Rows drawn beyond each edge of the window, so that a short scroll shows rows at once.
  const margin = 30;

  const $ = (id) => document.getElementById(id);
  const rowsBody = $("rows");
  const listTable = $("list-table");
  const filterBox = $("filter");
  const sessionPicker = $("session");
  const vendorPicker = $("vendor");
  const analyticsSwitch = $("analytics-only");
  const pauseButton = $("pause");
  const profileBox = $("profile");
  const statusText = $("status");

  // The token, taken from the address's fragment (#token=…) and kept for this tab only; the
  // fragment is then rewritten without it, so it stays out of the history and of links.
  const token = (() => {
    const fragment = new URLSearchParams(location.hash.slice(1));
    const given = fragment.get("token");
    if (given !== null) {
      sessionStorage.setItem(tokenKey, given);
      fragment.delete("token");
      const rest = fragment.toString();
      history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
    }
    return sessionStorage.getItem(tokenKey);
  })();

  const view = (() => {
    const query = new URLSearchParams(location.search);
    return { filter: query.get("q") || "", session: query.get("session") || "",
             vendor: query.get("vendor") || "", open: query.get("open") || "",
             analytics: query.get("analytics") === "1", profile: query.get("profile") || "" };
  })();

  // Every row, oldest first: the request, the event (null for a request that gave none), the
  // vendor (of the event, or of the decoder that claimed the request and failed; "" for none),
  // its key ("requestId:index", or "requestId:-"), the lowercased text the filter looks in and
  // what decoders and vendor rules reported (problems); what a validation found is in `findings`.
  const entries = [];
  const byKey = new Map();
  // The requests shown, oldest first (a Map keeps the order it was given).
  const requests = new Map();
  // What the server answered each request, by id (the stream's `answer` events).
  const answers = new Map();
  // The entries the view's filter lets through, oldest first; the list shows them newest first,
  // and only those in the window (and `margin` more each side) have a <tr>.
  let shown = [];
  // From each connection until the stream's `live` event: what the server holds is still
  // arriving, so an empty list means "loading", not "nothing captured".
  let loading = true;
  let limit = defaultLimit;
  let incoming = [];
  let flushScheduled = false;
  let paused = false;
  let drawScheduled = false;
  let rowHeight = 0;
  // The <tr> drawn, by key, and the range of `shown` (as positions from the newest) they are.
  let drawn = new Map();
  let drawnFrom = 0;
  let drawnTo = 0;
  const sessions = new Set();
  const vendors = new Set();
  // What the last validation (review.js) found: the report's parts, by the row key of the event
  // they are about ("requestId:index"), or by request id for a request as a whole.
  let findings = new Map();

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function setStatus(text) {
    statusText.textContent = text;
  }

  // MARK: The view's state in the address

  function saveView() {
    const query = new URLSearchParams();
    if (view.filter) query.set("q", view.filter);
    if (view.session) query.set("session", view.session);
    if (view.vendor) query.set("vendor", view.vendor);
    if (view.analytics) query.set("analytics", "1");
    if (view.open) query.set("open", view.open);
    if (view.profile) query.set("profile", view.profile);
    const search = query.toString();
    history.replaceState(null, "", location.pathname + (search ? "?" + search : "") + location.hash);
  }

  // MARK: Rows

  function hostAndPath(url) {
    try {
      const parsed = new URL(url);
      return parsed.host + parsed.pathname;
    } catch (error) {
      return url;
    }
  }

  // One formatter for every row: toLocaleTimeString makes one a call, a tenth of a millisecond.
  const clock = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });

  function timeOf(request) {
    const date = new Date(request.time);
    if (isNaN(date.getTime())) return request.time || "";
    return clock.format(date) + "." + String(date.getMilliseconds()).padStart(3, "0");
  }

  function entriesOf(message) {
    const request = message.request;
    const problems = message.problems || [];
    const warnings = message.warnings || [];
    // The personal data found in the request (masked by the server): its own, and each event's.
    const privacy = message.privacy || [];
    const events = message.events || [];
    if (events.length === 0) {
      return [{ request, event: null, vendor: message.vendor || "", problems, warnings, privacy, key: request.id + ":-" }];
    }
    // An event's problems: its request's, and the vendor limits it breaks; its warnings: the
    // vendor recommendations it, or its request, does not follow (they fail no validation).
    return events.map((event) => ({ request, event, vendor: event.vendor, problems: problems.concat(event.rules || []),
                                    warnings: warnings.concat(event.warnings || []),
                                    privacy: privacy.concat(event.privacy || []), key: request.id + ":" + event.index }));
  }

  function searchText(entry) {
    const event = entry.event;
    const parts = [hostAndPath(entry.request.url), entry.request.method, entry.vendor];
    if (event) parts.push(event.type, event.name || "", JSON.stringify(event.properties));
    return parts.join(" ").toLowerCase();
  }

  function rowFor(entry) {
    const row = element("tr");
    row.dataset.key = entry.key;
    if (entry.key === view.open) row.setAttribute("aria-selected", "true");
    row.append(element("td", "time", timeOf(entry.request)));
    row.append(element("td", "session", entry.request.session || "—"));
    row.append(element("td", "vendor", entry.vendor || "—"));
    const name = element("td", "event");
    if (entry.event) {
      name.append(element("span", "event-type", entry.event.type));
      if (entry.event.name) name.append(document.createTextNode(" " + entry.event.name));
    } else {
      name.append(element("span", "event-type", "request"));
    }
    row.append(name);
    const request = entry.request.method + " " + hostAndPath(entry.request.url);
    row.append(element("td", "request", request));
    row.lastChild.title = request;
    row.append(badgeCell(entry));
    return row;
  }

  // What a decoder reported about the row's request, and what the last validation found in it.
  function badgeCell(entry) {
    const badge = element("td", "problem");
    if (entry.problems.length > 0) {
      const mark = element("span", "badge", entry.problems.length === 1 ? "problem" : entry.problems.length + " problems");
      mark.title = entry.problems.join("\n");
      badge.append(mark);
    }
    if (entry.warnings.length > 0) {
      const mark = element("span", "badge warning", entry.warnings.length === 1 ? "warning" : entry.warnings.length + " warnings");
      mark.title = entry.warnings.join("\n");
      badge.append(mark);
    }
    if (entry.privacy.length > 0) {
      const mark = element("span", "badge privacy", "privacy" + (entry.privacy.length === 1 ? "" : " " + entry.privacy.length));
      mark.title = entry.privacy.join("\n");
      badge.append(mark);
    }
    // One finding a line of the report: a row of an entry's table or an item of a list.
    const found = findingsOf(entry).filter((part) => part.tagName !== "DETAILS");
    if (found.length > 0) {
      const mark = element("span", "badge finding", found.length === 1 ? "finding" : found.length + " findings");
      mark.title = found.map((part) => part.textContent.trim().split("\n")[0]).join("\n");
      badge.append(mark);
    }
    return badge;
  }

  let needle = view.filter.toLowerCase();

  function matches(entry) {
    if (view.session && entry.request.session !== view.session) return false;
    if (view.vendor && entry.vendor !== view.vendor) return false;
    // Analytics only: rows a vendor's decoder claimed (its events, or its failure to decode).
    if (view.analytics && !entry.vendor) return false;
    if (needle && !entry.search.includes(needle)) return false;
    return true;
  }

  function addOption(picker, known, value) {
    if (!value || known.has(value)) return;
    known.add(value);
    const option = element("option", null, value);
    option.value = value;
    picker.append(option);
    if (picker === sessionPicker && view.session === value) picker.value = value;
    if (picker === vendorPicker && view.vendor === value) picker.value = value;
  }

  function receive(message) {
    incoming.push(message);
    // Held back while paused, as many as the page keeps.
    if (incoming.length > limit) incoming.splice(0, incoming.length - limit);
    if (!paused) scheduleFlush();
    else setStatus("paused — " + incoming.length + " new");
  }

  // What the server answered a request: kept by its id (it may come before the request's row
  // is drawn), and shown at once when that request is open.
  function receiveAnswer(answer) {
    answers.set(answer.id, answer);
    const opened = byKey.get(view.open);
    if (opened && opened.request.id === answer.id && !$("detail").hidden) showAnswer(answer);
  }

  function scheduleFlush() {
    if (flushScheduled) return;
    flushScheduled = true;
    setTimeout(flush, 50);
  }

  // Adds what arrived, drops the oldest requests beyond the limit, and draws the list once.
  function flush() {
    flushScheduled = false;
    if (paused || incoming.length === 0) return;
    const above = window.scrollY > 0 ? rowsAbove() : 0;
    let added = 0;
    for (const message of incoming) {
      requests.set(message.request.id, message);
      addOption(sessionPicker, sessions, message.request.session);
      for (const entry of entriesOf(message)) {
        addOption(vendorPicker, vendors, entry.vendor);
        entry.search = searchText(entry);
        entries.push(entry);
        byKey.set(entry.key, entry);
        if (matches(entry)) {
          shown.push(entry);
          added += 1;
        }
      }
    }
    incoming = [];
    dropBeyondLimit();
    showEmpty();
    showCount();
    draw(true);
    // Someone reading older rows keeps them where they are as new ones arrive on top.
    if (above > 0 && added > 0 && rowHeight > 0) {
      window.scrollBy(0, added * rowHeight);
      draw(false);
    }
    if (view.open && $("detail").hidden && byKey.has(view.open)) {
      open(view.open);
      reveal(view.open);
    }
  }

  function dropBeyondLimit() {
    if (requests.size <= limit) return;
    let excess = requests.size - limit;
    for (const id of requests.keys()) {
      if (excess === 0) break;
      requests.delete(id);
      answers.delete(id);
      excess -= 1;
    }
    let dropped = 0;
    while (dropped < entries.length && !requests.has(entries[dropped].request.id)) {
      byKey.delete(entries[dropped].key);
      dropped += 1;
    }
    entries.splice(0, dropped);
    let hidden = 0;
    while (hidden < shown.length && !byKey.has(shown[hidden].key)) hidden += 1;
    shown.splice(0, hidden);
  }

  function clearRows() {
    entries.length = 0;
    byKey.clear();
    requests.clear();
    answers.clear();
    shown = [];
    incoming = [];
    showEmpty();
    draw(true);
  }

  // "Loading…" while what the server holds arrives, "Nothing captured yet" once it all has and
  // none is waiting to be drawn; neither when there are rows.
  function showEmpty() {
    const waiting = entries.length > 0 || incoming.length > 0;
    $("loading").hidden = !loading || entries.length > 0;
    $("empty").hidden = loading || waiting;
  }

  function applyFilter() {
    needle = view.filter.toLowerCase();
    shown = entries.filter(matches);
    if (statusText.textContent.startsWith("live")) showCount();
    draw(true);
  }

  // "live — 40 rows", or "live — 12 of 40 rows" while a filter, session, vendor or the
  // analytics switch hides some.
  function showCount() {
    setStatus("live — " + (shown.length === entries.length ? "" : shown.length + " of ") + entries.length + " rows");
  }

  // Redraws the rows in view: for a change to entries already shown (a validation's findings).
  function markEntries() {
    drawn = new Map();
    draw(true);
  }

  // MARK: The list, virtualised

  // How many rows of the list are above the window's top edge.
  function rowsAbove() {
    const top = rowsBody.getBoundingClientRect().top - rowOffset();
    return rowHeight > 0 ? Math.max(0, Math.floor(-top / rowHeight)) : 0;
  }

  function rowOffset() {
    return drawnFrom * rowHeight;
  }

  function scheduleDraw() {
    if (drawScheduled) return;
    drawScheduled = true;
    requestAnimationFrame(() => {
      drawScheduled = false;
      draw(false);
    });
  }

  // Gives the rows from the window's top, less `margin`, to its bottom, plus `margin`, a <tr>
  // each, and the list the height of every row shown. A row drawn before is kept (`changed`:
  // `shown` changed, so the same range may hold other rows).
  function draw(changed) {
    if (rowHeight === 0 && shown.length > 0) {
      // Every row has one line (white-space: nowrap), so one measured row gives them all.
      rowsBody.replaceChildren(rowFor(shown[shown.length - 1]));
      rowHeight = rowsBody.firstChild.getBoundingClientRect().height || 24;
      drawn = new Map();
      changed = true;
    }
    const inView = rowHeight > 0 ? Math.ceil(window.innerHeight / rowHeight) + 1 : 0;
    const from = Math.max(0, Math.min(rowsAbove(), shown.length - 1) - margin);
    const to = Math.min(shown.length, from + inView + 2 * margin);
    if (!changed && from === drawnFrom && to === drawnTo) return;
    const rows = [];
    const kept = new Map();
    for (let position = from; position < to; position += 1) {
      const entry = shown[shown.length - 1 - position];
      const row = drawn.get(entry.key) || rowFor(entry);
      kept.set(entry.key, row);
      rows.push(row);
    }
    rowsBody.replaceChildren(...rows);
    drawn = kept;
    drawnFrom = from;
    drawnTo = to;
    rowsBody.style.transform = "translateY(" + from * rowHeight + "px)";
    // The table lays out only the rows drawn; the list below it takes the place of the rest.
    listTable.style.marginBottom = (shown.length - (to - from)) * rowHeight + "px";
  }

  // Scrolls the list so that the row of `key` is in the window.
  function reveal(key) {
    const entry = byKey.get(key);
    const at = entry ? shown.lastIndexOf(entry) : -1;
    if (at < 0 || rowHeight === 0) return;
    const position = shown.length - 1 - at;
    const top = rowsBody.getBoundingClientRect().top - rowOffset() + window.scrollY + position * rowHeight;
    window.scrollTo(0, Math.max(0, top - window.innerHeight / 3));
    draw(false);
  }

  // MARK: One event, opened

  function tree(value) {
    if (value === null || typeof value !== "object") {
      const type = value === null ? "null" : typeof value;
      return element("span", type, JSON.stringify(value));
    }
    const list = element("ul");
    const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value).sort();
    if (keys.length === 0) return element("span", "null", Array.isArray(value) ? "[]" : "{}");
    for (const key of keys) {
      const item = element("li");
      item.append(element("span", "key", String(key)), document.createTextNode(": "));
      item.append(tree(value[key]));
      list.append(item);
    }
    return list;
  }

  function header(request, name) {
    const found = (request.headers || []).find((header) => header.name.toLowerCase() === name);
    return found ? found.value : "";
  }

  // The body as a person reads it: JSON indented, a form one field a line, binary as its size.
  function prettyBody(request) {
    if (request.body === undefined || request.body === null) return "(no body)";
    if (request.bodyEncoding === "base64") return "(binary body, base64)\n" + request.body;
    const text = request.body;
    const type = header(request, "content-type");
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (error) {
      // Not JSON as a whole: gtag and others send a JSON document a line.
    }
    const lines = text.split("\n");
    if (lines.length > 1 && lines.every((line) => line.trim() === "" || isJSON(line))) {
      return lines.filter((line) => line.trim() !== "").map((line) => JSON.stringify(JSON.parse(line), null, 2)).join("\n");
    }
    if (type.includes("application/x-www-form-urlencoded") || /^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/.test(text)) {
      return Array.from(new URLSearchParams(text)).map(([name, value]) => name + " = " + value).join("\n");
    }
    return text;
  }

  function isJSON(text) {
    try {
      JSON.parse(text);
      return true;
    } catch (error) {
      return false;
    }
  }

  function open(key) {
    const entry = byKey.get(key);
    if (!entry) return;
    for (const selected of rowsBody.querySelectorAll('tr[aria-selected="true"]')) selected.removeAttribute("aria-selected");
    const row = drawn.get(key);
    if (row) row.setAttribute("aria-selected", "true");
    view.open = key;
    saveView();
    const { request, event, problems, warnings, privacy } = entry;
    $("detail-title").textContent = event
      ? event.vendor + " · " + event.type + (event.name ? " · " + event.name : "")
      : "request " + request.id + (entry.vendor ? " (" + entry.vendor + " could not read it)" : " (no decoder claimed it)");
    $("detail-problems").replaceChildren(...problems.map((problem) => element("li", null, problem)),
      ...warnings.map((warning) => element("li", "warning", "warning: " + warning)),
      ...privacy.map((found) => element("li", "privacy", "privacy: " + found)));
    showFindings(entry);
    $("detail-properties").replaceChildren(event ? tree(event.properties) : element("span", "null", "—"));
    $("detail-context").replaceChildren(event ? tree(event.context) : element("span", "null", "—"));
    $("detail-line").textContent = request.method + " " + request.url;
    const headerRows = (request.headers || []).map((header) => {
      const row = element("tr");
      row.append(element("td", null, header.name), element("td", null, header.value));
      return row;
    });
    $("detail-headers").tBodies[0].replaceChildren(...headerRows);
    $("detail-body").textContent = prettyBody(request);
    showAnswer(answers.get(request.id));
    const steps = (requests.get(request.id) || {}).layers || [];
    $("detail-layers").hidden = steps.length === 0;
    $("detail-layer-steps").replaceChildren(...steps.map((step) => {
      const item = element("li");
      item.append(element("span", "at", step.at === "" ? "the body, read:" : step.at + ", read:"), tree(step.value));
      return item;
    }));
    $("copy-snapshot").hidden = !event;
    $("detail-copied").hidden = true;
    $("copy-status").textContent = "";
    const message = requests.get(request.id);
    const siblings = message ? entriesOf(message) : [];
    $("detail-events").replaceChildren(...siblings.filter((sibling) => sibling.event).map((sibling) => {
      const item = element("li");
      const link = element("button", null, sibling.event.type + " " + (sibling.event.name || ""));
      link.type = "button";
      link.addEventListener("click", () => open(sibling.key));
      item.append(link);
      if (sibling.key === key) item.setAttribute("aria-current", "true");
      return item;
    }));
    $("detail").hidden = false;
  }

  function showAnswer(answer) {
    $("detail-answer-line").textContent = answer
      ? String(answer.status) + (answer.truncated ? " (body cut at 256 KiB)" : "")
      : "(not answered yet)";
    $("detail-answer-headers").tBodies[0].replaceChildren(...(answer ? answer.headers : []).map((header) => {
      const row = element("tr");
      row.append(element("td", null, header.name), element("td", null, header.value));
      return row;
    }));
    $("detail-answer-body").textContent = answer ? prettyBody(answer) : "";
  }

  function findingsOf(entry) {
    return (findings.get(entry.key) || []).concat(findings.get(entry.request.id) || []);
  }

  // The validation's findings on the opened event, as the report shows them: its entry's table
  // of differences, or its line in a list (unexpected, vendor rules, plan).
  function showFindings(entry) {
    const parts = findingsOf(entry).filter((part) => part.tagName !== "TR");
    const shown = parts.map((part) => {
      const copy = part.cloneNode(true);
      if (part.tagName !== "LI") return copy;
      const list = element("ul");
      list.append(copy);
      return list;
    });
    $("detail-findings").replaceChildren(...(shown.length ? [element("h3", null, "Findings")] : []), ...shown);
    $("detail-findings").hidden = shown.length === 0;
  }

  // MARK: Copy

  // A shell word of any text: single-quoted, each ' written as '\''.
  function shellWord(text) {
    return "'" + String(text).replace(/'/g, "'\\''") + "'";
  }

  // The request as a curl command, as captured (secrets as the control API shows them): every
  // word taken from the request is quoted, the method too (a captured method is text, never a command).
  function curlOf(request) {
    const words = ["curl", "-X", shellWord(request.method), shellWord(request.url)];
    for (const header of request.headers || []) {
      if (/^(host|content-length|connection|transfer-encoding)$/i.test(header.name)) continue;
      words.push("-H", shellWord(header.name + ": " + header.value));
    }
    if (request.body === undefined || request.body === null) return words.join(" ");
    if (request.bodyEncoding === "base64") return "printf %s " + shellWord(request.body) + " | base64 -d | " + words.join(" ") + " --data-binary @-";
    return words.concat(["--data-binary", shellWord(request.body)]).join(" ");
  }

  // The event as an entry of a snapshot's "events": what the recorder writes for it.
  function snapshotOf(event) {
    const entry = Object.assign({}, event);
    delete entry.index;
    delete entry.rules;
    return JSON.stringify(entry, null, 2);
  }

  // Puts the text on the clipboard, and shows it (to select by hand where the browser refuses).
  function copy(text) {
    $("detail-copied").textContent = text;
    $("detail-copied").hidden = false;
    const done = (what) => { $("copy-status").textContent = what; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(() => done("copied"), () => done("shown below: select it to copy"));
    } else {
      done("shown below: select it to copy");
    }
  }

  function close() {
    $("detail").hidden = true;
    for (const selected of rowsBody.querySelectorAll('tr[aria-selected="true"]')) selected.removeAttribute("aria-selected");
    view.open = "";
    saveView();
  }

  // MARK: What review.js uses

  // A control API call with the token.
  function call(path, init) {
    const headers = Object.assign({}, (init && init.headers) || {}, token ? { Authorization: "Bearer " + token } : {});
    return fetch(api + path, Object.assign({ cache: "no-store" }, init, { headers }));
  }

  window.tracksnapInspector = {
    call,
    // Opens an event's row ("requestId:index"), or a request's first row (its id alone).
    openRow(key) {
      const entry = byKey.get(key) || entries.find((candidate) => candidate.request.id === key);
      if (!entry) return;
      open(entry.key);
      reveal(entry.key);
    },
    // Puts a validation's findings beside their rows and in the opened event.
    setFindings(byRow) {
      findings = byRow;
      markEntries();
      const opened = byKey.get(view.open);
      if (opened && !$("detail").hidden) showFindings(opened);
    },
  };

  // MARK: The live stream

  function handle(block) {
    let type = "message";
    const data = [];
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") type = value;
      else if (field === "data") data.push(value);
    }
    if (type === "request") receive(JSON.parse(data.join("\n")));
    else if (type === "answer") receiveAnswer(JSON.parse(data.join("\n")));
    else if (type === "server") {
      const server = JSON.parse(data.join("\n"));
      const told = server.max_requests;
      limit = Number.isInteger(told) && told > 0 ? told : defaultLimit;
      // The server keeps the answers of the latest requests only: said once when it forgets some.
      if (typeof server.answers_forgotten === "string") setStatus(server.answers_forgotten);
    }
    else if (type === "live") {
      loading = false;
      showEmpty();
    }
    else if (type === "reset") clearRows();
    else if (type === "overflow") setStatus("fell behind; reconnecting…");
  }

  // The stream being read, so that choosing another profile ends it; and what ends the wait
  // before reading it again.
  let streamControl = null;
  let wakeUp = null;
  let switched = false;
  // Waits `milliseconds` (null: until the profile changes), or less when the profile changes.
  const rest = (milliseconds) => new Promise((resolve) => {
    wakeUp = resolve;
    if (milliseconds !== null) setTimeout(resolve, milliseconds);
  });

  // Reads the stream again at once, with the profile now chosen.
  function reconnect() {
    switched = true;
    if (streamControl) streamControl.abort();
    if (wakeUp) wakeUp();
  }

  // Reads the stream, and reads it again from the start (what the server holds) when it ends;
  // with ?profile= when one is chosen, so that the events are those the profile reads.
  async function follow() {
    for (;;) {
      switched = false;
      streamControl = new AbortController();
      let wait = 1000;
      try {
        const path = "requests/stream" + (view.profile ? "?profile=" + encodeURIComponent(view.profile) : "");
        const response = await call(path, { signal: streamControl.signal });
        if (response.status === 401) {
          setStatus("this server needs its token: open " + location.pathname + "#token=TOKEN");
          $("loading").hidden = true;
          return;
        }
        if (response.status === 400) {
          // A profile the server cannot read: said, and not asked again until another is chosen.
          const answer = await response.json().catch(() => ({}));
          clearRows();
          setStatus(answer.error || "the stream answered 400");
          $("loading").hidden = true;
          $("empty").hidden = true;
          wait = null;
          throw new Error("refused");
        }
        if (!response.ok || !response.body) throw new Error("the stream answered " + response.status);
        loading = true;
        clearRows();
        setStatus("live");
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          // Each event in what arrived, then what is left cut off once.
          let from = 0;
          let end;
          while ((end = buffer.indexOf("\n\n", from)) >= 0) {
            handle(buffer.slice(from, end));
            from = end + 2;
          }
          buffer = buffer.slice(from);
        }
      } catch (error) {
        if (wait !== null && !switched) setStatus("disconnected; reconnecting…");
      }
      if (!switched) await rest(wait);
    }
  }

  // MARK: Controls

  filterBox.value = view.filter;
  filterBox.addEventListener("input", () => {
    view.filter = filterBox.value;
    saveView();
    applyFilter();
  });
  for (const [picker, name] of [[sessionPicker, "session"], [vendorPicker, "vendor"]]) {
    addOption(picker, name === "session" ? sessions : vendors, view[name]);
    picker.value = view[name];
    picker.addEventListener("change", () => {
      view[name] = picker.value;
      saveView();
      applyFilter();
    });
  }
  analyticsSwitch.checked = view.analytics;
  analyticsSwitch.addEventListener("change", () => {
    view.analytics = analyticsSwitch.checked;
    saveView();
    applyFilter();
  });
  profileBox.value = view.profile;
  profileBox.addEventListener("change", () => {
    view.profile = profileBox.value.trim();
    saveView();
    reconnect();
  });
  pauseButton.addEventListener("click", () => {
    paused = !paused;
    pauseButton.textContent = paused ? "Resume" : "Pause";
    pauseButton.setAttribute("aria-pressed", String(paused));
    if (paused) setStatus("paused — " + incoming.length + " new");
    else flush();
  });
  $("close").addEventListener("click", close);
  $("copy-curl").addEventListener("click", () => {
    const entry = byKey.get(view.open);
    if (entry) copy(curlOf(entry.request));
  });
  $("copy-snapshot").addEventListener("click", () => {
    const entry = byKey.get(view.open);
    if (entry && entry.event) copy(snapshotOf(entry.event));
  });
  // One listener for every row, drawn or not yet.
  rowsBody.addEventListener("click", (event) => {
    const row = event.target.closest("tr");
    if (row && row.dataset.key) open(row.dataset.key);
  });
  window.addEventListener("scroll", scheduleDraw, { passive: true });
  window.addEventListener("resize", scheduleDraw);

  follow();
})();
