// Where log lines go, written once per turn of the event loop rather than once per line: a write is a system
// call, the dearest part of a request's log line (on a virtual machine it cost more than the rest of a cached
// Quick Scan's path), and the lines of the requests answered in one turn share one. A line is written before the
// process waits for anything, so it is as prompt as an unbuffered one; what a turn holds is written at exit too
// (only a kill or a crash of the process itself loses it).
import type { DestinationStream } from 'pino';

/** Takes a turn's lines as one string. */
export type LogSink = (text: string) => void;

export interface LogDestination extends DestinationStream {
  /** Writes what the current turn holds now. */
  flush(): void;
}

class TurnBufferedDestination implements LogDestination {
  private pending = '';
  private readonly flushAtTurnEnd = () => this.flush();

  constructor(private readonly sink: LogSink) {}

  write(line: string): void {
    if (this.pending === '') setImmediate(this.flushAtTurnEnd);
    this.pending += line;
  }

  flush(): void {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.sink(text);
  }
}

/** A destination handing `sink` each turn's lines at the end of the turn, and at exit. */
export function logDestination(sink: LogSink): LogDestination {
  const destination = new TurnBufferedDestination(sink);
  process.once('exit', () => destination.flush());
  return destination;
}

let stderr: LogDestination | null = null;

/** The process's standard error as a log destination, one for the whole process. */
export function stderrDestination(): LogDestination {
  return (stderr ??= logDestination((text) => process.stderr.write(text)));
}
