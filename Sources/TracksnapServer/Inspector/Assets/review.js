// The inspector's snapshot panel: validate a session against a snapshot under the root (or one
// pasted), record it as a pending snapshot, and review pending snapshots — accept or reject each,
// as `tracksnap review` does. A validation is shown as the HTML report renders it (the server's
// `"format": "html"`, its body taken in, styled by report.css), so that a CI artifact and this
// page read the same; what in it concerns a captured request or event (`data-request`,
// `data-event`) is put beside its row through the hooks inspector.js exposes
// (`window.tracksnapInspector`).
"use strict";

(() => {
  const inspector = window.tracksnapInspector;
  const $ = (id) => document.getElementById(id);
  const panel = $("work");
  const pasted = "(paste)";

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function say(id, text, failed) {
    $(id).textContent = text;
    $(id).classList.toggle("failed", Boolean(failed));
  }

  // A control API call's JSON answer; a refusal becomes an Error with the server's message.
  async function call(method, path, body, signal) {
    const response = await inspector.call(path, {
      method, signal, headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try { message = JSON.parse(text).error; } catch (error) { /* the text as it came */ }
      throw new Error(response.status + ": " + message);
    }
    return { response, text };
  }

  // A list the panel shows (GET, safe to ask again): a call with no answer within 10 s is given
  // up and asked again, twice at most, on a new connection, and the panel says so — a browser
  // can leave a call waiting on a kept-alive connection the server has dropped. (The empty
  // session picker once seen in CI, its status silent, was a click before this script ran:
  // see the toggle at the end.)
  async function list(path) {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = JSON.parse((await call("GET", path, undefined, AbortSignal.timeout(10000))).text);
        if ($("work-status").textContent.startsWith(path + ": no answer")) say("work-status", "");
        return answer;
      } catch (error) {
        if (error.name !== "TimeoutError" || attempt === 3) throw error;
        say("work-status", path + ": no answer within 10 s, asking again…", true);
      }
    }
  }

  const count = (number, noun) => number + " " + noun + (number === 1 ? "" : "s");

  function fill(picker, values, keep) {
    const before = picker.value;
    picker.replaceChildren(...values.map(([value, label]) => {
      const option = element("option", null, label);
      option.value = value;
      return option;
    }));
    if (keep && values.some(([value]) => value === before)) picker.value = before;
  }

  // MARK: What there is to pick

  // The sessions and the snapshots, each on its own: one call failing leaves the other shown.
  async function refresh() {
    await Promise.all([refreshSessions(), refreshSnapshots()]);
    suggestRecordPath();
  }

  async function refreshSessions() {
    try {
      const sessions = await list("sessions");
      fill($("work-session"), sessions.slice().reverse().map((session) =>
        [session.id, session.name ? session.id + " (" + session.name + ")" : session.id]), true);
      if (sessions.length === 0) say("work-status", "no open session: start one (POST /__tracksnap/sessions) to validate or record it");
    } catch (error) {
      say("work-status", "sessions: " + error.message, true);
    }
  }

  // Where a recording of the picked session is suggested: the first folder the server found
  // snapshots in (`Snapshots`, or a pytest project's `snapshots`). A path the person typed stays.
  let recordFolder = "Snapshots";
  let suggestedPath = "";

  function suggestRecordPath() {
    const box = $("work-record-path");
    box.placeholder = recordFolder + "/checkout.json";
    const session = $("work-session").value;
    if (!session || (box.value && box.value !== suggestedPath)) return;
    suggestedPath = recordFolder + "/" + session + ".json";
    box.value = suggestedPath;
  }

  async function refreshSnapshots() {
    try {
      const listing = await list("snapshots");
      const snapshots = listing.snapshots;
      recordFolder = listing.folder.split(", ")[0];
      const existing = snapshots.filter((snapshot) => snapshot.exists).map((snapshot) => [snapshot.file, snapshot.file]);
      fill($("work-snapshot"), existing.concat([[pasted, "paste a snapshot…"]]), true);
      showContentBox();
      showPending(snapshots.filter((snapshot) => snapshot.pending));
    } catch (error) {
      say("work-status", "snapshots: " + error.message, true);
    }
  }

  function showContentBox() {
    $("work-content").hidden = $("work-snapshot").value !== pasted;
  }

  function optional(fields) {
    const validator = $("work-validator").value.trim();
    const plan = $("work-plan").value.trim();
    if (validator) fields.validator = validator;
    if (plan) fields.plan = plan;
    return fields;
  }

  // MARK: Validate

  async function validate() {
    const session = $("work-session").value;
    if (!session) return say("work-status", "pick a session to validate", true);
    const body = optional({ format: "html", settle: 0 });
    if ($("work-snapshot").value === pasted) {
      // The text as pasted: the server reads it as the CLI reads a file, and a mistake comes
      // back at its line and column in it ("snapshotContent:3:52: …"), not as JSON.parse says.
      body.snapshotContent = $("work-content").value;
    } else if ($("work-snapshot").value) {
      body.snapshot = $("work-snapshot").value;
    }
    say("work-status", "validating " + session + "…");
    try {
      const { response, text } = await call("POST", "sessions/" + encodeURIComponent(session) + "/validate", body);
      const passed = response.headers.get("X-Tracksnap-Passed") === "true";
      // From its body on: the head's inline style is the page's own report.css, and this
      // page's policy refuses inline style (and says so in the console).
      show(new DOMParser().parseFromString(text.slice(Math.max(0, text.indexOf("<body"))), "text/html"));
      say("work-status", passed ? "passed" : "failed: the findings are below, and beside their events", !passed);
    } catch (error) {
      say("work-status", error.message, true);
    }
  }

  // The report's body, taken in as it is (DOMParser runs no script, and the policy allows
  // none inline); each part that names a captured request opens it, and is handed to the list.
  function show(page) {
    const report = $("work-report");
    report.replaceChildren(...Array.from(page.body.childNodes).map((node) => document.adoptNode(node)));
    const byRow = new Map();
    for (const part of report.querySelectorAll("[data-request]")) {
      const key = part.dataset.request + (part.dataset.event === undefined ? "" : ":" + part.dataset.event);
      if (!byRow.has(key)) byRow.set(key, []);
      byRow.get(key).push(part);
      part.classList.add("concerns-request");
      part.title = "open what was captured";
      part.addEventListener("click", (event) => {
        if (event.target.closest("summary")) return;
        event.stopPropagation();
        inspector.openRow(key);
      });
    }
    inspector.setFindings(byRow);
  }

  // MARK: Record

  async function record() {
    const session = $("work-session").value;
    const snapshot = $("work-record-path").value.trim();
    if (!session) return say("work-status", "pick a session to record", true);
    if (!snapshot.endsWith(".json")) return say("work-status", "name the snapshot to record, such as " + recordFolder + "/checkout.json", true);
    say("work-status", "recording " + session + "…");
    try {
      const { text } = await call("POST", "sessions/" + encodeURIComponent(session) + "/record",
        optional({ snapshot, pending: true, settle: 0 }));
      const answer = JSON.parse(text);
      const what = answer.events ? count(answer.events, "event") : count(answer.requests, "request");
      say("work-status", answer.recorded ? "recorded " + what + " as " + answer.file + ": review it below" : "nothing to record: " + answer.file + " already holds it");
      await refresh();
    } catch (error) {
      say("work-status", error.message, true);
    }
  }

  // MARK: Review

  function diffView(diff) {
    const view = element("pre", "diff");
    if (!diff) {
      view.textContent = "(the same lines as the snapshot)";
      return view;
    }
    for (const line of diff.split("\n")) {
      let kind = null;
      if (line.startsWith("+++") || line.startsWith("---")) kind = "file";
      else if (line.startsWith("+")) kind = "added";
      else if (line.startsWith("-")) kind = "removed";
      else if (line.startsWith("@@")) kind = "hunk";
      view.append(element("span", kind, line + "\n"));
    }
    return view;
  }

  function showPending(pending) {
    const list = $("work-pending");
    $("work-no-pending").hidden = pending.length > 0;
    list.replaceChildren(...pending.map((snapshot) => {
      const item = element("li");
      item.dataset.snapshot = snapshot.file;
      const title = element("h4", null, snapshot.pending);
      title.append(element("span", "muted", snapshot.exists ? " → " + snapshot.file : " (a first recording)"));
      item.append(title, diffView(snapshot.diff));
      for (const [decision, label] of [["accept", "Accept"], ["reject", "Reject"]]) {
        const button = element("button", decision, label);
        button.type = "button";
        button.addEventListener("click", () => decide(decision, snapshot.file));
        item.append(button);
      }
      return item;
    }));
  }

  async function decide(decision, snapshot) {
    try {
      const { text } = await call("POST", "snapshots/" + decision, { snapshot });
      const answer = JSON.parse(text);
      say("work-status", decision === "accept" ? "accepted: " + answer.snapshot + " is the new snapshot" : "rejected: " + answer.pending + " deleted");
    } catch (error) {
      say("work-status", error.message, true);
    }
    await refresh();
  }

  // MARK: Controls

  $("work-toggle").addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    $("work-toggle").setAttribute("aria-expanded", String(!panel.hidden));
    if (!panel.hidden) refresh();
  });
  $("work-snapshot").addEventListener("change", showContentBox);
  $("work-session").addEventListener("change", suggestRecordPath);
  $("work-validate").addEventListener("click", validate);
  $("work-record").addEventListener("click", record);
  $("work-refresh").addEventListener("click", refresh);
  // The page is shown before this script runs (deferred scripts run one by one, and the stream
  // may be live in between): the toggle is disabled until it does anything. Seen in CI: a click
  // in that gap did nothing, and the panel stayed shut with no word why.
  $("work-toggle").disabled = false;
})();
