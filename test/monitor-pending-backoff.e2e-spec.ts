import {
  CERTIFICATE_EDGE as EDGE,
  CertificateStack,
  DnsRecord,
  ORIGIN_URL,
  eventually,
  probeTimes,
  startCertificateStack,
} from '@test/support';
import request from 'supertest';

const INTERVAL_S = 300;
const SECOND = 1_000;
/** `next_probe_at` read back as float epoch milliseconds may round by a millisecond. */
const CLOCK_ROUNDING_MS = 2;

/**
 * The pending back-off with a 300 s interval: the phase schedule alone would probe a new domain again
 * 150-450 s after its first probe; on the back-off it is probed 10 s after creation (or a check), then
 * 20 s, then 30 s apart for its first 5 minutes. Three domains are created at once and followed side by side (each story
 * needs time to pass, about 45 s in all).
 */
describe(`the pending back-off (standalone, ${INTERVAL_S} s interval, Pebble)`, () => {
  let stack: CertificateStack;
  let auth: { authorization: string };

  beforeAll(async () => {
    stack = await startCertificateStack({ env: { MONITOR_INTERVAL_SECONDS: String(INTERVAL_S) } });
    auth = stack.auth;
  });
  afterAll(async () => stack?.close());

  /** Sets the hostname's records, then connects it: the id and when the request was sent and answered. */
  const connect = async (hostname: string, records: DnsRecord[]) => {
    stack.dns.setRecords(hostname, records);
    const sentAt = Date.now();
    const { body } = await request(stack.t.server)
      .post('/v1/domains')
      .set(auth)
      .send({ hostname, originUrl: ORIGIN_URL })
      .expect(201);
    return { id: body.domain.id as string, sentAt, answeredAt: Date.now() };
  };

  const probes = (hostname: string, from: number) => probeTimes(stack.dns, hostname, from);

  const waitForProbes = (hostname: string, from: number, count: number, timeoutMs: number) =>
    eventually(
      () => probes(hostname, from),
      (seen) => seen.length >= count,
      { timeoutMs, everyMs: 50, what: `${count} probes of ${hostname}` },
    );

  /** The domain's row of the monitor's schedule: its back-off step and next probe time (epoch ms). */
  const schedule = async (id: string) => {
    const [row] = await stack.t.db.query<{ step: number | null; next: number; phase: number }>(
      `select backoff_step as step, extract(epoch from next_probe_at)::float8 * 1000 as next, probe_phase as phase
       from domain_schedule where id = $1`,
      [id],
    );
    return row;
  };

  /**
   * The row once the claim of the probe at `probeAt` has moved the domain to back-off `step`, checked
   * to come due `waitS` after that probe. The wait counts from the claim (the transaction's `now()`); the probe's
   * first DNS query comes later by however long the machine takes to start it, so two probes are at
   * least the wait apart less that delay (up to a second or so on a busy machine), and never before
   * the time the claim set.
   */
  const nextWait = async (id: string, step: number, probeAt: number, waitS: number) => {
    const row = await eventually(
      () => schedule(id),
      (r) => r.step === step,
      { timeoutMs: 5 * SECOND, what: `the back-off at step ${step}` },
    );
    expect(row.next - probeAt).toBeGreaterThan((waitS - 1.5) * SECOND);
    expect(row.next - probeAt).toBeLessThan((waitS + 1) * SECOND);
    return row;
  };

  /** A domain whose DNS is fixed after its first probe: pending_ssl at the second probe, 20 s later. */
  async function fixedAfterFirstProbe() {
    const hostname = 'fixed.customer-p.com';
    const { id, sentAt, answeredAt } = await connect(hostname, []);
    const [first] = await waitForProbes(hostname, answeredAt, 1, 20 * SECOND);
    // The first probe 10 s after creation, on time although the monitor was asleep (nothing was due).
    expect(first - sentAt).toBeGreaterThanOrEqual(9.5 * SECOND);
    expect(first - answeredAt).toBeLessThan(16 * SECOND);
    // DNS is fixed once that probe is over (its answer written), not while it may still be asking:
    // on a busy machine a probe's later lookups would otherwise already see the fix.
    await stack.waitFor(id, (d) => d.monitorStatus === 'dns_not_resolving');
    const afterFirst = await nextWait(id, 2, first, 20);
    stack.dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE }]);
    const fixedAt = Date.now();
    const reached = await stack.waitFor(id, (d) => d.monitorStatus === 'pending_ssl' || d.status === 'verified');
    const tookMs = Date.now() - fixedAt;
    const [, second] = probes(hostname, answeredAt);
    // Not before the wait the first claim set, 20 s after that claim (see `nextWait`).
    expect(second).toBeGreaterThanOrEqual(afterFirst.next - CLOCK_ROUNDING_MS);
    expect(second - first).toBeGreaterThanOrEqual(18.5 * SECOND);
    // Slack for a busy machine (claims and probes late by seconds); the phase slot is minutes away.
    expect(second - first).toBeLessThan(30 * SECOND);
    // The phase schedule would have waited 150-450 s after the first probe.
    expect(tookMs).toBeLessThan(35 * SECOND);
    expect(reached.status === 'verified' || reached.monitorStatus === 'pending_ssl').toBe(true);
    // The certificate is ordered at that probe: verified soon after, with no further probe needed.
    await stack.waitFor(id, (d) => d.status === 'verified');
    return { tookMs };
  }

  /** A domain whose DNS stays wrong: a check restarts its back-off at 10 s, then 20 s, then 30 s. */
  async function checkRestarts() {
    const hostname = 'wrong.customer-p.com';
    const { id, answeredAt } = await connect(hostname, [{ type: 'CNAME', data: 'other-host.saas-test.net' }]);
    const [first] = await waitForProbes(hostname, answeredAt, 1, 20 * SECOND);
    // The claim that made the first probe moved the domain to the second wait: 20 s.
    await nextWait(id, 2, first, 20);

    const checkSentAt = Date.now();
    const { body } = await request(stack.t.server).post(`/v1/domains/${id}/check`).set(auth).expect(200);
    const checkedAt = Date.now();
    expect(body.domain).toMatchObject({ status: 'pending', monitorStatus: 'dns_incorrect' });
    const restarted = await schedule(id);
    expect(restarted.step).toBe(1);
    expect(restarted.next - checkSentAt).toBeGreaterThanOrEqual(9.5 * SECOND);
    expect(restarted.next - checkedAt).toBeLessThanOrEqual(10.5 * SECOND);

    // 10 s after the check (not 20 s after the first probe), although the monitor slept until then.
    const [p1] = await waitForProbes(hostname, checkedAt, 1, 20 * SECOND);
    expect(p1 - checkSentAt).toBeGreaterThanOrEqual(9.5 * SECOND);
    expect(p1 - checkedAt).toBeLessThan(16 * SECOND);
    const second = await nextWait(id, 2, p1, 20);
    const [, p2] = await waitForProbes(hostname, checkedAt, 2, 30 * SECOND);
    expect(p2).toBeGreaterThanOrEqual(second.next - CLOCK_ROUNDING_MS);
    expect(p2 - p1).toBeGreaterThanOrEqual(18.5 * SECOND);
    expect(p2 - p1).toBeLessThan(28 * SECOND);
    await nextWait(id, 3, p2, 30);
    expect(probes(hostname, checkedAt)).toHaveLength(2);
  }

  /** A domain verified by its first probe (or before it) leaves the back-off at the next claim, for its phase slot. */
  async function verifiedLeavesBackoff() {
    const hostname = 'ready.customer-p.com';
    const { id, answeredAt } = await connect(hostname, [{ type: 'CNAME', data: EDGE }]);
    expect(await schedule(id)).toMatchObject({ step: 1 });
    await stack.waitFor(id, (d) => d.status === 'verified');
    const left = await eventually(
      () => schedule(id),
      (row) => row.step === null,
      { timeoutMs: 40 * SECOND, everyMs: 250, what: 'the verified domain off the back-off' },
    );
    // The claim that took it off the back-off made its last probe: the first (10 s) when the certificate
    // ordered at its creation (DNS was right then) came first, else a later one; until then the waits doubled.
    const seen = await waitForProbes(hostname, answeredAt, 1, 5 * SECOND);
    const last = seen[seen.length - 1];
    seen.slice(1).forEach((at, i) => {
      expect(at - seen[i]).toBeGreaterThanOrEqual(20 * 2 ** i * SECOND - 1_500);
      expect(at - seen[i]).toBeLessThan(20 * 2 ** i * SECOND + 3 * SECOND);
    });
    // Its phase slot: the first offset `phase * interval` at least half an interval after that claim.
    expect(left.next - last).toBeGreaterThan(0.5 * INTERVAL_S * SECOND - 1_500);
    expect(left.next - last).toBeLessThan(1.5 * INTERVAL_S * SECOND);
    const offset = (left.next / SECOND / INTERVAL_S) % 1;
    const distance = Math.abs(offset - left.phase);
    expect(Math.min(distance, 1 - distance)).toBeLessThan(1e-6);
  }

  it('probes a domain not serving HTTPS yet 10 s, 20 s, 40 s apart; a check restarts it; verified, it returns to its phase slot', async () => {
    // Each story to its end before the stack closes; then the first failure, if any.
    const stories = await Promise.allSettled([fixedAfterFirstProbe(), checkRestarts(), verifiedLeavesBackoff()]);
    for (const story of stories) if (story.status === 'rejected') throw story.reason;
  });
});
