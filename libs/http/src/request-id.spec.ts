import { newRequestId } from './request-id';

describe('newRequestId', () => {
  it('gives req_ and 24 hex characters, never the same twice across pool refills', () => {
    const ids = Array.from({ length: 2_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
