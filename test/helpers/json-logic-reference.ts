// json-logic-js, the reference semantics the compiled rules are checked against, called through plain `unknown`
// signatures: its declared RulesLogic type is a large recursive generic union, and relating an argument to it
// cost the type check (tsc and the typed lint alike) more than half a second.
import jsonLogic from 'json-logic-js';

export const applyReference = jsonLogic.apply as (logic: unknown, data?: unknown) => unknown;
export const truthy = jsonLogic.truthy as (value: unknown) => boolean;
