/** One server-sent event as it travels on the wire. */
export interface SseEvent {
  event?: string;
  data: string;
}

export function encodeSse(event: SseEvent): string {
  const head = event.event === undefined ? "" : `event: ${event.event}\n`;
  const data = event.data
    .split("\n")
    .map((line) => `data: ${line}\n`)
    .join("");
  return `${head}${data}\n`;
}

/** Parses a complete SSE body (per the WHATWG rules we use: `event`, `data`, comments, CRLF). */
export function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of body.replace(/\r\n?/g, "\n").split("\n\n")) {
    let name: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line === "" || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
    }
    if (data.length === 0) continue;
    events.push(name === undefined ? { data: data.join("\n") } : { event: name, data: data.join("\n") });
  }
  return events;
}
