// The one HTML test: pages are recognised by how they open, Markdown and plain text never are, whatever inline
// markup they hold.
import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { bodyIsHtmlPage, isHtmlPage } from '../../../plugins/shared/sniff-html.ts';

describe('isHtmlPage', () => {
  it('recognises the ways a page opens', () => {
    for (const page of [
      '<!DOCTYPE html><html><body>app</body></html>',
      '\uFEFF  <!doctype HTML>\n<title>x</title>',
      '<html lang="en">',
      '<HEAD><title>x</title></HEAD>',
      '<body>',
      '<?xml version="1.0"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN">',
      '<!-- generated -->\n<!-- twice -->\n<html>',
      '<meta charset="utf-8"><title>Not found</title><body>',
      '<div>x</div><body>',
    ])
      expect(isHtmlPage(page), page).toBe(true);
  });

  it('leaves Markdown, robots.txt, JSON and text alone', () => {
    for (const text of [
      '# Title\n\nSome <em>inline</em> html.',
      '<!-- a comment -->\n# Project\n\n> Summary',
      '<p align="center"><img src="logo.svg"></p>\n\n# Project',
      'User-agent: *\nDisallow: /private',
      '{"name": "<html>"}',
      '<htmlish>',
      '',
    ])
      expect(isHtmlPage(text), text).toBe(false);
  });

  test.prop([fc.string().filter((s) => !s.trimStart().startsWith('<'))])(
    'text not opening with a tag is never a page',
    (s) => {
      expect(isHtmlPage(s)).toBe(false);
    },
  );

  test.prop([fc.constantFrom('<!doctype html>', '<html>', '<head>', '<body>'), fc.string()])(
    'a page-level tag after whitespace always is',
    (tag, rest) => {
      expect(isHtmlPage(`\n  ${tag}${rest}`)).toBe(true);
    },
  );

  it('reads bytes as UTF-8 from the start of the body', () => {
    expect(bodyIsHtmlPage(Buffer.from('\xef\xbb\xbf<!DOCTYPE html>', 'latin1'))).toBe(true);
    expect(bodyIsHtmlPage(Buffer.from([0x1f, 0x8b, 0x08, 0x00]))).toBe(false);
  });
});
