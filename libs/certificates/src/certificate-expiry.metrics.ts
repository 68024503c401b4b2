import { metricsRegistry } from '@app/metrics';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { ExpiryRow, certificateExpiries } from './certificate-expiry.queries';

/** Scrapes come every 15-60 s; the figures move by the hour. */
const REFRESH_MS = 60_000;
const READ_WAIT_MS = 2_000;

type Source = () => Promise<ExpiryRow>;
let source: Source | undefined;
let cached: { at: number; row: ExpiryRow } | undefined;
let refreshing: Promise<void> | undefined;
const logger = new Logger('CertificateExpiryMetrics');

async function current(): Promise<ExpiryRow | undefined> {
  if (!source) return undefined;
  if (!cached || Date.now() - cached.at > REFRESH_MS) {
    const read = source;
    refreshing ??= read()
      .then((row) => void (cached = { at: Date.now(), row }))
      .catch((err: unknown) => logger.warn({ err }, 'Reading certificate expiries failed'))
      .finally(() => (refreshing = undefined));
    // A database that does not answer must not hold the whole scrape (the alerts on an unreachable
    // database read the same scrape): after READ_WAIT_MS, the last figures, or none.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([refreshing, new Promise((resolve) => (timer = setTimeout(resolve, READ_WAIT_MS)))]);
    clearTimeout(timer);
  }
  return cached?.row;
}

// Cluster-wide figures (every node reports the same ones: aggregate with max/min, not sum).
const windows: Gauge = new Gauge({
  name: 'certificates_expiring',
  help: 'Certificates of live domains by time to expiry: expired, within 7 days, within 7-30 days (cluster-wide)',
  labelNames: ['window'],
  registers: [metricsRegistry],
  async collect() {
    const row = await current();
    if (!row) return;
    windows.set({ window: 'expired' }, Number(row.expired));
    windows.set({ window: '7d' }, Number(row.within_7d));
    windows.set({ window: '30d' }, Number(row.within_30d));
  },
});
const earliest: Gauge = new Gauge({
  name: 'certificates_earliest_expiry_seconds',
  help: 'Seconds until the earliest certificate of a live domain expires (negative: already expired; cluster-wide)',
  labelNames: ['scope'],
  registers: [metricsRegistry],
  async collect() {
    const row = await current();
    if (row?.earliest != null) earliest.set({ scope: 'cluster' }, Number(row.earliest));
  },
});

// The SLO "certificates valid with at least a third of their lifetime left" and its alert read it.
const lifetimeLeft: Gauge = new Gauge({
  name: 'certificates_by_lifetime_left',
  help:
    'Certificates of live domains we can renew (DNS and CAA still ours) by the share of their lifetime left: ' +
    'over_third, under_third (renewal overdue), expired (cluster-wide)',
  labelNames: ['left'],
  registers: [metricsRegistry],
  async collect() {
    const row = await current();
    if (!row) return;
    lifetimeLeft.set({ left: 'over_third' }, Number(row.over_third));
    lifetimeLeft.set({ left: 'under_third' }, Number(row.under_third));
    lifetimeLeft.set({ left: 'expired' }, Number(row.expired_renewable));
  },
});

/** Binds the expiry gauges to this process's database (nodes and standalone, where certificates are ordered). */
@Injectable()
export class CertificateExpiryMetrics implements OnModuleInit {
  constructor(private readonly db: MikroSqlExecutor) {}

  onModuleInit(): void {
    source = () => certificateExpiries(this.db);
    cached = undefined;
  }
}
