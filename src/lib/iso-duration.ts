// ISO 8601 durations (`P1D`, `PT12H`, `P1W`, `PT5S`) as milliseconds, parsed by tinyduration. Years and months
// are refused: their length depends on the calendar, and a schedule needs a fixed span.
import { parse } from 'tinyduration';

const MS = { weeks: 604_800_000, days: 86_400_000, hours: 3_600_000, minutes: 60_000, seconds: 1000 } as const;

/** The duration in milliseconds, or why the text is not a usable one. */
export function isoDurationMs(text: string): { ms: number } | { problem: string } {
  let d: ReturnType<typeof parse>;
  try {
    d = parse(text);
  } catch {
    return { problem: `${JSON.stringify(text)} is not an ISO 8601 duration such as P1D, PT12H or P1W` };
  }
  if (d.negative) return { problem: 'a duration must not be negative' };
  if (d.years || d.months)
    return { problem: 'years and months vary in length: give the duration in weeks, days, hours, minutes or seconds' };
  const ms = Object.entries(MS).reduce((sum, [unit, size]) => sum + (d[unit as keyof typeof MS] ?? 0) * size, 0);
  if (!(ms >= 1000)) return { problem: 'a duration must be at least one second' };
  return { ms: Math.round(ms) };
}
