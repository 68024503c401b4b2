import { parseForm } from './form-body-parser';

describe('parseForm', () => {
  it('decodes form fields and keeps repeated ones as arrays', () => {
    expect(parseForm('grant_type=client_credentials&scope=a%3Aread+b%3Awrite&x=1&x=2')).toEqual({
      grant_type: 'client_credentials',
      scope: 'a:read b:write',
      x: ['1', '2'],
    });
  });

  it('gives a plain object, safe from prototype keys', () => {
    const parsed = parseForm('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(parsed.constructor).toBe('y');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
