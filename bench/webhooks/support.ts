import { DEFAULT_MEMBERSHIP } from '@app/actors';
import { SecretBox } from '@app/crypto';
import { newId } from '@app/persistence';
import { streamName } from '@app/webhooks';
import { connect } from 'nats';
import { IncomingMessage, Server, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Pool } from 'pg';
import { built } from '../lib/paths';
import { Child, startScript } from '../lib/processes';
import { BenchEnv } from '../lib/types';
import { serviceArgs } from '../lib/service-args';

export const BENCH_ENCRYPTION_KEY = 'bench-encryption-key-0123456789abcdef0123';
export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

/** The environment of the service processes a webhook benchmark starts. */
export function serviceEnv(env: BenchEnv, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: env.databaseUrl,
    NATS_URL: env.natsUrl,
    NATS_SUBJECT_PREFIX: env.prefix,
    PORT: '0',
    ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    SIGNING_SECRET: 'bench-signing-secret-0123456789abcdef0123',
    OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
    RATE_LIMITS: 'off',
    ...extra,
  };
}

/** `dist/apps/<app>/src/main.js` as its own process; resolves with its URL once it serves. */
export async function startApp(app: 'api' | 'node', name: string, env: Record<string, string>): Promise<Child> {
  const child = startScript(name, built(`apps/${app}/src/main`), env, serviceArgs(app));
  await child.waitFor(/(http:\/\/127\.0\.0\.1:\d+)/, 45_000);
  return child;
}

export interface Receipt {
  path: string;
  eventId: string;
  type: string;
  createdAt: string;
  domainId?: string;
  at: number;
}

const parse = (raw: Buffer): unknown => {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return {};
  }
};

/** HTTP receivers on loopback (one server per port) that record each webhook's arrival. */
export async function startReceivers(
  count: number,
  onReceipt: (r: Receipt) => void,
): Promise<{ urls: string[]; close(): Promise<void> }> {
  const servers: Server[] = [];
  const urls: string[] = [];
  for (let i = 0; i < count; i++) {
    const server = createServer((req: IncomingMessage, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.timeOrigin + performance.now();
        res.end('ok');
        const body = parse(Buffer.concat(chunks)) as {
          id: string;
          type: string;
          createdAt: string;
          data?: { domain?: { id?: string } };
        };
        const { id, type, createdAt } = body;
        onReceipt({ path: req.url ?? '/', eventId: id, type, createdAt, domainId: body.data?.domain?.id, at });
      });
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${i}`);
  }
  return {
    urls,
    close: async () => {
      for (const s of servers) {
        s.closeAllConnections();
        await new Promise((resolve) => s.close(resolve));
      }
    },
  };
}

/** A workspace and one endpoint per URL (all events), written as the API would (secrets sealed). */
export async function seedEndpoints(pg: Pool, urls: string[]): Promise<string> {
  const workspaceId = newId('ws');
  const box = new SecretBox(BENCH_ENCRYPTION_KEY);
  await pg.query('insert into workspaces (id, name) values ($1, $2)', [workspaceId, 'bench']);
  await pg.query(
    `insert into webhook_endpoints (id, workspace_id, url, events, secret_sealed)
     select unnest($1::text[]), $2, unnest($3::text[]), '{}', unnest($4::text[])`,
    [urls.map(() => newId('whe')), workspaceId, urls, urls.map(() => box.seal(`whsec_${newId('b')}`))],
  );
  return workspaceId;
}

/** Removes what the service processes created on the shared NATS under this run's prefix. */
export async function deleteStreams(env: BenchEnv): Promise<void> {
  try {
    const nc = await connect({ servers: env.natsUrl, name: 'bench-webhooks-cleanup' });
    const jsm = await nc.jetstreamManager();
    for (const name of [streamName(env.prefix), `KV_${DEFAULT_MEMBERSHIP.bucket}_${env.prefix}`]) {
      await jsm.streams.delete(name).catch(() => undefined);
    }
    await nc.close();
  } catch (err) {
    console.error(`  could not delete the streams of ${env.prefix}: ${String(err)}`);
  }
}

/** A realistic payload: the shape of the canonical domain object. */
export function domainPayload(i: number): Record<string, unknown> {
  return {
    domain: {
      id: `dom_bench${i}`,
      hostname: `shop-${i}.bench-customer.com`,
      apex: false,
      originUrl: 'https://origin.bench-customer.com',
      metadata: { plan: 'pro' },
      mode: 'proxy',
      keepHost: false,
      redirectWww: false,
      redirectStatus: 301,
      status: 'verified',
      monitorStatus: 'active_ssl',
      monitorMessage: 'Your site is live',
      dnsRecords: [{ type: 'CNAME', name: `shop-${i}.bench-customer.com`, value: 'edge.example.net', ttl: 3600 }],
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    },
  };
}
