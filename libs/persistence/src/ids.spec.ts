import { derivedId, newId, randomBase62 } from './ids';

describe('ids', () => {
  it('have a prefix and a fixed-width base62 body', () => {
    for (let i = 0; i < 500; i++) expect(newId('ws')).toMatch(/^ws_[0-9A-Za-z]{22}$/);
    expect(randomBase62(32)).toHaveLength(43);
  });

  it('derive the same id from the same parts, and ids of the same shape', () => {
    const id = derivedId('dom', 'ws_1', 'key-1');
    expect(id).toMatch(/^dom_[0-9A-Za-z]{22}$/);
    expect(derivedId('dom', 'ws_1', 'key-1')).toBe(id);
    expect(derivedId('dom', 'ws_2', 'key-1')).not.toBe(id);
    // The separator keeps (a, "b\nc") and ("a\nb", c) apart only if keys cannot hold a newline: they cannot.
    expect(derivedId('dom', 'ws_1', 'key-2')).not.toBe(id);
  });
});
