// json-logic-js, the reference semantics the compiled rules are checked against (a test oracle only: the engine
// compiles rules itself, src/engine/compile.ts), with the engine's own operations added to its one global table.
// Called through plain `unknown` signatures: its declared RulesLogic type is a large recursive generic union, and
// relating an argument to it cost the type check (tsc and the typed lint alike) more than half a second.
import jsonLogic from 'json-logic-js';
import { OPERATIONS } from '../../src/engine/operations.ts';

for (const [name, op] of Object.entries(OPERATIONS)) jsonLogic.add_operation(name, op);

export const applyReference = jsonLogic.apply as (logic: unknown, data?: unknown) => unknown;
export const truthy = jsonLogic.truthy as (value: unknown) => boolean;
