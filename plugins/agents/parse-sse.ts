// Reads a text/event-stream body (MCP Streamable HTTP answers a POST with one) into its events. The framing
// rules (field names, multi-line data, CRLF, comments) are the parser library's; we only collect the events.
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface SseEvent {
  event: string | null;
  id: string | null;
  data: string;
}

export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent: (m: EventSourceMessage) => events.push({ event: m.event ?? null, id: m.id ?? null, data: m.data }),
  });
  // A stream cut at the byte limit may end without the blank line that dispatches its last event; extra
  // blank lines after a complete stream dispatch nothing.
  parser.feed(`${text}\n\n`);
  return events;
}
