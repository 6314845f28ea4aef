// The tracksnap inspector: captured requests and their decoded events, live, from
// GET /__tracksnap/requests/stream (Server-Sent Events, read with fetch so that the token goes
// in an Authorization header). Captured traffic is hostile input: every text captured reaches
// the page through textContent or an attribute's value, never as markup.
"use strict";

(() => {
  const api = "/__tracksnap/";
  const tokenKey = "tracksnap.token";
  // Rows kept in the page; older ones are dropped beyond this.
  const maximumRows = 20000;

  const $ = (id) => document.getElementById(id);
  const rowsBody = $("rows");
  const filterBox = $("filter");
  const sessionPicker = $("session");
  const vendorPicker = $("vendor");
  const pauseButton = $("pause");
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
             vendor: query.get("vendor") || "", open: query.get("open") || "" };
  })();

  // Every row: the request, the event (null for a request that gave none), the vendor (of the
  // event, or of the decoder that claimed the request and failed; "" for none), its key
  // ("requestId:index", or "requestId:-"), the lowercased text the filter looks in, its <tr>.
  const entries = [];
  const byKey = new Map();
  const requests = new Map();
  let incoming = [];
  let flushScheduled = false;
  let paused = false;
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
    if (view.open) query.set("open", view.open);
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

  function timeOf(request) {
    const date = new Date(request.time);
    if (isNaN(date.getTime())) return request.time || "";
    return date.toLocaleTimeString(undefined, { hour12: false }) + "." + String(date.getMilliseconds()).padStart(3, "0");
  }

  function entriesOf(message) {
    const request = message.request;
    const problems = message.problems || [];
    const events = message.events || [];
    if (events.length === 0) {
      return [{ request, event: null, vendor: message.vendor || "", problems, key: request.id + ":-" }];
    }
    // An event's problems: its request's, and the vendor rules it breaks.
    return events.map((event) => ({ request, event, vendor: event.vendor, problems: problems.concat(event.rules || []),
                                    key: request.id + ":" + event.index }));
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
    row.append(element("td", "request", entry.request.method + " " + hostAndPath(entry.request.url)));
    row.append(badgeCell(entry));
    row.addEventListener("click", () => open(entry.key));
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
    // One finding a line of the report: a row of an entry's table or an item of a list.
    const found = findingsOf(entry).filter((part) => part.tagName !== "DETAILS");
    if (found.length > 0) {
      const mark = element("span", "badge finding", found.length === 1 ? "finding" : found.length + " findings");
      mark.title = found.map((part) => part.textContent.trim().split("\n")[0]).join("\n");
      badge.append(mark);
    }
    return badge;
  }

  function matches(entry) {
    if (view.session && entry.request.session !== view.session) return false;
    if (view.vendor && entry.vendor !== view.vendor) return false;
    if (view.filter && !entry.search.includes(view.filter.toLowerCase())) return false;
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
    requests.set(message.request.id, message);
    incoming.push(message);
    if (!paused) scheduleFlush();
    else setStatus("paused — " + incoming.length + " new");
  }

  function scheduleFlush() {
    if (flushScheduled) return;
    flushScheduled = true;
    setTimeout(flush, 50);
  }

  // Puts what arrived at the top of the list, newest first, in one change of the page.
  function flush() {
    flushScheduled = false;
    if (paused || incoming.length === 0) return;
    const fragment = document.createDocumentFragment();
    for (let index = incoming.length - 1; index >= 0; index -= 1) {
      const message = incoming[index];
      addOption(sessionPicker, sessions, message.request.session);
      const made = entriesOf(message);
      for (let at = made.length - 1; at >= 0; at -= 1) {
        const entry = made[at];
        addOption(vendorPicker, vendors, entry.vendor);
        entry.search = searchText(entry);
        entry.row = rowFor(entry);
        entry.row.hidden = !matches(entry);
        entries.push(entry);
        byKey.set(entry.key, entry);
        fragment.append(entry.row);
      }
    }
    incoming = [];
    rowsBody.prepend(fragment);
    while (entries.length > maximumRows) {
      const old = entries.shift();
      old.row.remove();
      byKey.delete(old.key);
      requests.delete(old.request.id);
    }
    $("empty").hidden = entries.length > 0;
    setStatus("live — " + entries.length + " rows");
    if (view.open && $("detail").hidden && byKey.has(view.open)) open(view.open);
  }

  function clearRows() {
    entries.length = 0;
    byKey.clear();
    requests.clear();
    incoming = [];
    rowsBody.replaceChildren();
    $("empty").hidden = false;
  }

  function applyFilter() {
    for (const entry of entries) entry.row.hidden = !matches(entry);
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
    entry.row.setAttribute("aria-selected", "true");
    view.open = key;
    saveView();
    const { request, event, problems } = entry;
    $("detail-title").textContent = event
      ? event.vendor + " · " + event.type + (event.name ? " · " + event.name : "")
      : "request " + request.id + (entry.vendor ? " (" + entry.vendor + " could not read it)" : " (no decoder claimed it)");
    $("detail-problems").replaceChildren(...problems.map((problem) => element("li", null, problem)));
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
      if (entry) open(entry.key);
    },
    // Puts a validation's findings beside their rows and in the opened event.
    setFindings(byRow) {
      findings = byRow;
      for (const entry of entries) entry.row.lastChild.replaceWith(badgeCell(entry));
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
    else if (type === "reset") clearRows();
    else if (type === "overflow") setStatus("fell behind; reconnecting…");
  }

  const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

  // Reads the stream, and reads it again from the start (what the server holds) when it ends.
  async function follow() {
    for (;;) {
      try {
        const response = await call("requests/stream");
        if (response.status === 401) {
          setStatus("this server needs its token: open " + location.pathname + "#token=TOKEN");
          return;
        }
        if (!response.ok || !response.body) throw new Error("the stream answered " + response.status);
        clearRows();
        setStatus("live");
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            handle(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
          }
        }
      } catch (error) {
        setStatus("disconnected; reconnecting…");
      }
      await sleep(1000);
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
  pauseButton.addEventListener("click", () => {
    paused = !paused;
    pauseButton.textContent = paused ? "Resume" : "Pause";
    pauseButton.setAttribute("aria-pressed", String(paused));
    if (paused) setStatus("paused — " + incoming.length + " new");
    else flush();
  });
  $("close").addEventListener("click", close);

  follow();
})();
