import { ApiKeyCache } from './api-key.cache';
import { Principal } from '@app/auth';

const principal = (id: string): Principal => ({ workspaceId: 'ws_1', credentialId: id, kind: 'api_key' });

describe('ApiKeyCache', () => {
  it('trusts a key for its window after the last confirmation, and a recheck extends it', () => {
    const cache = new ApiKeyCache(10, 5_000);
    cache.set('h1', principal('key_1'), 0);
    expect(cache.get('h1', 4_999)?.credentialId).toBe('key_1');
    expect(cache.dueForRecheck(0, 2_500)).toEqual(['h1']);
    cache.confirm(['h1'], new Set(['h1']), 4_000);
    expect(cache.get('h1', 8_999)).toBeDefined();
    expect(cache.get('h1', 9_000)).toBeUndefined();
  });

  it('drops a key the recheck no longer finds (revoked elsewhere) and leaves unused keys to expire', () => {
    const cache = new ApiKeyCache(10, 5_000);
    cache.set('used', principal('key_1'), 0);
    cache.set('idle', principal('key_2'), 0);
    cache.get('used', 3_000);
    expect(cache.dueForRecheck(1_000, 2_500)).toEqual(['used']);
    cache.confirm(['used'], new Set(), 3_000);
    expect(cache.get('used', 3_001)).toBeUndefined();
  });

  it('remembers when each key was last used through it', () => {
    const cache = new ApiKeyCache(10, 5_000);
    cache.set('h1', principal('key_1'), 1_000);
    expect(cache.usedAt('h1')).toBe(1_000);
    cache.get('h1', 3_000);
    expect(cache.usedAt('h1')).toBe(3_000);
    expect(cache.usedAt('unknown')).toBeUndefined();
  });

  it('holds at most its bound, the least recently used key out first', () => {
    const cache = new ApiKeyCache(2, 5_000);
    cache.set('a', principal('a'), 0);
    cache.set('b', principal('b'), 0);
    cache.get('a', 1);
    cache.set('c', principal('c'), 1);
    expect(cache.size).toBe(2);
    expect(cache.get('b', 2)).toBeUndefined();
    expect(cache.get('a', 2)).toBeDefined();
  });
});
