import { describe, expect, it } from 'vitest';
import { dangerous, XSS_CORPUS } from '../../../test/xss-corpus.ts';
import { plainText, renderMarkdown, sanitizeHelpHtml } from './help-renderer.ts';

describe('help renderer', () => {
  it.each(XSS_CORPUS)('neutralises %s', (payload) => {
    const html = renderMarkdown(payload);
    expect(dangerous(html), html).toEqual([]);
    expect(dangerous(sanitizeHelpHtml(payload)), payload).toEqual([]);
  });

  it('the checker itself catches what it should', () => {
    expect(dangerous('<img src=x onerror=alert(1)>')).toContain('event handler');
    expect(dangerous('<a href="javascript:x">')).toContain('javascript url');
    expect(dangerous('<img src="data:image/svg+xml;base64,AA">')).toContain('data url other than raster image');
    expect(dangerous('<img src="data:image/png;base64,AA">')).toEqual([]);
  });

  it('keeps ordinary Markdown: headings, emphasis, lists, tables, code, links, images', () => {
    const html = renderMarkdown(
      [
        '# 入门',
        '',
        'Some **bold**, _italic_, ~~gone~~ and `code`.',
        '',
        '- [x] done',
        '- [ ] todo',
        '',
        '| a | b |',
        '|:--|--:|',
        '| 1 | 2 |',
        '',
        '```js',
        'const a = "<b>";',
        '```',
        '',
        '[users](#/builtIn/user) [site](https://example.com) [mail](mailto:help@example.com)',
        '',
        '![diagram](/api/app/help-documents/images/0190a0a0-0000-7000-8000-000000000001.png "A diagram")',
        '![inline](data:image/png;base64,iVBORw0KGgo=)',
      ].join('\n'),
    );
    expect(html).toContain('<h1>入门</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<em>italic</em>');
    expect(html).toContain('<del>gone</del>');
    expect(html).toContain('<input type="checkbox" disabled checked />');
    expect(html).toContain('<th align="left">a</th>');
    expect(html).toContain('<code class="language-js">const a = "&lt;b&gt;";');
    expect(html).toContain('<a href="#/builtIn/user">users</a>');
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">site</a>');
    expect(html).toContain('<a href="mailto:help@example.com">mail</a>');
    expect(html).toContain('src="/api/app/help-documents/images/0190a0a0-0000-7000-8000-000000000001.png"');
    expect(html).toContain('title="A diagram"');
    expect(html).toContain('src="data:image/png;base64,iVBORw0KGgo="');
  });

  it('shows the text of removed markup instead of running it', () => {
    expect(renderMarkdown('<div onclick="x()">visible text</div>')).toContain('visible text');
    expect(renderMarkdown('<script>hidden()</script>after')).toBe('after');
    expect(plainText(renderMarkdown('# Title\n\nBody with <b>bold</b> &amp; more'))).toBe('Title Body with bold & more');
  });
});
