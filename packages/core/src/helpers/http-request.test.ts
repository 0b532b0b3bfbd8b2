import { describe, expect, it } from 'vitest';
import { fillJsonBody, fillPath, fillText, httpParameterNames, isNullAlone } from './http-request.ts';
import { parseJsonPath, selectJsonRows } from './json-path.ts';

describe('HTTP request templates', () => {
  it('names the parameters in order of first use: {{name}} anywhere, :name starting a path segment', () => {
    expect(
      httpParameterNames({
        path: '/customers/:id/orders/{{ year }}/items:search',
        query: [{ name: 'q', value: '{{q}}' }, { name: 'again', value: '{{id}}-{{page}}' }],
        headers: [{ name: 'X-Tenant', value: '{{tenant}}' }],
        body: '{"who": "{{who}}", "n": {{n}}}',
      }),
    ).toEqual(['id', 'year', 'q', 'page', 'tenant', 'who', 'n']);
  });

  it('URL-encodes path values, so none adds a segment, a query or a host', () => {
    expect(fillPath('/c/:id/{{x}}', { id: 'a/b?c#d', x: '../../evil.com' })).toBe('/c/a%2Fb%3Fc%23d/..%2F..%2Fevil.com');
    expect(fillPath('/c/:id', { id: 12 })).toBe('/c/12');
    expect(fillPath('/c/:id', { id: null })).toBe('/c/');
    expect(fillPath('/v1/items:search', {})).toBe('/v1/items:search');
  });

  it('fills query and header texts; a query value that is a null parameter alone is left out', () => {
    expect(fillText('Bearer {{t}} ({{n}})', { t: 'x y', n: 3 })).toBe('Bearer x y (3)');
    expect(isNullAlone(' {{q}} ', { q: null })).toBe(true);
    expect(isNullAlone('{{q}}', { q: '' })).toBe(false);
    expect(isNullAlone('x{{q}}', { q: null })).toBe(false);
  });

  it('puts values into a JSON body as JSON values, never as JSON syntax', () => {
    expect(fillJsonBody('{"n": {{n}}, "flag": {{f}}, "who": {{who}}, "none": {{gone}}}', { n: 5, f: true, who: 'x", "admin": true, "y": "' })).toEqual({
      n: 5,
      flag: true,
      who: 'x", "admin": true, "y": "',
      none: null,
    });
    expect(fillJsonBody('{"greeting": "Hi {{who}}!", "path": "a\\\\{{n}}"}', { who: '"Bob"\n', n: 1 })).toEqual({ greeting: 'Hi "Bob"\n!', path: 'a\\1' });
    expect(fillJsonBody('[{{a}}, "{{a}}"]', { a: 7 })).toEqual([7, '7']);
    expect(fillJsonBody('  ', {})).toBeNull();
    expect(() => fillJsonBody('{"a": {{a}}', { a: 1 })).toThrow(SyntaxError);
  });
});

describe('JSON path rows', () => {
  const answer = { data: { items: [{ id: 1 }, { id: 2 }], total: 2, 'odd key': [{ x: 1 }] }, pages: [{ rows: [{ a: 1 }] }, { rows: [{ a: 2 }, { a: 3 }] }] };
  it.each([
    ['', [answer]],
    ['$', [answer]],
    ['data.items', [{ id: 1 }, { id: 2 }]],
    ['$.data.items', [{ id: 1 }, { id: 2 }]],
    ['$.data.items[*]', [{ id: 1 }, { id: 2 }]],
    ['data.items[-1]', [{ id: 2 }]],
    ['data.total', [2]],
    ["$.data['odd key']", [{ x: 1 }]],
    ['$["data"].items[0].id', [1]],
    ['pages[*].rows[*]', [{ a: 1 }, { a: 2 }, { a: 3 }]],
    ['pages[*].rows', [[{ a: 1 }], [{ a: 2 }, { a: 3 }]]],
    ['data.*', [[{ id: 1 }, { id: 2 }], 2, [{ x: 1 }]]],
    ['data.missing', []],
    ['data.items.__proto__', []],
    ['constructor', []],
  ])('%s', (path, rows) => {
    const segments = parseJsonPath(path);
    expect(segments).not.toBeNull();
    expect(selectJsonRows(answer, segments!)).toEqual(rows);
  });

  it.each(['$..items', 'data[?(@.id > 1)]', 'data.items[', 'data items', '$data', 'a.', "['x]"])('refuses %s', (path) => {
    expect(parseJsonPath(path)).toBeNull();
  });
});
