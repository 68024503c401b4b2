import { DomainViewCache } from './domain-view.cache';
import { DomainView } from '../model/domain.view';

const view = (id: string, hostname: string, metadata: Record<string, unknown> = {}) =>
  ({ id, hostname, metadata }) as unknown as DomainView;

describe('DomainViewCache', () => {
  let now = 0;
  const clock = { now: () => now };
  const cacheOf = (maxEntries: number, ttlMs: number) => new DomainViewCache(maxEntries, ttlMs, clock);
  beforeEach(() => (now = 0));

  it('answers only the workspace the view was stored for', () => {
    const cache = cacheOf(10, 30_000);
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), cache.readStarted());
    now = 1;
    expect(cache.get('ws_a', 'dom_1')?.hostname).toBe('a.example.com');
    expect(cache.get('ws_b', 'dom_1')).toBeUndefined();
  });

  it('does not store a read that an invalidation of its hostname overtook', () => {
    const cache = cacheOf(10, 30_000);
    const started = cache.readStarted();
    cache.invalidateHostname('a.example.com'); // the write committed while the read was in flight
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), started);
    expect(cache.get('ws_a', 'dom_1')).toBeUndefined();
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), cache.readStarted());
    expect(cache.get('ws_a', 'dom_1')).toBeDefined();
  });

  it('drops an entry on invalidation, on expiry and when cleared', () => {
    const cache = cacheOf(10, 1_000);
    cache.putWritten('ws_a', view('dom_1', 'a.example.com'));
    cache.invalidateHostname('a.example.com');
    expect(cache.get('ws_a', 'dom_1')).toBeUndefined();
    cache.putWritten('ws_a', view('dom_1', 'a.example.com'));
    now = 999;
    expect(cache.get('ws_a', 'dom_1')).toBeDefined();
    now = 1_000;
    expect(cache.get('ws_a', 'dom_1')).toBeUndefined();
    const started = cache.readStarted();
    cache.clear();
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), started);
    expect(cache.size).toBe(0);
  });

  it('keeps the newest written answer and stays within its bound, least recently used out first', () => {
    const cache = cacheOf(2, 30_000);
    cache.putWritten('ws_a', view('dom_1', 'a.example.com', { n: 1 }));
    cache.putWritten('ws_a', view('dom_1', 'a.example.com', { n: 2 }));
    now = 1;
    expect(cache.get('ws_a', 'dom_1')?.metadata).toEqual({ n: 2 });
    now = 0;
    cache.putWritten('ws_a', view('dom_2', 'b.example.com'));
    now = 1;
    cache.get('ws_a', 'dom_1'); // dom_1 now the most recently used
    now = 0;
    cache.putWritten('ws_a', view('dom_3', 'c.example.com'));
    expect(cache.size).toBe(2);
    now = 2;
    expect(cache.get('ws_a', 'dom_2')).toBeUndefined();
    expect(cache.get('ws_a', 'dom_1')).toBeDefined();
    cache.forget('ws_a', 'dom_1', 'a.example.com');
    expect(cache.get('ws_a', 'dom_1')).toBeUndefined();
  });

  it('an evicted view no longer answers for its hostname: invalidating it later drops nothing else', () => {
    const cache = cacheOf(1, 30_000);
    cache.putWritten('ws_a', view('dom_1', 'a.example.com'));
    cache.putWritten('ws_a', view('dom_2', 'b.example.com')); // evicts dom_1
    cache.invalidateHostname('a.example.com');
    expect(cache.get('ws_a', 'dom_2')?.hostname).toBe('b.example.com');
    expect(cache.size).toBe(1);
  });

  it('a hostname moved to another domain id leaves only the newest view', () => {
    const cache = cacheOf(10, 30_000);
    cache.putWritten('ws_a', view('dom_1', 'a.example.com'));
    cache.putWritten('ws_b', view('dom_9', 'a.example.com'));
    expect(cache.get('ws_a', 'dom_1')).toBeUndefined();
    expect(cache.get('ws_b', 'dom_9')).toBeDefined();
    cache.invalidateHostname('a.example.com');
    expect(cache.size).toBe(0);
  });
});
