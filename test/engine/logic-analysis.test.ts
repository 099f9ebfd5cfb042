import { describe, expect, it } from 'vitest';
import { analyseLogic } from '../../src/engine/logic-analysis.ts';
import { ObservationSchemas } from '../../src/catalogue/observation-schemas.ts';

/** One namespace, `ns`, built to exercise the path resolver's JSON Schema corners. */
const schemas = new ObservationSchemas(
  new Map([
    [
      'ns',
      {
        type: 'object',
        properties: {
          list: { type: 'array', items: { $ref: '#/$defs/item' } },
          tuple: {
            type: 'array',
            prefixItems: [{ type: 'string' }, { $ref: '#/$defs/item' }],
            items: false,
            minItems: 2,
          },
          extended: { $ref: '#/$defs/item', type: 'object', properties: { extra: { type: 'string' } } },
          conditional: {
            type: 'object',
            properties: { kind: { type: 'string' } },
            if: { properties: { kind: { const: 'a' } } },
            then: { properties: { only_a: { type: 'string' } } },
            else: { properties: { only_b: { type: 'string' } } },
          },
          tree: { $ref: '#/$defs/node' },
        },
        $defs: {
          item: { type: 'object', properties: { name: { type: 'string' }, size: { type: 'integer' } } },
          node: {
            type: ['object', 'null'],
            properties: { value: { type: 'integer' }, child: { $ref: '#/$defs/node' } },
          },
        },
      },
    ],
  ]),
);

const analyse = (logic: unknown) => analyseLogic(logic, schemas);

describe('analyseLogic', () => {
  it('reads the vars inside a var default as paths of the document', () => {
    const a = analyse({ var: ['ns.list', { var: 'ns.tuple' }] });
    expect(a.rootPaths).toEqual(['ns.list', 'ns.tuple']);
    expect(analyse({ var: ['ns.list', { var: 'ns.nowhere' }] }).undefinedPaths).toEqual(['ns.nowhere']);
    expect(analyse({ var: ['ns.list', { nope: [] }] }).unknownOperations).toEqual(['nope']);
  });

  it('scopes reduce: accumulator and current.* anywhere in its body', () => {
    const sum = { reduce: [{ var: 'ns.list' }, { '+': [{ var: 'accumulator' }, { var: 'current.size' }] }, 0] };
    expect(analyse(sum)).toEqual({
      unknownOperations: [],
      rootPaths: ['ns.list'],
      undefinedPaths: [],
      reads: [
        { path: 'ns.list', deep: false },
        { path: 'ns.list[].size', deep: true },
      ],
    });
    const wrong = { reduce: [{ var: 'ns.list' }, { '+': [{ var: 'accumulator' }, { var: 'current.weight' }] }, 0] };
    expect(analyse(wrong).undefinedPaths).toEqual(['ns.list[].weight']);
    const bare = { reduce: [{ var: 'ns.list' }, { '+': [{ var: 'accumulator' }, { var: 'size' }] }, 0] };
    expect(analyse(bare).undefinedPaths).toEqual(['reduce var "size" (use current.* or accumulator)']);
  });

  it('lists what it reads: a list feeding some/filter shallowly, its items through the inner logic', () => {
    const cookies = {
      all: [{ filter: [{ var: 'ns.list' }, { '==': [{ var: 'size' }, 1] }] }, { some: [{ var: 'tags' }, { var: '' }] }],
    };
    expect(analyseLogic(cookies).reads).toEqual([
      { path: 'ns.list', deep: false },
      { path: 'ns.list[].size', deep: true },
      { path: 'ns.list[].tags', deep: false },
      { path: 'ns.list[].tags[]', deep: true },
    ]);
    expect(analyseLogic({ '>=': [{ length: { var: 'ns.list' } }, 1] }).reads).toEqual([
      { path: 'ns.list', deep: true },
    ]);
  });

  it('reads the paths that missing and missing_some name', () => {
    expect(analyse({ missing: ['ns.list', 'ns.nowhere'] })).toMatchObject({
      rootPaths: ['ns.list', 'ns.nowhere'],
      undefinedPaths: ['ns.nowhere'],
    });
    expect(analyse({ missing_some: [1, ['ns.tuple', 'ns.tree']] }).rootPaths).toEqual(['ns.tuple', 'ns.tree']);
    expect(analyse({ some: [{ var: 'ns.list' }, { missing: ['name', 'weight'] }] }).undefinedPaths).toEqual([
      'ns.list[].weight',
    ]);
  });

  it('keeps the properties beside a $ref', () => {
    expect(analyse({ var: 'ns.extended.extra' }).undefinedPaths).toEqual([]);
    expect(analyse({ var: 'ns.extended.name' }).undefinedPaths).toEqual([]);
  });

  it('resolves properties declared in then and else', () => {
    expect(
      analyse({ and: [{ var: 'ns.conditional.only_a' }, { var: 'ns.conditional.only_b' }] }).undefinedPaths,
    ).toEqual([]);
  });

  it('resolves tuple items by position, and list operations over every position', () => {
    expect(analyse({ var: 'ns.tuple.1.name' }).undefinedPaths).toEqual([]);
    expect(analyse({ var: 'ns.tuple.0.name' }).undefinedPaths).toEqual(['ns.tuple.0.name']);
    expect(analyse({ var: 'ns.tuple.2' }).undefinedPaths).toEqual(['ns.tuple.2']);
    expect(analyse({ some: [{ var: 'ns.tuple' }, { '==': [{ var: 'name' }, 'x'] }] }).undefinedPaths).toEqual([]);
  });

  it('follows recursive $refs and nullable type lists', () => {
    expect(analyse({ var: 'ns.tree.child.child.value' }).undefinedPaths).toEqual([]);
    expect(analyse({ var: 'ns.tree.child.missing' }).undefinedPaths).toEqual(['ns.tree.child.missing']);
  });
});
