import { attemptText } from './attempt-text';

describe('attemptText', () => {
  it.each<[number | null, string | null, number | null, string]>([
    [503, 'HTTP 503: maintenance', 12, 'HTTP 503: maintenance · 12 ms'],
    [200, null, 8, 'HTTP 200 · 8 ms'],
    [500, 'upstream exploded', 3, 'HTTP 500: upstream exploded · 3 ms'],
    [null, 'timeout after 10000 ms', 10000, 'timeout after 10000 ms · 10000 ms'],
    [null, 'endpoint disabled: not sent', null, 'endpoint disabled: not sent'],
    [null, null, null, ''],
  ])('%s %s %s', (code, error, ms, text) => {
    expect(attemptText(code, error, ms)).toBe(text);
  });
});
