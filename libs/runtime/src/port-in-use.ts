import type { AppConfig } from '@app/config';

/** A setting whose port this process listens on, and what to do when that port is taken. */
interface PortSetting {
  name: string;
  port: number;
  fix: string;
}

/** The ports a process of this role binds, named by their settings. */
function portSettings(config: AppConfig): PortSetting[] {
  const settings: PortSetting[] = [{ name: 'PORT', port: config.port, fix: 'set PORT to a free port' }];
  if (config.role === 'edge' || config.role === 'standalone') {
    const edge = 'set EDGE_HTTP_PORT/EDGE_HTTPS_PORT to free ports';
    settings.push(
      { name: 'EDGE_HTTP_PORT', port: config.edgeHttpPort, fix: edge },
      { name: 'EDGE_HTTPS_PORT', port: config.edgeHttpsPort, fix: edge },
    );
    if (config.challengeZone) {
      const fix = 'set ACME_CHALLENGE_DNS_PORT to a free port';
      settings.push({ name: 'ACME_CHALLENGE_DNS_PORT', port: config.challengeZone.port, fix });
    }
  }
  return settings;
}

/**
 * A listen that failed because its port is taken, said with the setting that chose the port, e.g.
 * "EDGE_HTTP_PORT 8080 is in use (EADDRINUSE): set EDGE_HTTP_PORT/EDGE_HTTPS_PORT to free ports".
 * Undefined for any other error. The result keeps `code` (callers retry on EADDRINUSE) and the cause.
 */
export function portInUseError(error: unknown, config: AppConfig): Error | undefined {
  const failed = error as (NodeJS.ErrnoException & { port?: number }) | undefined;
  if (failed?.code !== 'EADDRINUSE' || typeof failed.port !== 'number') return undefined;
  const matching = portSettings(config).filter((s) => s.port === failed.port);
  if (matching.length === 0) return undefined;
  const names = matching.map((s) => s.name).join(' and ');
  const fixes = [...new Set(matching.map((s) => s.fix))].join('; ');
  return Object.assign(new Error(`${names} ${failed.port} is in use (EADDRINUSE): ${fixes}`, { cause: error }), {
    code: 'EADDRINUSE',
  });
}
