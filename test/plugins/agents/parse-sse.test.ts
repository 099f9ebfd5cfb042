import { describe, it, expect } from 'vitest';
import { parseSse } from '../../../plugins/agents/parse-sse.ts';

describe('parseSse', () => {
  it('reads one event with its type and id', () => {
    expect(parseSse('event: message\nid: 7\ndata: {"a":1}\n\n')).toEqual([
      { event: 'message', id: '7', data: '{"a":1}' },
    ]);
  });

  it('joins multi-line data and accepts CRLF', () => {
    expect(parseSse('data: line one\r\ndata: line two\r\n\r\n')).toEqual([
      { event: null, id: null, data: 'line one\nline two' },
    ]);
  });

  it('skips comments and keeps events in order', () => {
    const events = parseSse(': keep-alive\n\ndata: 1\n\ndata: 2\n\n');
    expect(events.map((e) => e.data)).toEqual(['1', '2']);
  });

  it('keeps a last event whose closing blank line was cut off', () => {
    expect(parseSse('data: {"jsonrpc":"2.0"}')).toEqual([{ event: null, id: null, data: '{"jsonrpc":"2.0"}' }]);
  });

  it('gives no events for a body that is not an event stream', () => {
    expect(parseSse('')).toEqual([]);
  });
});
