import { BoundedCache } from './bounded-cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** `getOrLoad` with a constant value and time to live. */
const put = <V>(cache: BoundedCache<V>, key: string, value: V, ttl = 1_000) =>
  cache.getOrLoad(
    key,
    async () => value,
    () => ttl,
  );

describe('BoundedCache', () => {
  let now = 0;
  const clock = { now: () => now };
  const cacheOf = <V>(maxEntries: number, staleMs = 0, ttlMs?: number) =>
    new BoundedCache<V>({ maxEntries, staleMs, ttlMs, clock });
  beforeEach(() => (now = 1_000));

  it('keeps a value for its time to live, per value', async () => {
    const cache = cacheOf<string | null>(10, 0);
    const load = jest.fn(async () => 'v');
    const ttl = (v: string | null) => (v ? 1_000 : 100);
    expect(await cache.getOrLoad('a', load, ttl)).toBe('v');
    now += 999;
    expect(await cache.getOrLoad('a', load, ttl)).toBe('v');
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.getOrLoad('a', load, ttl);
    expect(load).toHaveBeenCalledTimes(2);

    expect(cache.peek('a')).toBe('v');
    expect(cache.peek('missing')).toBeUndefined();
    const negative = jest.fn(async () => null);
    await cache.getOrLoad('b', negative, ttl);
    now += 99;
    await cache.getOrLoad('b', negative, ttl);
    expect(negative).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.getOrLoad('b', negative, ttl);
    expect(negative).toHaveBeenCalledTimes(2);
  });

  it('runs one load per key however many callers wait', async () => {
    const cache = cacheOf<number>(10, 0);
    const d = deferred<number>();
    const load = jest.fn(() => d.promise);
    const all = Promise.all(Array.from({ length: 50 }, () => cache.getOrLoad('k', load, () => 1_000)));
    d.resolve(7);
    expect(await all).toEqual(Array(50).fill(7));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed load, nor a load that an invalidation overtook', async () => {
    const cache = cacheOf<number>(10, 0);
    const failing = () => Promise.reject(new Error('db down'));
    await expect(cache.getOrLoad('k', failing, () => 1_000)).rejects.toThrow('db down');
    expect(await put(cache, 'k', 1)).toBe(1);

    const d = deferred<number>();
    const stale = cache.getOrLoad(
      'j',
      () => d.promise,
      () => 1_000,
    );
    cache.delete('j');
    d.resolve(1);
    expect(await stale).toBe(1);
    expect(await put(cache, 'j', 2)).toBe(2);
  });

  it('drops the oldest entries beyond its size and forgets on delete', async () => {
    const cache = cacheOf<number>(2, 0);
    for (const key of ['a', 'b', 'c']) await put(cache, key, 1);
    expect(cache.size).toBe(2);
    expect(await put(cache, 'a', 10)).toBe(10);
    cache.delete('c');
    expect(await put(cache, 'c', 30)).toBe(30);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('answers a recently expired value while one background load refreshes it', async () => {
    const cache = cacheOf<number>(10, 500);
    await put(cache, 'k', 1);
    now += 1_200;
    const refresh = deferred<number>();
    const load = jest.fn(() => refresh.promise);
    expect(await cache.getOrLoad('k', load, () => 1_000)).toBe(1);
    expect(await cache.getOrLoad('k', load, () => 1_000)).toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
    refresh.resolve(2);
    await refresh.promise;
    expect(await put(cache, 'k', 99)).toBe(2);

    now += 1_600;
    expect(await put(cache, 'k', 3)).toBe(3);

    now += 1_200;
    const failing = jest.fn(() => Promise.reject(new Error('db down')));
    expect(await cache.getOrLoad('k', failing, () => 1_000)).toBe(3);
    cache.delete('k');
    await expect(cache.getOrLoad('k', failing, () => 1_000)).rejects.toThrow('db down');
  });

  it('keeps nothing for a zero time to live', async () => {
    const cache = cacheOf<number>(2, 0);
    await put(cache, 'a', 1, 0);
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry, not the oldest written', () => {
    const cache = cacheOf<number>(2, 0, 1_000);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('a')).toBe(1);
    expect(cache.peek('c')).toBe(3);
  });

  it('keeps set values for the default or the given time to live, and forever without one', () => {
    const cache = cacheOf<string>(10, 0, 1_000);
    cache.set('default', 'd');
    cache.set('short', 's', 100);
    now += 100;
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('default')).toBe('d');
    now += 900;
    expect(cache.get('default')).toBeUndefined();
    expect(cache.size).toBe(0);

    const forever = cacheOf<string>(10);
    forever.set('k', 'v');
    now += 365 * 86_400_000;
    expect(forever.get('k')).toBe('v');
  });

  it('peek does not count as a use', () => {
    const cache = cacheOf<number>(2, 0, 1_000);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.peek('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.peek('a')).toBeUndefined();
  });

  it('deletes every entry a predicate matches', () => {
    const cache = cacheOf<{ owner: string }>(10);
    cache.set('t1', { owner: 'x' });
    cache.set('t2', { owner: 'y' });
    cache.set('t3', { owner: 'x' });
    cache.deleteWhere((v) => v.owner === 'x');
    expect(cache.size).toBe(1);
    expect(cache.get('t2')).toEqual({ owner: 'y' });
  });

  it('loads with the cache time to live when no per-value one is given', async () => {
    const cache = cacheOf<number>(10, 0, 500);
    const load = jest.fn(async () => 1);
    await cache.getOrLoad('k', load);
    now += 499;
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.getOrLoad('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('tells onEvict what left on its own (bound or expiry), not what was deleted', () => {
    const evicted: string[] = [];
    const cache = new BoundedCache<number>({ maxEntries: 2, ttlMs: 1_000, clock, onEvict: (key) => evicted.push(key) });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(evicted).toEqual(['a']);
    expect(cache.delete('b')).toBe(2);
    now += 1_000;
    expect(cache.get('c')).toBeUndefined();
    expect(evicted).toEqual(['a', 'c']);
  });

  it('lists the unexpired entries, least recently used first, without touching them', () => {
    const cache = cacheOf<number>(3, 0, 1_000);
    cache.set('a', 1);
    cache.set('b', 2, 10);
    cache.set('c', 3);
    cache.get('a');
    now += 10;
    expect([...cache.entriesNow()]).toEqual([
      ['c', 3],
      ['a', 1],
    ]);
    cache.set('d', 4);
    expect(cache.peek('c')).toBe(3);
  });
});
