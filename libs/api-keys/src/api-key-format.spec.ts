import { apiKeyHint, generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';

describe('API keys', () => {
  it('are sk_live_ and 43 base62 characters, all different', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
      expect(looksLikeApiKey(key)).toBe(true);
    }
  });

  it('hash to hex SHA-256 and hint only the last four characters', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(apiKeyHint(key)).toBe(`sk_live_...${key.slice(-4)}`);
  });

  it('refuse malformed tokens before any lookup', () => {
    expect(looksLikeApiKey('sk_test_' + 'a'.repeat(43))).toBe(false);
    expect(looksLikeApiKey('sk_live_' + 'a'.repeat(10))).toBe(false);
    expect(looksLikeApiKey('sk_live_' + 'a'.repeat(42) + '!')).toBe(false);
  });
});
