// Generated from schemas/api/monitor-tokens.json by `npm run types`; edit the schema, not this file.

import type { PaymentTokens } from './monitor-request.ts';

/**
 * More prepaid runs for a monitor. A monitor paused for want of tokens resumes.
 */
export interface MonitorTokens {
  payment_tokens: PaymentTokens;
}
