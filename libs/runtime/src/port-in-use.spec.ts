import type { AppConfig } from '@app/config';
import { portInUseError } from './port-in-use';

const inUse = (port: number) =>
  Object.assign(new Error(`listen EADDRINUSE: address already in use 0.0.0.0:${port}`), {
    code: 'EADDRINUSE',
    port,
  });
const config = (role: AppConfig['role'], extra: Partial<AppConfig> = {}) =>
  ({ role, port: 3000, edgeHttpPort: 8080, edgeHttpsPort: 8443, ...extra }) as AppConfig;

describe('portInUseError', () => {
  it.each([
    ['edge', 8080, 'EDGE_HTTP_PORT 8080 is in use (EADDRINUSE): set EDGE_HTTP_PORT/EDGE_HTTPS_PORT to free ports'],
    [
      'standalone',
      8443,
      'EDGE_HTTPS_PORT 8443 is in use (EADDRINUSE): set EDGE_HTTP_PORT/EDGE_HTTPS_PORT to free ports',
    ],
    ['api', 3000, 'PORT 3000 is in use (EADDRINUSE): set PORT to a free port'],
  ] as const)('%s, port %d: names the setting', (role, port, message) => {
    const error = portInUseError(inUse(port), config(role));
    expect(error?.message).toBe(message);
    // Callers that retry on a port collision still see the code.
    expect((error as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
  });

  it('names only settings the role listens on: an api on 8080 is PORT, not EDGE_HTTP_PORT', () => {
    expect(portInUseError(inUse(8080), config('api', { port: 8080 }))?.message).toBe(
      'PORT 8080 is in use (EADDRINUSE): set PORT to a free port',
    );
  });

  it('names the challenge zone port when the edge serves one', () => {
    const zone = { port: 5353 } as AppConfig['challengeZone'];
    expect(portInUseError(inUse(5353), config('edge', { challengeZone: zone }))?.message).toBe(
      'ACME_CHALLENGE_DNS_PORT 5353 is in use (EADDRINUSE): set ACME_CHALLENGE_DNS_PORT to a free port',
    );
  });

  it('leaves other errors and ports no setting chose alone', () => {
    expect(portInUseError(new Error('boom'), config('edge'))).toBeUndefined();
    expect(portInUseError(inUse(4222), config('edge'))).toBeUndefined();
  });
});
