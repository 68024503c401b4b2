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
/**
 * The pending back-off with a 300 s interval: the phase schedule alone would probe a new domain again
 * 150-450 s after its first probe; on the back-off it is probed 10 s after creation (or a check), then
 * 20 s, then 30 s apart for its first 5 minutes. The schedule is in the node's memory: what is
 * checked is when the monitor's DNS questions for each name arrive. Three domains are created at once and followed side by side (each story
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
    stack.dns.setRecords(hostname, [{ type: 'CNAME', data: EDGE }]);
    const fixedAt = Date.now();
    const reached = await stack.waitFor(id, (d) => d.monitorStatus === 'pending_ssl' || d.status === 'verified');
    const tookMs = Date.now() - fixedAt;
    const [, second] = probes(hostname, answeredAt);
    // 30 s after the creation: the waits add up from it (10 s, then 20 s).
    expect(second - sentAt).toBeGreaterThanOrEqual(29.5 * SECOND);
    expect(second - first).toBeGreaterThanOrEqual(14 * SECOND);
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
    await waitForProbes(hostname, answeredAt, 1, 20 * SECOND);

    const checkSentAt = Date.now();
    const { body } = await request(stack.t.server).post(`/v1/domains/${id}/check`).set(auth).expect(200);
    const checkedAt = Date.now();
    expect(body.domain).toMatchObject({ status: 'pending', monitorStatus: 'dns_incorrect' });

    // 10 s after the check (not 20 s after the first probe), although the monitor slept until then.
    const [p1] = await waitForProbes(hostname, checkedAt, 1, 20 * SECOND);
    expect(p1 - checkSentAt).toBeGreaterThanOrEqual(9.5 * SECOND);
    expect(p1 - checkedAt).toBeLessThan(16 * SECOND);
    // Then 20 s later: 30 s after the check.
    const [, p2] = await waitForProbes(hostname, checkedAt, 2, 30 * SECOND);
    expect(p2 - checkSentAt).toBeGreaterThanOrEqual(29.5 * SECOND);
    expect(p2 - checkedAt).toBeLessThan(36 * SECOND);
    expect(probes(hostname, checkedAt)).toHaveLength(2);
  }

  /**
   * A domain verified early leaves the back-off at its next probe, for its phase slot (150-450 s
   * away): of its back-off times (10, 30 and 60 s after the creation) at most one comes after it was
   * verified. Still on the back-off, both the 30 s and the 60 s probes would.
   */
  async function verifiedLeavesBackoff() {
    const hostname = 'ready.customer-p.com';
    const { id, sentAt, answeredAt } = await connect(hostname, [{ type: 'CNAME', data: EDGE }]);
    await stack.waitFor(id, (d) => d.status === 'verified');
    const verifiedAt = Date.now();
    expect(verifiedAt - sentAt).toBeLessThan(29 * SECOND);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + 65 * SECOND - Date.now())));
    const seen = probes(hostname, answeredAt);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(seen.filter((at) => at > verifiedAt).length).toBeLessThanOrEqual(1);
  }

  it('probes a domain not serving HTTPS yet 10 s, then 20 s apart; a check restarts it; verified, it leaves the back-off', async () => {
    // Each story to its end before the stack closes; then the first failure, if any.
    const stories = await Promise.allSettled([fixedAfterFirstProbe(), checkRestarts(), verifiedLeavesBackoff()]);
    for (const story of stories) if (story.status === 'rejected') throw story.reason;
  });
});
