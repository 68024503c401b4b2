import { TtlCache } from './ttl-cache';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

/** `get` with a constant value and time to live. */
const put = <V>(cache: TtlCache<V>, key: string, value: V, ttl = 1_000) =>
  cache.get(
    key,
    async () => value,
    () => ttl,
  );

describe('TtlCache', () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => (now = 1_000));

  it('keeps a value for its time to live, per value', async () => {
    const cache = new TtlCache<string | null>(10, 0, clock);
    const load = jest.fn(async () => 'v');
    const ttl = (v: string | null) => (v ? 1_000 : 100);
    expect(await cache.get('a', load, ttl)).toBe('v');
    now += 999;
    expect(await cache.get('a', load, ttl)).toBe('v');
    expect(load).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.get('a', load, ttl);
    expect(load).toHaveBeenCalledTimes(2);

    expect(cache.peek('a')).toBe('v');
    expect(cache.peek('missing')).toBeUndefined();
    const negative = jest.fn(async () => null);
    await cache.get('b', negative, ttl);
    now += 99;
    await cache.get('b', negative, ttl);
    expect(negative).toHaveBeenCalledTimes(1);
    now += 1;
    await cache.get('b', negative, ttl);
    expect(negative).toHaveBeenCalledTimes(2);
  });

  it('runs one load per key however many callers wait', async () => {
    const cache = new TtlCache<number>(10, 0, clock);
    const d = deferred<number>();
    const load = jest.fn(() => d.promise);
    const all = Promise.all(Array.from({ length: 50 }, () => cache.get('k', load, () => 1_000)));
    d.resolve(7);
    expect(await all).toEqual(Array(50).fill(7));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep a failed load, nor a load that an invalidation overtook', async () => {
    const cache = new TtlCache<number>(10, 0, clock);
    const failing = () => Promise.reject(new Error('db down'));
    await expect(cache.get('k', failing, () => 1_000)).rejects.toThrow('db down');
    expect(await put(cache, 'k', 1)).toBe(1);

    const d = deferred<number>();
    const stale = cache.get(
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
    const cache = new TtlCache<number>(2, 0, clock);
    for (const key of ['a', 'b', 'c']) await put(cache, key, 1);
    expect(cache.size).toBe(2);
    expect(await put(cache, 'a', 10)).toBe(10);
    cache.delete('c');
    expect(await put(cache, 'c', 30)).toBe(30);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('answers a recently expired value while one background load refreshes it', async () => {
    const cache = new TtlCache<number>(10, 500, clock);
    await put(cache, 'k', 1);
    now += 1_200;
    const refresh = deferred<number>();
    const load = jest.fn(() => refresh.promise);
    expect(await cache.get('k', load, () => 1_000)).toBe(1);
    expect(await cache.get('k', load, () => 1_000)).toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
    refresh.resolve(2);
    await refresh.promise;
    expect(await put(cache, 'k', 99)).toBe(2);

    now += 1_600;
    expect(await put(cache, 'k', 3)).toBe(3);

    now += 1_200;
    const failing = jest.fn(() => Promise.reject(new Error('db down')));
    expect(await cache.get('k', failing, () => 1_000)).toBe(3);
    cache.delete('k');
    await expect(cache.get('k', failing, () => 1_000)).rejects.toThrow('db down');
  });

  it('keeps nothing for a zero time to live', async () => {
    const cache = new TtlCache<number>(2, 0, clock);
    await put(cache, 'a', 1, 0);
    expect(cache.size).toBe(0);
  });
});
