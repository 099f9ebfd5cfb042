// The stable error codes, case by case at the operations both surfaces share (the REST and MCP tests check that
// each surface carries them): every refusal of the payment ledger, a held token, an instance that is shutting
// down, and the Error body with retry_after_s wherever a Retry-After is sent.
import { describe, expect, it } from 'vitest';
import { ApiError, errorBody } from '../../src/api/http/errors.ts';
import { BUSY_RETRY_S, ScanOperations } from '../../src/api/operations/scan-operations.ts';
import { PaymentRequiredError, type FullValidations } from '../../src/service/full-validations.ts';
import type { QuickScans } from '../../src/service/quick-scans.ts';

const caller = { client: '192.0.2.7', authorization: '' };

/** Operations whose Full Validation refuses the token for `reason` (the ledger's words as the message). */
function refusing(reason: PaymentRequiredError['reason'], accepting = true): ScanOperations {
  const fullValidations = {
    run: () => Promise.reject(new PaymentRequiredError(`refused: ${reason}`, reason)),
  } as unknown as FullValidations;
  const quickScans = { run: () => Promise.reject(new Error('no quick scan expected')) } as unknown as QuickScans;
  return new ScanOperations({ quickScans, fullValidations, extraSuffixes: ['test'], accepting: () => accepting });
}

async function refusal(ops: ScanOperations, body: unknown): Promise<ApiError> {
  const err = await ops.fullvalidation(body, caller).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return err as ApiError;
}

const paid = { domain: 'good.test', payment_token: 'tok_x' };

describe('error codes', () => {
  it.each([
    ['unknown', 402, 'payment_required'],
    ['expired', 402, 'token_expired'],
    ['other_domain', 402, 'token_used'],
    ['in_progress', 503, 'busy'],
  ] as const)('a token refused as %s is a %i with code %s', async (reason, status, code) => {
    const err = await refusal(refusing(reason), paid);
    expect([err.status, err.code, err.message]).toEqual([status, code, `refused: ${reason}`]);
  });

  it('refuses every new scan as busy, with Retry-After, while the instance is shutting down', async () => {
    const ops = refusing('unknown', false);
    for (const run of [() => ops.quickscan({ domain: 'good.test' }, caller), () => ops.fullvalidation(paid, caller)]) {
      const err = (await run().catch((e: unknown) => e)) as ApiError;
      expect([err.status, err.code, err.headers['Retry-After']]).toEqual([503, 'busy', String(BUSY_RETRY_S)]);
      expect(errorBody(err, 'https://dvs.example.net')).toEqual({
        error: err.message,
        code: 'busy',
        retry_after_s: BUSY_RETRY_S,
        docs: 'https://dvs.example.net/docs/api#error-codes',
      });
    }
  });

  it('checks the input before it looks at whether the instance takes work', async () => {
    const err = await refusal(refusing('unknown', false), { domain: 'https://good.test', payment_token: 'tok_x' });
    expect([err.status, err.code]).toEqual([400, 'invalid_domain']);
  });

  it('puts no code on a problem that has none, and no retry_after_s without a Retry-After', () => {
    expect(errorBody(new ApiError(400, 'unknown field "x"'), 'https://s.example')).toEqual({
      error: 'unknown field "x"',
    });
  });
});
