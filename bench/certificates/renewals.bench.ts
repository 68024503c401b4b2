import { LETS_ENCRYPT_LIMITS } from '../../libs/certificates/src/model/issuance-limits';
import { renewalTime } from '../../libs/certificates/src/model/renewal-time';
import { BucketLimit, BucketState, take } from '../../libs/certificates/src/model/token-bucket';
import { round } from '../lib/stats';
import { Benchmark, Figure, Measured, figure } from '../lib/types';
import { CERTIFICATES_AREA } from './area';

const CERTIFICATES = Number(process.env.BENCH_RENEWAL_CERTIFICATES ?? 1_000_000);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Peak hour / mean hour the dispatched renewals are held to; the budget's rate is sized from it. */
const GOAL = 1.5;
const T0 = Date.UTC(2026, 0, 1);
const LE = LETS_ENCRYPT_LIMITS.new_orders;
const LE_PER_HOUR = (LE.capacity * 3600) / LE.periodSeconds;
/**
 * The dispatcher paces itself in bursts of at most a minute of its rate: a bucket holding 3 hours
 * (Let's Encrypt's shape) would let a backlog through at 4x the rate in one hour.
 */
const BURST_SECONDS = 60;

interface Case {
  label: string;
  lifetimeDays: number;
  /** "Today": CERT_RENEW_DAYS=30 for 90 days; for 6 days (30 > the lifetime) the same third, 2 days. */
  todayBeforeExpiryDays: number;
}
const CASES: Case[] = [
  { label: '90-day', lifetimeDays: 90, todayBeforeExpiryDays: 30 },
  { label: '6-day', lifetimeDays: 6, todayBeforeExpiryDays: 2 },
];

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

function peakHour(times: Float64Array): number {
  const counts = new Map<number, number>();
  for (const t of times) {
    const h = Math.floor((t - T0) / HOUR);
    counts.set(h, (counts.get(h) ?? 0) + 1);
  }
  return Math.max(...counts.values());
}

/** Starts each renewal, in due order, once it is due and the bucket has a token (simulated clock). */
function dispatch(due: Float64Array, limit: BucketLimit): Float64Array {
  const order = Uint32Array.from(due.keys()).sort((a, b) => due[a] - due[b]);
  const start = new Float64Array(due.length);
  let state: BucketState | undefined;
  let clock = -Infinity;
  for (const i of order) {
    clock = Math.max(clock, due[i]);
    let r = take(limit, state, new Date(clock));
    if (!r.ok) {
      clock = r.retryAt.getTime();
      r = take(limit, state, new Date(clock));
    }
    if (!r.ok) throw new Error('the bucket refused at the time it named');
    state = r.state;
    start[i] = clock;
  }
  return start;
}

/** How long renewals waited for the bucket; `windowEnd`: count those that started after it. */
function waits(due: Float64Array, start: Float64Array, expiry: Float64Array, windowEnd?: Float64Array): string {
  let longest = 0;
  let leastLeft = Infinity;
  let late = 0;
  for (let i = 0; i < due.length; i++) {
    longest = Math.max(longest, start[i] - due[i]);
    leastLeft = Math.min(leastLeft, expiry[i] - start[i]);
    if (windowEnd && start[i] > windowEnd[i]) late++;
  }
  const after = windowEnd ? `, ${fmt(late)} started after their window (two thirds of the lifetime)` : '';
  return `longest wait ${fmt(longest / HOUR, 1)} h${after}, least time left before expiry ${fmt(leastLeft / DAY, 1)} days`;
}

