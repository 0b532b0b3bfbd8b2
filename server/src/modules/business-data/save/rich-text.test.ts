import { describe, expect, it } from 'vitest';
import { RICH_TEXT_MAX_LENGTH } from '@tessera/core/controls/rich-text';
import { dangerous, XSS_CORPUS } from '../../../../test/xss-corpus.ts';
import { sanitizeRichText } from './rich-text.ts';

// Rich text (1012) is hostile input: what the allowlist keeps, and that no XSS payload survives.

/** The corpus checker's findings, except span colours the allowlist keeps on purpose. */
function unsafe(html: string): string[] {
  const styles = [...html.matchAll(/\sstyle\s*=\s*"([^"]*)"/gi)].map((m) => m[1]!);
  const foreign = styles.filter((s) => !/^((color|background-color):(#[0-9a-f]{3,6}|rgb\(\s*\d{1,3}\s*,\s*\d{1,3}\s*,\s*\d{1,3}\s*\))|text-decoration:(underline|line-through));?$/i.test(s));
  return [...dangerous(html).filter((f) => f !== 'style attribute'), ...foreign.map((s) => `style ${s}`)];
}

describe('sanitizeRichText', () => {
  it.each([
    ['<p><strong>b</strong> <b>b</b> <em>i</em> <i>i</i> <u>u</u> <s>s</s></p>', '<p><strong>b</strong> <b>b</b> <em>i</em> <i>i</i> <u>u</u> <s>s</s></p>'],
    ['<h1>a</h1><h2>b</h2><h3>c</h3><h4>d</h4><h5>e</h5>', '<h1>a</h1><h2>b</h2><h3>c</h3><h4>d</h4>e'],
    ['<ul><li>x</li></ul><ol><li>y</li></ol><blockquote>q</blockquote><pre><code>c</code></pre>', '<ul><li>x</li></ul><ol><li>y</li></ol><blockquote>q</blockquote><pre><code>c</code></pre>'],
    ['<a href="https://e.com/?a=1&amp;b=2" title="t" onclick="x()">e</a>', '<a href="https://e.com/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer nofollow">e</a>'],
    ['<a href="mailto:a@b.c">m</a>', '<a href="mailto:a@b.c" target="_blank" rel="noopener noreferrer nofollow">m</a>'],
    ['<a href="javascript:alert(1)">j</a><a href="//evil.example">p</a><a href="data:text/html,x">d</a>', '<a target="_blank" rel="noopener noreferrer nofollow">j</a><a target="_blank" rel="noopener noreferrer nofollow">p</a><a target="_blank" rel="noopener noreferrer nofollow">d</a>'],
    ['<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td rowspan="1" class="x">d</td></tr></tbody></table>', '<table><thead><tr><th colspan="2">h</th></tr></thead><tbody><tr><td rowspan="1">d</td></tr></tbody></table>'],
    ['<span style="color:#f00;font-size:90px;position:fixed">c</span>', '<span style="color:#f00">c</span>'],
    ['<p style="color:red" class="x" id="y">p</p><div>d</div><br>', '<p>p</p>d<br />'],
    ['<p>a <script>alert(1)</script><style>*{}</style>b</p>', '<p>a b</p>'],
    ['plain & <text>', 'plain &amp; '],
  ])('%s → %s', (input, output) => {
    expect(sanitizeRichText(input)).toBe(output);
  });

  it('neutralises every XSS payload, one by one and all together', () => {
    for (const payload of XSS_CORPUS) expect(unsafe(sanitizeRichText(`<p>before</p>${payload}<p>after</p>`)), payload).toEqual([]);
    expect(unsafe(sanitizeRichText(XSS_CORPUS.join('')))).toEqual([]);
  });

  it('is stable: cleaning a clean value changes nothing', () => {
    for (const payload of XSS_CORPUS) {
      const once = sanitizeRichText(payload);
      expect(sanitizeRichText(once), payload).toBe(once);
    }
  });

  it('leaves a value past the limit to the validation step (which refuses it) without cleaning it', () => {
    const long = `<script>x</script>${'x'.repeat(RICH_TEXT_MAX_LENGTH)}`;
    expect(sanitizeRichText(long)).toBe(long);
  });
});
