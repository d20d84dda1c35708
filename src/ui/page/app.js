// The page of `agentry ui`: the rows the server sends (src/ui/node-rows.ts, in the terminal's words),
// drawn as a tree and kept current from /events. No framework: a row is one element, changed in place.

const GLYPHS = { queued: "◌", running: "●", completed: "✓", failed: "✗", aborted: "⊘" };
const ACTIVE = new Set(["queued", "running"]);

/** key → { row, element } */
const shown = new Map();
let order = [];
/** The row whose transcript is open. */
let selected;

const $ = (id) => document.getElementById(id);
const rowsElement = $("rows");

function connect() {
  const events = new EventSource("/events");
  events.addEventListener("open", () => setConnection("live"));
  events.addEventListener("error", () => setConnection("connecting"));
  events.addEventListener("snapshot", (event) => {
    const { rows, order: keys } = JSON.parse(event.data);
    for (const { element } of shown.values()) element.remove();
    shown.clear();
    for (const row of rows) place(row);
    reorder(keys);
    afterChange(rows.map((row) => row.key));
  });
  events.addEventListener("update", (event) => {
    const { changed, removed, order: keys } = JSON.parse(event.data);
    for (const key of removed) {
      shown.get(key)?.element.remove();
      shown.delete(key);
    }
    for (const row of changed) place(row);
    if (keys !== undefined) reorder(keys);
    afterChange(changed.map((row) => row.key));
  });
}

function setConnection(state) {
  const element = $("connection");
  element.dataset.state = state;
  element.textContent = state === "live" ? "live" : "reconnecting…";
}

/** Adds or redraws one row. */
function place(row) {
  let entry = shown.get(row.key);
  if (entry === undefined) {
    entry = { row, element: document.createElement("div") };
    entry.element.dataset.key = row.key;
    shown.set(row.key, entry);
  }
  entry.row = row;
  draw(entry.element, row);
}

function reorder(keys) {
  order = keys;
  // appendChild moves an element: the list ends up in the server's order, untouched rows keep their state.
  for (const key of keys) {
    const entry = shown.get(key);
    if (entry !== undefined) rowsElement.appendChild(entry.element);
  }
}

function afterChange(keys) {
  $("empty").hidden = shown.size > 0;
  drawSummary();
  if (selected !== undefined && keys.includes(selected)) refreshDetail();
}

function drawSummary() {
  const runs = order.filter((key) => shown.get(key)?.row.depth === 0).length;
  const tasks = [...shown.values()].filter(({ row }) => row.taskId !== undefined);
  const active = tasks.filter(({ row }) => ACTIVE.has(row.status)).length;
  $("summary").textContent =
    `${runs} run${runs === 1 ? "" : "s"} · ${tasks.length} task${tasks.length === 1 ? "" : "s"} · ${active} active`;
}

function span(className, text, title) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text ?? "";
  if (title) element.title = title;
  return element;
}

function button(label, className, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = className;
  element.textContent = label;
  element.addEventListener("click", (event) => {
    event.stopPropagation();
    onClick();
  });
  return element;
}

function draw(element, row) {
  element.className = `row${row.depth === 0 ? " run" : ""}${row.key === selected ? " selected" : ""}`;
  element.dataset.status = row.status;
  if (row.waiting) element.dataset.waiting = "";
  else delete element.dataset.waiting;
  const name = span("name", "", row.description);
  name.style.paddingLeft = `${row.depth * 1.4}em`;
  name.append(span("glyph", GLYPHS[row.status] ?? "?"), document.createTextNode(row.name));
  if (row.unread) name.append(" ", span("badge unread", `✉ ${row.unread}`, "messages not yet delivered"));
  if (row.cancelRequested) name.append(" ", span("badge cancelling", "cancelling…"));
  const actions = span("actions");
  if (row.sessionId !== undefined)
    actions.append(button("transcript", "open-transcript", () => select(row.key)));
  if (row.taskId !== undefined && ACTIVE.has(row.status) && !row.cancelRequested)
    actions.append(button("cancel", "cancel", () => cancel(row)));
  const cells =
    row.depth === 0
      ? [name, span("type", row.sessionId ?? ""), span("totals", row.totals ?? "")]
      : [
          name,
          span("type", row.agentType),
          span("model", shortModel(row.model), row.model),
          span("activity", row.activity, row.activity),
          span("where", row.runsAt ?? "", row.runsAt),
          span("turns", String(row.turns)),
          span("tokens", row.tokens),
          span("cost", row.cost ?? ""),
          span("elapsed", elapsed(row)),
        ];
  element.replaceChildren(...cells, actions);
}

