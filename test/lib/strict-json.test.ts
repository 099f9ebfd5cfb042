import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseStrictJson, StrictJsonError } from '../../src/lib/strict-json.ts';

describe('parseStrictJson', () => {
  it("reads RFC 8259 section 13's examples as JSON.parse does", () => {
    const image = `{
      "Image": {
          "Width":  800,
          "Height": 600,
          "Title":  "View from 15th Floor",
          "Thumbnail": {
              "Url":    "http://www.example.com/image/481989943",
              "Height": 125,
              "Width":  100
          },
          "Animated" : false,
          "IDs": [116, 943, 234, 38793]
        }
    }`;
    const places = `[
      {
         "precision": "zip",
         "Latitude":  37.7668,
         "Longitude": -122.3959,
         "Address":   "",
         "City":      "SAN FRANCISCO",
         "State":     "CA",
         "Zip":       "94107",
         "Country":   "US"
      }
    ]`;
    for (const text of [image, places, '"Hello world!"', '42', 'true'])
      expect(parseStrictJson(text)).toEqual(JSON.parse(text));
  });

  it('reads any JSON value JSON.stringify writes, to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseStrictJson(text)).toEqual(JSON.parse(text));
      }),
    );
  });

  it('refuses any object that names a member twice, at any depth, however the name is escaped', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }), fc.nat(), (object, pick) => {
        const names = Object.keys(object);
        const name = names[pick % names.length]!;
        const text = `{${JSON.stringify(name)}:null,${JSON.stringify(object).slice(1)}`;
        expect(() => parseStrictJson(text)).toThrow(`duplicate member name ${JSON.stringify(name)}`);
        expect(() => parseStrictJson(`[{"deep":${text}}]`)).toThrow(StrictJsonError);
      }),
    );
    expect(() => parseStrictJson('{"a":1,"\\u0061":2}')).toThrow('duplicate member name "a" at line 1, column 8');
  });

  it('refuses text that is not JSON, saying so', () => {
    for (const text of ['{"a":1,}', '[1] x', "{'a':1}", '{a:1}', '', 'NaN', '01']) {
      let error: unknown;
      try {
        parseStrictJson(text);
      } catch (err) {
        error = err;
      }
      expect(error, text).toBeInstanceOf(StrictJsonError);
      expect((error as StrictJsonError).kind, text).toBe('syntax');
    }
  });
});
