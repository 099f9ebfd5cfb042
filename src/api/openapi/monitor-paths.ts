// The monitor API in /openapi.json: a domain Full-Validated on a schedule for an account, paid by prepaid tokens.
import { BODY_LIMIT } from '../http/json-body.ts';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT } from '../operations/monitor-operations.ts';
import { accountErrors, errorResponse, jsonResponse, requestBody, type Json } from './openapi-responses.ts';

const monitorId = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The monitor id, e.g. mon_…',
  schema: { type: 'string', maxLength: 64 },
};

const noSuchMonitor = () => errorResponse('Error code not_found: this account has no monitor with this id.');

const bodyErrors = (what: string) => ({
  '400': errorResponse(what),
  '413': errorResponse(`The request body is larger than ${BODY_LIMIT}.`),
  '415': errorResponse('The body is not sent as application/json.'),
});

const tokenRefused = () =>
  errorResponse(
    'A payment token cannot be held (error says which, payment_tokens[i]): code payment_required (unknown, or of the other mode), token_used (spent, or in use by a validation or another monitor) or token_expired. Nothing was held or changed.',
  );

export function monitorPaths(trustProxy: boolean): Json {
  return { ...monitorCollectionPaths(trustProxy), ...monitorItemPaths(trustProxy) };
}

function monitorCollectionPaths(trustProxy: boolean): Json {
  return {
    '/api/monitors': {
      post: {
        operationId: 'createMonitor',
        tags: ['monitors'],
        summary: 'Full-Validate a domain on a schedule, paid by prepaid tokens',
        description:
          "Every token is held for the monitor at once (in the ledger, under the monitor's id) and spent by one run that issues a certificate. Runs are due at the interval, spread over it by the monitor's id; a run that cannot judge the domain (INCOMPLETE, past its deadline, not resolving) is tried again with backoff, then counts without a certificate and spends nothing. Each issuing run supersedes the previous certificate; one worse than it revokes it with reason regression. Events go to the account's webhooks.",
        security: [{ apiKey: [] }],
        requestBody: requestBody('MonitorRequest'),
        responses: {
          '201': jsonResponse('Created: the monitor and its first due run.', 'Monitor', {
            Location: { description: 'The monitor: /api/monitors/{id}.', schema: { type: 'string' } },
          }),
          ...bodyErrors(
            'The body is not a monitor request, the domain is invalid, the interval is not an ISO 8601 duration in weeks, days, hours, minutes or seconds, or it is shorter than the minimum (P1D), or a token is listed twice.',
          ),
          '402': tokenRefused(),
          '403': errorResponse(
            'Error code monitor_limit: the account has as many monitors as its limit (dvs accounts create --max-monitors; paused ones count). Nothing was held or made; waiting does not lift it, deleting a monitor does.',
          ),
          ...accountErrors(trustProxy),
        },
      },
      get: {
        operationId: 'listMonitors',
        tags: ['monitors'],
        summary: "A page of the account's monitors",
        description:
          'Each with its schedule, credits, current certificate and last run, oldest first (creation time, then id). Pages are read by cursor: give next as after for the next page. A page starts where the last one ended, so paging while monitors are made or deleted lists none twice and skips none that existed throughout.',
        security: [{ apiKey: [] }],
        parameters: [
          {
            name: 'limit',
            in: 'query',
            description: `Monitors per page (default ${LIST_DEFAULT_LIMIT}).`,
            schema: { type: 'integer', minimum: 1, maximum: LIST_MAX_LIMIT },
          },
          {
            name: 'after',
            in: 'query',
            description: 'The next cursor of the previous page.',
            schema: { type: 'string', maxLength: 64 },
          },
        ],
        responses: {
          '200': jsonResponse('A page of the monitors, oldest first.', 'MonitorList'),
          '400': errorResponse(`limit is not 1 to ${LIST_MAX_LIMIT}, or after is not a cursor of this list.`),
          ...accountErrors(trustProxy),
        },
      },
    },
  };
}

function monitorItemPaths(trustProxy: boolean): Json {
  return {
    '/api/monitors/{id}': {
      get: {
        operationId: 'monitor',
        tags: ['monitors'],
        summary: 'One monitor: its schedule, credits, current certificate and last run',
        description:
          'next_run_at is null while the monitor is paused (paused_reason says why); credits counts the held tokens not yet spent.',
        security: [{ apiKey: [] }],
        parameters: [monitorId],
        responses: {
          '200': jsonResponse('The monitor.', 'Monitor'),
          '404': noSuchMonitor(),
          ...accountErrors(trustProxy),
        },
      },
      patch: {
        operationId: 'updateMonitor',
        tags: ['monitors'],
        summary: 'Change the interval, pause or resume',
        description: 'A change reschedules the next run: a run already going finishes, and the new schedule stands.',
        security: [{ apiKey: [] }],
        parameters: [monitorId],
        requestBody: requestBody('MonitorUpdate'),
        responses: {
          '200': jsonResponse('The monitor as changed.', 'Monitor'),
          ...bodyErrors('The body is not a monitor update (nothing to change, an unknown field, a bad interval).'),
          '404': noSuchMonitor(),
          '409': errorResponse('Error code conflict: resuming a monitor that has no token left (add tokens instead).'),
          ...accountErrors(trustProxy),
        },
      },
      delete: {
        operationId: 'deleteMonitor',
        tags: ['monitors'],
        summary: 'Delete a monitor: its unspent tokens are given back, spendable again',
        description:
          'No run starts after this, and a run going at that moment issues nothing once its token is given back. The certificates the monitor issued stay as they are.',
        security: [{ apiKey: [] }],
        parameters: [monitorId],
        responses: { '204': { description: 'Deleted.' }, '404': noSuchMonitor(), ...accountErrors(trustProxy) },
      },
    },
    '/api/monitors/{id}/tokens': {
      post: {
        operationId: 'addMonitorTokens',
        tags: ['monitors'],
        summary: 'Add prepaid runs; a monitor paused for want of tokens resumes',
        description:
          'Each token is held for the monitor at once; a token it holds already is not counted twice. All are held, or none.',
        security: [{ apiKey: [] }],
        parameters: [monitorId],
        requestBody: requestBody('MonitorTokens'),
        responses: {
          '200': jsonResponse('The monitor with its new credits.', 'Monitor'),
          ...bodyErrors('The body is not a token list, or a token is listed twice.'),
          '402': tokenRefused(),
          '404': noSuchMonitor(),
          ...accountErrors(trustProxy),
        },
      },
    },
  };
}