function shortModel(model) {
  return model === undefined ? "" : model.slice(model.indexOf(":") + 1);
}

/** `850ms`, `4.2s`, `2m5s`, `1h30m`: src/text/format-duration.ts, as the terminal shows times. */
function elapsed(row) {
  if (row.since === undefined) return "";
  const ms = Math.max(0, (row.endedAt ?? Date.now()) - row.since);
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes}m${Math.floor((ms % 60_000) / 1000)}s`;
  return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

// Running rows count their time up.
setInterval(() => {
  for (const { row, element } of shown.values()) {
    if (!ACTIVE.has(row.status) || row.depth === 0) continue;
    const cell = element.querySelector(".elapsed");
    if (cell) cell.textContent = elapsed(row);
  }
}, 1000);

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error ?? `${response.status} ${response.statusText}`);
  return answer;
}

async function cancel(row) {
  try {
    await post(`/api/tasks/${encodeURIComponent(row.taskId)}/cancel`, {});
  } catch (error) {
    alertRow(row.key, error.message);
  }
}

function alertRow(key, text) {
  const activity = shown.get(key)?.element.querySelector(".activity");
  if (activity) activity.textContent = text;
}

function select(key) {
  const before = selected;
  selected = key;
  if (before !== undefined && shown.has(before)) draw(shown.get(before).element, shown.get(before).row);
  draw(shown.get(key).element, shown.get(key).row);
  $("detail").hidden = false;
  $("message-status").textContent = "";
  refreshDetail();
}

let detailRead = 0;
async function refreshDetail() {
  const entry = shown.get(selected);
  if (entry === undefined) return;
  const { row } = entry;
  $("detail-title").textContent =
    row.depth === 0 ? `${row.name} · ${row.sessionId}` : row.key.split("/").slice(1).join("/");
  $("detail-meta").textContent = [row.taskId && `task ${row.taskId}`, row.description, row.runsAt]
    .filter(Boolean)
    .join(" · ");
  $("message-form").hidden = !(
    row.taskId !== undefined &&
    ACTIVE.has(row.status) &&
    row.agentType !== "workflow"
  );
  const read = ++detailRead;
  const response = await fetch(`/api/transcripts/${encodeURIComponent(row.sessionId)}`);
  const answer = await response.json().catch(() => ({}));
  if (read !== detailRead) return;
  const list = $("transcript");
  if (!response.ok) {
    list.replaceChildren(item({ kind: "note", text: answer.error ?? `${response.status}` }));
    return;
  }
  list.replaceChildren(...answer.items.map(item));
}

function item(entry) {
  const element = document.createElement("li");
  element.dataset.kind = entry.kind;
  if (entry.error) element.dataset.error = "";
  element.append(entry.text);
  if (entry.calls?.length) {
    const calls = document.createElement("div");
    calls.className = "calls";
    calls.textContent = entry.calls.map((call) => `→ ${call}`).join("\n");
    element.append(calls);
  }
  return element;
}

$("detail-close").addEventListener("click", () => {
  const before = selected;
  selected = undefined;
  $("detail").hidden = true;
  if (before !== undefined && shown.has(before)) draw(shown.get(before).element, shown.get(before).row);
});

$("message-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const row = shown.get(selected)?.row;
  const text = $("message-text").value;
  if (row?.taskId === undefined || text.trim() === "") return;
  const status = $("message-status");
  status.textContent = "sending…";
  try {
    await post(`/api/tasks/${encodeURIComponent(row.taskId)}/message`, { text });
    $("message-text").value = "";
    status.textContent = "sent: it reads it at its next turn";
  } catch (error) {
    status.textContent = error.message;
  }
});

connect();
