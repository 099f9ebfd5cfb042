// A Content-Signal value (contentsignals.org, draft-romm-aipref-contentsignals-00): comma-separated
// `key=value` entries with keys search, ai-input, ai-train and values yes or no, read as
//
//   content-signal = entry *( OWS "," OWS entry )
//   entry          = key OWS "=" OWS value                ; malformed_entry: each side 1*( ALPHA / DIGIT / "-" / "_" )
//   key            = "search" / "ai-input" / "ai-train"   ; unknown_key, case-insensitive
//   value          = "yes" / "no"                         ; invalid_value, case-insensitive
//
// Problems are reported as codes naming the production rather than dropped, so a rule can tell a malformed
// declaration from an absent one. OWS is only space and tab (RFC 9110 section 5.6.3), not every Unicode space.
import { trimOws } from '../../src/lib/http-grammar.ts';

const CONTENT_SIGNAL_KEYS = ['ai-input', 'ai-train', 'search'] as const;

export type ContentSignalProblem = 'empty' | 'malformed_entry' | 'unknown_key' | 'invalid_value' | 'duplicate_key';

export interface ParsedContentSignal {
  /** Well-formed entries, keys and values lower-cased; a repeated key keeps its last value. */
  signals: Record<string, string>;
  /** Distinct problem codes, sorted. */
  problems: ContentSignalProblem[];
}

const ENTRY = /^([A-Za-z0-9_-]+)[ \t]*=[ \t]*([A-Za-z0-9_-]+)$/;

export function parseContentSignal(value: string): ParsedContentSignal {
  // No prototype: a key may be named __proto__ or constructor.
  const signals = Object.create(null) as Record<string, string>;
  const problems = new Set<ContentSignalProblem>();
  const entries = value.split(',').map(trimOws);
  if (entries.every((e) => e === '')) problems.add('empty');
  for (const entry of entries) {
    if (entry === '') continue;
    const m = ENTRY.exec(entry);
    if (!m) {
      problems.add('malformed_entry');
      continue;
    }
    const key = m[1]!.toLowerCase();
    const val = m[2]!.toLowerCase();
    if (!(CONTENT_SIGNAL_KEYS as readonly string[]).includes(key)) problems.add('unknown_key');
    if (val !== 'yes' && val !== 'no') problems.add('invalid_value');
    if (Object.hasOwn(signals, key)) problems.add('duplicate_key');
    signals[key] = val;
  }
  return { signals, problems: [...problems].sort() };
}
