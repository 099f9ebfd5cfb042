// Bundling schema files into components: refs inside a file, to another file and into another file's $defs all
// land on a component; data that merely looks like a ref is left alone; a ref to nothing fails at once.
import { describe, expect, it } from 'vitest';
import { componentSchemas, standaloneSchema } from '../../src/api/openapi/openapi-components.ts';

const thing = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://s.example/dir/thing.json',
  type: 'object',
  properties: {
    part: { $ref: '#/$defs/part' },
    other: { $ref: '../other.json' },
    deep: { $ref: '../other.json#/$defs/leaf' },
    self: { $ref: '#' },
    literal: { const: { $ref: 'not-a-ref' } },
  },
  $defs: { part: { type: 'string' } },
};
const other = { $id: 'https://s.example/other.json', type: 'integer', $defs: { leaf: { type: 'null' } } };
const sources = [
  { name: 'Thing', schema: thing },
  { name: 'Other', schema: other },
];

describe('componentSchemas', () => {
  it('lifts $defs into components and points every ref at one', () => {
    const out = componentSchemas(sources);
    expect(Object.keys(out).sort()).toEqual(['Other', 'OtherLeaf', 'Thing', 'ThingPart']);
    expect(out.Thing!.properties).toEqual({
      part: { $ref: '#/components/schemas/ThingPart' },
      other: { $ref: '#/components/schemas/Other' },
      deep: { $ref: '#/components/schemas/OtherLeaf' },
      self: { $ref: '#/components/schemas/Thing' },
      literal: { const: { $ref: 'not-a-ref' } },
    });
    expect(out.Thing).not.toHaveProperty('$schema');
    expect(out.Thing).not.toHaveProperty('$id');
    expect(out.Thing).not.toHaveProperty('$defs');
  });

  it('refuses a ref that names no schema file or $defs entry', () => {
    const broken = { name: 'Broken', schema: { $id: 'https://s.example/b.json', $ref: 'missing.json' } };
    expect(() => componentSchemas([broken])).toThrow(/\$ref missing\.json names no schema file/);
    const badDef = { name: 'Broken', schema: { $id: 'https://s.example/b.json', $ref: '#/$defs/nothing' } };
    expect(() => componentSchemas([badDef])).toThrow(/names no schema file or \$defs entry/);
  });
});

describe('standaloneSchema', () => {
  it('carries exactly what a schema refers to in its own $defs', () => {
    const out = standaloneSchema('Thing', sources);
    expect(Object.keys(out.$defs as object)).toEqual(['Other', 'OtherLeaf', 'Thing', 'ThingPart']);
    expect((out.properties as Record<string, unknown>).deep).toEqual({ $ref: '#/$defs/OtherLeaf' });
    expect(standaloneSchema('Other', sources)).toEqual({ type: 'integer' });
  });
});
