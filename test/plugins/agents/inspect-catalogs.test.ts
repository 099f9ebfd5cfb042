import { describe, it, expect } from 'vitest';
import { inspectEntryCatalog, inspectLinkset } from '../../../plugins/agents/inspect-catalogs.ts';

describe('inspectLinkset', () => {
  it('counts contexts and relations of an RFC 9727 catalog', () => {
    expect(
      inspectLinkset({
        linkset: [
          {
            anchor: 'https://example.com/api/v1',
            'service-desc': [{ href: 'https://example.com/openapi.json', type: 'application/json' }],
            'service-doc': [{ href: 'https://example.com/docs' }],
          },
          { anchor: '/relative', item: [{ href: 'https://example.com/api/v2' }, { title: 'no href' }] },
        ],
      }),
    ).toEqual({
      linkset_present: true,
      contexts_count: 2,
      contexts_without_resolvable_anchor_count: 1,
      contexts_without_absolute_anchor_count: 1,
      relations: ['item', 'service-desc', 'service-doc'],
      links_without_href_count: 1,
      service_desc_count: 1,
      service_doc_count: 1,
      item_count: 2,
    });
  });

  it('places a relative anchor against the catalog URL, and not a missing one (RFC 9264 sections 4.2.2 and 6)', () => {
    const catalog = {
      linkset: [
        { anchor: '/api/v1', 'service-desc': [{ href: '/openapi.json' }] },
        { anchor: 'https://example.com/api/v2', item: [{ href: 'https://example.com/api/v2' }] },
        { 'service-doc': [{ href: 'https://example.com/docs' }] },
        'not a context',
      ],
    };
    expect(inspectLinkset(catalog, 'https://example.com/.well-known/api-catalog')).toMatchObject({
      contexts_count: 4,
      contexts_without_resolvable_anchor_count: 2,
      contexts_without_absolute_anchor_count: 3,
    });
    // Without the catalog's URL a relative anchor cannot be placed.
    expect(inspectLinkset(catalog)).toMatchObject({ contexts_without_resolvable_anchor_count: 3 });
  });

  it('answers absent facts for a document without a linkset', () => {
    expect(inspectLinkset({ links: [] })).toMatchObject({
      linkset_present: false,
      contexts_count: null,
      relations: [],
    });
  });
});

describe('inspectEntryCatalog', () => {
  it('counts complete and incomplete entries', () => {
    expect(
      inspectEntryCatalog({
        specVersion: '0.9',
        entries: [
          {
            identifier: 'urn:air:example.com:weather',
            displayName: 'Weather',
            type: 'application/mcp-server-card+json',
            url: 'https://example.com/card.json',
          },
          {
            identifier: 'urn:air:example.com:inline',
            displayName: 'Inline',
            type: 'application/a2a-agent-card+json',
            data: {},
          },
          { displayName: 'No id', type: 'application/mcp-server-card+json', url: 'https://example.com/x' },
        ],
      }),
    ).toEqual({
      spec_version: '0.9',
      entries_count: 3,
      entries_incomplete_count: 1,
      entry_types: ['application/a2a-agent-card+json', 'application/mcp-server-card+json'],
    });
  });
});
