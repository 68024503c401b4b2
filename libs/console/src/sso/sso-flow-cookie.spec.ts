import { SecretBox } from '@app/crypto';
import { openPending, sealPending } from './sso-flow-cookie';

const box = new SecretBox('k'.repeat(32));
const pending = {
  state: 's',
  nonce: 'n',
  verifier: 'v',
  redirectUri: 'https://x.example/console/sso/callback',
  next: '/console',
};

describe('the SSO flow cookie', () => {
  it('opens what it sealed until it expires', () => {
    const sealed = sealPending(box, pending, 1_000);
    expect(openPending(box, sealed, 2_000)).toEqual(pending);
    expect(openPending(box, sealed, 1_000 + 600_001)).toBeUndefined();
  });

  it('refuses a tampered, foreign or absent cookie', () => {
    const sealed = sealPending(box, pending, 0);
    expect(openPending(box, sealed.slice(0, -2) + 'AA', 1)).toBeUndefined();
    expect(openPending(new SecretBox('o'.repeat(32)), sealed, 1)).toBeUndefined();
    expect(openPending(box, undefined, 1)).toBeUndefined();
    expect(openPending(box, 'garbage', 1)).toBeUndefined();
  });
});