function simulate(c: Case): { figures: Figure[]; details: Record<string, string> } {
  const lifetime = c.lifetimeDays * DAY;
  const jittered = new Float64Array(CERTIFICATES);
  const today = new Float64Array(CERTIFICATES);
  const expiry = new Float64Array(CERTIFICATES);
  const windowEnd = new Float64Array(CERTIFICATES);
  for (let i = 0; i < CERTIFICATES; i++) {
    const notBefore = T0 + Math.random() * DAY;
    const validity = { notBefore: new Date(notBefore), notAfter: new Date(notBefore + lifetime) };
    jittered[i] = renewalTime(validity, Math.random(), validity.notBefore).getTime();
    expiry[i] = notBefore + lifetime;
    windowEnd[i] = notBefore + (2 / 3) * lifetime;
    today[i] = expiry[i] - c.todayBeforeExpiryDays * DAY;
  }
  // The span renewalTime may use across the population: half to two thirds of the lifetime after a day of issuance.
  const windowHours = (DAY + lifetime / 6) / HOUR;
  const mean = CERTIFICATES / windowHours;
  // An hour at the rate plus one full burst stays within the goal.
  const perHour = Math.floor((GOAL * mean) / (1 + BURST_SECONDS / 3600));
  const budget: BucketLimit = { capacity: (perHour * BURST_SECONDS) / 3600, periodSeconds: BURST_SECONDS };
  const accountLimit = (perHour * LE.periodSeconds) / 3600;
  const started = dispatch(jittered, budget);
  const todayStarted = dispatch(today, budget);
  const steady = CERTIFICATES / (((7 / 12) * lifetime) / HOUR); // a renewal every 7/12 of the lifetime on average
  const meanHour = { label: 'mean hour over the renewal window', value: round(mean) };
  const dueJittered = peakHour(jittered);
  const dueToday = peakHour(today);
  return {
    figures: [
      figure({
        label: `Renewals due per hour, ${c.label}, renewalTime (no ARI), peak hour`,
        value: dueJittered,
        unit: '/h',
        baseline: meanHour,
      }),
      figure({
        label: `Renewals started per hour, ${c.label}, renewalTime through the budget, peak hour`,
        value: peakHour(started),
        unit: '/h',
        baseline: meanHour,
        goal: { of: 'ratio', atMost: GOAL },
      }),
      figure({
        label: `Renewals due per hour, ${c.label}, today's rule (${c.todayBeforeExpiryDays} days before expiry, no jitter), peak hour`,
        value: dueToday,
        unit: '/h',
        baseline: meanHour,
      }),
    ],
    details: {
      [`Renewal window, ${c.label}`]: `day ${fmt(c.lifetimeDays / 2, 1)} to day ${fmt(1 + (2 * c.lifetimeDays) / 3, 1)} after the first issuance, ${fmt(windowHours)} h: a mean hour of ${fmt(mean)} renewals`,
      [`Budget, ${c.label}`]: `${fmt(perHour)} orders/h in bursts of at most ${BURST_SECONDS / 60} minute (an hour and a burst: ${GOAL}× the mean hour), within a raised account limit of ${fmt(accountLimit)} new orders per 3 hours: ${fmt(perHour / LE_PER_HOUR, 1)}× Let's Encrypt's default ${LE.capacity} per 3 hours`,
      [`Let's Encrypt's default, ${c.label}`]: `does not fit: even spread evenly, ${fmt(CERTIFICATES)} certificates renewed every ${fmt((7 / 12) * c.lifetimeDays, 1)} days on average need ${fmt(steady)} orders/h, ${fmt(steady / LE_PER_HOUR, 1)}× its ${fmt(LE_PER_HOUR)}/h; this day's issuance renews at up to ${fmt(dueJittered / LE_PER_HOUR)}× it`,
      [`Through the budget, ${c.label}, renewalTime`]: waits(jittered, started, expiry, windowEnd),
      [`Through the budget, ${c.label}, today's rule`]: `peak ${fmt(peakHour(todayStarted))}/h, ${waits(today, todayStarted, expiry)}`,
      [`Peak hour due, ${c.label}: today's rule / renewalTime`]: `${fmt(dueToday / dueJittered, 2)}×`,
    },
  };
}

async function run(): Promise<Measured> {
  const results = CASES.map(simulate);
  for (const f of results.flatMap((r) => r.figures))
    console.log(`  ${f.label}: ${fmt(f.value)}/h = ${f.ratio}× the mean hour`);
  return {
    method:
      `A simulation on a simulated clock, no CA and no database: ${fmt(CERTIFICATES)} certificates issued at uniformly ` +
      `random times over one day, once with a 90-day and once with a 6-day lifetime. Each certificate's renewal is due at ` +
      `renewalTime(validity, Math.random(), now) (libs/certificates/src/model/renewal-time.ts, no ARI: uniformly between a ` +
      `half and two thirds of the lifetime); a dispatcher starts due renewals in due order, each once the new-orders token ` +
      `bucket (libs/certificates/src/model/token-bucket.ts, refilled continuously, full at the start) grants a token. The ` +
      `bucket paces the orders of a raised account limit sized from the population: an hour at its rate plus a full burst ` +
      `of one minute is ${GOAL}× the mean hour, so no hour can exceed the goal; the account limit that admits it is 3 hours ` +
      `at that rate (Let's Encrypt counts per 3 hours). Renewals are counted per clock hour; the mean hour is the count over the hours renewalTime may use ` +
      `across the population (from half the lifetime after the first issuance to two thirds after the last), the same ` +
      `divisor for every figure of a lifetime. The baseline in the same run is today's fixed rule: renew ` +
      `CERT_RENEW_DAYS=30 days before expiry, no jitter (for 6-day certificates, whose lifetime is shorter than 30 days, ` +
      `the same third of the lifetime: 2 days). One registered domain per certificate: the per-domain bucket never binds.`,
    figures: results.flatMap((r) => r.figures),
    details: { Certificates: fmt(CERTIFICATES), ...Object.assign({}, ...results.map((r) => r.details)) },
  };
}

export const certificatesRenewalsBench: Benchmark = {
  name: 'certificates.renewals',
  area: CERTIFICATES_AREA,
  order: 1,
  title:
    'Renewals per hour of 1,000,000 certificates issued in one day: jittered renewal time and issuance budget vs a fixed window',
  timeoutMs: 180_000,
  run,
};
