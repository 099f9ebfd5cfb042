// What `dvs scan` shows while probes run, on stderr so stdout stays the result: on a terminal one line that is
// rewritten as each probe finishes; otherwise (a pipe, a log, CI) one plain line per probe, nothing to redraw.
import type { ScanProgress } from '../engine/observe-and-judge.ts';

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface ProbeProgress {
  onProgress(progress: ScanProgress): void;
  /** Ends the display: a terminal's line is cleared, so the result that follows starts clean. */
  done(): void;
}

const CLEAR_LINE = '\r\x1b[2K';

export function probeProgress(domain: string, stream: ProgressStream): ProbeProgress {
  const finished: string[] = [];
  if (!stream.isTTY) {
    return {
      onProgress: ({ probe, status, done, total }) => stream.write(`probe ${probe}: ${status} (${done}/${total})\n`),
      done: () => undefined,
    };
  }
  return {
    onProgress({ probe, status, done, total }) {
      finished.push(status === 'ok' ? probe : `${probe} (${status})`);
      stream.write(`${CLEAR_LINE}scanning ${domain}: ${done}/${total} probes done: ${finished.join(', ')}`);
    },
    done: () => {
      if (finished.length) stream.write(CLEAR_LINE);
    },
  };
}
