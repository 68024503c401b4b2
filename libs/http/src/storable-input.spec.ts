import { MAX_JSON_DEPTH, findUnstorable } from './storable-input';

const nested = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('findUnstorable', () => {
  it.each<[string, unknown, string, RegExp]>([
    ['NUL in a top-level string', { customerReference: 'a\u0000b' }, 'customerReference', /NUL character \(U\+0000\)/],
    ['NUL in a nested string', { registrant: { city: '\u0000' } }, 'registrant.city', /NUL/],
    ['NUL in an array item', { records: [{ value: 'ok' }, { value: 'x\u0000' }] }, 'records.1.value', /NUL/],
    ['NUL in a metadata key', { metadata: { 'k\u0000': 'v' } }, 'metadata', /a key of metadata contains a NUL/],
    [
      'a lone high surrogate',
      { registrant: { firstName: 'A\ud800' } },
      'registrant.firstName',
      /lone UTF-16 surrogate \(U\+D800\)/,
    ],
    ['a lone low surrogate', { metadata: { note: '\udc00' } }, 'metadata.note', /U\+DC00/],
    ['a zero-width space in originUrl', { originUrl: 'https://a.example\u200b' }, 'originUrl', /invisible.*U\+200B/],
    [
      'a right-to-left mark in an e-mail',
      { registrant: { email: 'a\u200f@b.example' } },
      'registrant.email',
      /U\+200F/,
    ],
    ['a bidi override in a hostname', { hostname: '\u202eexample.com' }, 'hostname', /U\+202E/],
    [
      'an isolate in autoConnect.originUrl',
      { autoConnect: { originUrl: 'https://a\u2066.example' } },
      'autoConnect.originUrl',
      /U\+2066/,
    ],
    ['a BOM inside a URL', { url: 'https://a.example/\ufeff' }, 'url', /U\+FEFF/],
    ['a tab in a nameserver', { nameservers: ['ns1.example', 'ns2\t.example'] }, 'nameservers.1', /U\+0009/],
  ])('refuses %s, naming the field', (_, body, field, problem) => {
    const found = findUnstorable(body);
    expect(found?.field).toBe(field);
    expect(found?.problem).toMatch(problem);
    expect(found?.problem.startsWith(field) || found?.problem.includes(`of ${field}`)).toBe(true);
  });

  it('keeps what the database stores: emoji (paired surrogates), RTL text and marks outside addresses', () => {
    const body = {
      hostname: 'shop.example.com',
      registrant: { firstName: 'שלום', lastName: 'Ünïcødé 🎉' },
      metadata: { url: 'https://x.example\u200b', note: 'a\u200fb', nested: { email: '\u202e' } },
      customerReference: 'ref \u200b with a zero-width space',
    };
    expect(findUnstorable(body)).toBeUndefined();
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels, naming the top-level field, without recursing`, () => {
    expect(findUnstorable(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(findUnstorable(nested(MAX_JSON_DEPTH + 1))).toEqual({
      field: 'a',
      problem: `a is nested more than ${MAX_JSON_DEPTH} levels deep`,
    });
    // 200,000 levels: a recursive walk would overflow the stack.
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findUnstorable({ metadata: deep })?.field).toBe('metadata');
    expect(findUnstorable(deep)?.field).toBe('body');
  });

  it('lets a form list addresses one per line (a textarea), and nothing else invisible', () => {
    const nameservers = 'ns1.example.net\r\nns2.example.net\n';
    expect(findUnstorable({ nameservers }, '', 'form')).toBeUndefined();
    expect(findUnstorable({ nameservers })?.field).toBe('nameservers');
    expect(findUnstorable({ nameservers: 'ns1.example.net\u200b' }, '', 'form')?.problem).toMatch(/U\+200B/);
    expect(findUnstorable({ email: 'a@b.example\u0007' }, '', 'form')?.problem).toMatch(/U\+0007/);
    expect(findUnstorable({ q: 'x\u0000' }, '', 'form')?.problem).toMatch(/NUL/);
  });

  it('checks one parameter by its name', () => {
    expect(findUnstorable('dom_\u0000', 'id')).toEqual({
      field: 'id',
      problem: 'id contains a NUL character (U+0000), which cannot be stored',
    });
    expect(findUnstorable({ q: 'x\u0000' })?.field).toBe('q');
    expect(findUnstorable('a.example\u200b', 'hostname')?.field).toBe('hostname');
    expect(findUnstorable('a.example\u200b', 'q')).toBeUndefined();
    expect(findUnstorable({ status: ['pending', 'x\u0000'] })?.field).toBe('status.1');
  });
});
