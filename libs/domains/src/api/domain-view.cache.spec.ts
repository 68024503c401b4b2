import { DomainViewCache } from './domain-view.cache';
import { DomainView } from '../model/domain.view';

const view = (id: string, hostname: string, metadata: Record<string, unknown> = {}) =>
  ({ id, hostname, metadata }) as unknown as DomainView;

describe('DomainViewCache', () => {
  it('answers only the workspace the view was stored for', () => {
    const cache = new DomainViewCache(10, 30_000);
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), cache.readStarted(), 0);
    expect(cache.get('ws_a', 'dom_1', 1)?.hostname).toBe('a.example.com');
    expect(cache.get('ws_b', 'dom_1', 1)).toBeUndefined();
  });

  it('does not store a read that an invalidation of its hostname overtook', () => {
    const cache = new DomainViewCache(10, 30_000);
    const started = cache.readStarted();
    cache.invalidateHostname('a.example.com'); // the write committed while the read was in flight
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), started, 0);
    expect(cache.get('ws_a', 'dom_1', 1)).toBeUndefined();
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), cache.readStarted(), 0);
    expect(cache.get('ws_a', 'dom_1', 1)).toBeDefined();
  });

  it('drops an entry on invalidation, on expiry and when cleared', () => {
    const cache = new DomainViewCache(10, 1_000);
    cache.putWritten('ws_a', view('dom_1', 'a.example.com'), 0);
    cache.invalidateHostname('a.example.com');
    expect(cache.get('ws_a', 'dom_1', 1)).toBeUndefined();
    cache.putWritten('ws_a', view('dom_1', 'a.example.com'), 0);
    expect(cache.get('ws_a', 'dom_1', 999)).toBeDefined();
    expect(cache.get('ws_a', 'dom_1', 1_000)).toBeUndefined();
    const started = cache.readStarted();
    cache.clear();
    cache.putRead('ws_a', view('dom_1', 'a.example.com'), started, 0);
    expect(cache.size).toBe(0);
  });

  it('keeps the newest written answer and stays within its bound, least recently used out first', () => {
    const cache = new DomainViewCache(2, 30_000);
    cache.putWritten('ws_a', view('dom_1', 'a.example.com', { n: 1 }), 0);
    cache.putWritten('ws_a', view('dom_1', 'a.example.com', { n: 2 }), 0);
    expect(cache.get('ws_a', 'dom_1', 1)?.metadata).toEqual({ n: 2 });
    cache.putWritten('ws_a', view('dom_2', 'b.example.com'), 0);
    cache.get('ws_a', 'dom_1', 1); // dom_1 now the most recently used
    cache.putWritten('ws_a', view('dom_3', 'c.example.com'), 0);
    expect(cache.size).toBe(2);
    expect(cache.get('ws_a', 'dom_2', 2)).toBeUndefined();
    expect(cache.get('ws_a', 'dom_1', 2)).toBeDefined();
    cache.forget('ws_a', 'dom_1', 'a.example.com');
    expect(cache.get('ws_a', 'dom_1', 2)).toBeUndefined();
  });
});
