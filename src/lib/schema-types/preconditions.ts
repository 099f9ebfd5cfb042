// Generated from schemas/preconditions.schema.json by `npm run types`; edit the schema, not this file.

/**
 * Named preconditions: rules/preconditions.yaml. A rule's `when` refers to one as {"precondition": name}. See docs/rule-authoring.md.
 */
export interface Preconditions {
  [k: string]:
    | {
        /**
         * What holds when the logic is true, in one line a reader understands without the logic.
         */
        meaning: string;
        /**
         * json-logic over observation paths; it may name a precondition declared above it in the file.
         */
        logic: {};
      }
    | undefined;
}
