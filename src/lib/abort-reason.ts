// An aborted signal's reason as an Error: `abort()` without a reason gives a DOMException (an Error), and a
// caller's own reason is passed on untouched when it is one, so `instanceof` checks upstream still hold.
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(`aborted: ${String(reason)}`);
}
