import { newId, randomBase62 } from './ids';

describe('ids', () => {
  it('have a prefix and a fixed-width base62 body', () => {
    for (let i = 0; i < 500; i++) expect(newId('ws')).toMatch(/^ws_[0-9A-Za-z]{22}$/);
    expect(randomBase62(32)).toHaveLength(43);
  });
});
