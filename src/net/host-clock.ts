// The clock that time limits on a host run on: wall time minus the time this process could not watch the host.
// When the event loop is held up (other scans parsing pages, handshakes, a CPU shared with other processes), a
// reply sits unread in the kernel; counting that time against the host made a scan's outcome depend on how many
// others ran beside it (a large page read under load timed out, and passed alone). A ticker runs while any
// watch is open and adds each late tick's lateness to the stall total; a watch reads wall time less the stalls
// since it began, including the gap of a tick that is late right now.

/** How often the ticker runs; the lateness of a tick beyond timer jitter counts as a stall. */
const TICK_MS = 10;
const TOLERANCE_MS = TICK_MS + 2;

let stalledMs = 0;
let lastTick = 0;
let watchers = 0;
let ticker: NodeJS.Timeout | null = null;

function tick(): void {
  const now = performance.now();
  stalledMs += Math.max(0, now - lastTick - TOLERANCE_MS);
  lastTick = now;
}

/** Stalls so far, the gap since the last tick included (a deadline may fire before a late ticker runs). */
function stalledNow(now: number): number {
  return stalledMs + Math.max(0, now - lastTick - TOLERANCE_MS);
}

export interface HostWatch {
  /** Milliseconds of host time since the watch began: wall time less this process's stalls. */
  elapsed(): number;
  /** Stops the watch, freezing its reading (calling it twice is harmless); the ticker stops with the last one. */
  stop(): void;
}

export function watchHost(): HostWatch {
  if (watchers++ === 0) {
    lastTick = performance.now();
    // Unreferenced: a pending time limit keeps the process alive by its own timer, the ticker never does.
    ticker = setInterval(tick, TICK_MS).unref();
  }
  const started = performance.now();
  const stalledAtStart = stalledNow(started);
  /** Set at stop: without a ticker, later gaps would read as stalls. */
  let final: number | null = null;
  const measure = (): number => {
    const now = performance.now();
    return now - started - (stalledNow(now) - stalledAtStart);
  };
  return {
    elapsed: () => final ?? measure(),
    stop() {
      if (final !== null) return;
      final = measure();
      if (--watchers === 0 && ticker) {
        clearInterval(ticker);
        ticker = null;
      }
    },
  };
}
