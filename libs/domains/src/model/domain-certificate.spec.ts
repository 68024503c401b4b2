import { initialDomainState, transition } from './domain.machine';
import fc from 'fast-check';
import { DOMAIN_STATUSES, DomainState, MONITOR_STATUSES, STATUS_REASONS } from './domain.types';
import { monitorMessageOf } from './monitor-message';
import type { DnsProblem } from '@app/hostname-rules';
import { DomainRecord } from './domain.record';
import { probePhaseOf } from '../node/probe-phase';
import {
  certificateState,
  certificateValidUntil,
  observedCertificate,
  probeChangesNothing,
  servedCheckDue,
  servedReadDue,
} from './domain-certificate';

const now = new Date('2026-11-22T00:00:00Z');
const days = (n: number) => new Date(now.getTime() + n * 86_400_000).toISOString();
const record = (certificateExpiresAt?: string, certificateError?: string) =>
  ({ machine: { ...initialDomainState(now), certificateExpiresAt, certificateError } }) as unknown as DomainRecord;

describe('certificate state and what the machine is told', () => {
  it.each([
    [undefined, 'none'],
    [days(60), 'valid'],
    [days(10), 'renewal_due'],
    [days(-1), 'expired'],
  ])('a certificate expiring %s is %s', (expiresAt, expected) => {
    expect(certificateState(record(expiresAt), now, 30)).toBe(expected);
  });

  it.each([
    [record(), undefined, 'none'],
    [record(undefined, 'CAA forbids'), undefined, 'failed'],
    [record(days(60)), undefined, 'valid'],
    [record(days(10)), 'valid', 'valid'],
    [record(days(60)), 'unreachable', 'valid'],
    [record(days(60)), 'wrong_name', 'none'],
    [record(days(60)), 'outside_validity', 'none'],
    [record(days(-1)), 'valid', 'expired'],
    [record(days(-1)), 'outside_validity', 'expired'],
  ] as const)('%#: served %s', (r, served, expected) => {
    expect(observedCertificate(r, now, 30, served)).toBe(expected);
  });
});

describe('served-certificate checks', () => {
  it('read at once after a change (a new certificate not read yet, DNS that was not ours), else once a day', () => {
    const start = Date.parse('2026-11-22T00:00:00Z');
    const day = Array.from({ length: 12 * 24 }, (_, i) => start + (0.37 + i) * 300_000);
    const held = { ...record(days(60)).machine, monitorStatus: 'active_ssl' as const };
    const due = (domain: Parameters<typeof servedReadDue>[0]) =>
      day.filter((at) => servedReadDue(domain, at, 300, 86_400)).length;
    expect(due({ machine: held, probePhase: 0.37 })).toBe(1);
    expect(due({ machine: held, probePhase: 0.37, servedCheckPending: true })).toBe(day.length);
    for (const monitorStatus of ['unknown', 'dns_not_resolving', 'dns_incorrect', 'ready_to_switch'] as const)
      expect(due({ machine: { ...held, monitorStatus }, probePhase: 0.37 })).toBe(day.length);
    // Nothing held, nothing to compare.
    expect(due({ machine: record().machine, probePhase: 0.37, servedCheckPending: true })).toBe(0);
  });

  it.each([0, 0.123, 0.5, 0.999])('happen once an hour for a domain of phase %s probed every 5 minutes', (phase) => {
    const start = Date.parse('2026-11-22T00:00:00Z');
    const probes = Array.from({ length: 12 * 24 }, (_, i) => start + (phase * 300 + i * 300) * 1000);
    const checks = probes.filter((at) => servedCheckDue(at, phase, 300, 3600));
    expect(checks).toHaveLength(24);
    for (let i = 1; i < checks.length; i++) expect(checks[i] - checks[i - 1]).toBe(3_600_000);
  });

  it('spread over the whole monitor interval, not into the 25 s where one phase band is probed', () => {
    // 120,000 domains, each probed every 300 s at its phase: count the served checks
    // in each 25 s of one interval (the old arithmetic put all of them into one or two of these).
    const start = Date.parse('2026-11-22T00:07:00Z');
    const perWindow = new Array<number>(12).fill(0);
    for (let i = 0; i < 120_000; i++) {
      const phase = probePhaseOf(`dom_${i}`);
      const at = start + phase * 300_000;
      if (servedCheckDue(at, phase, 300, 3600)) perWindow[Math.floor((phase * 300) / 25)]++;
    }
    const total = perWindow.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(120_000 / 12 - 500);
    expect(total).toBeLessThan(120_000 / 12 + 500);
    for (const n of perWindow) expect(n / (total / 12)).toBeGreaterThan(0.8);
    for (const n of perWindow) expect(n / (total / 12)).toBeLessThan(1.2);
  });

  it('happen on every probe when the served interval is not longer than the monitor interval', () => {
    expect(servedCheckDue(Date.now(), 0.4, 300, 300)).toBe(true);
    expect(servedCheckDue(Date.now(), 0.4, 300, 60)).toBe(true);
  });
});

describe('probes that change nothing (the monitor skips the actor)', () => {
  const verified = {
    ...initialDomainState(now),
    status: 'verified' as const,
    monitorStatus: 'active_ssl' as const,
    monitorMessage: 'Your site is live',
    firstSeenCorrectDnsAt: days(-3),
    lastProbeAt: days(-0.01),
    certificateExpiresAt: days(60),
  };

  it.each([
    ['verified, DNS right, certificate valid', verified, 'correct', undefined, true],
    ['the same after a served check that saw it', verified, 'correct', 'valid', true],
    ['the edge unreachable: nothing judged', verified, 'correct', 'unreachable', true],
    ['DNS drifted', verified, 'incorrect', undefined, false],
    ['a wrong certificate served', verified, 'correct', 'wrong_name', false],
    ['renewal due', { ...verified, certificateExpiresAt: days(10) }, 'correct', undefined, false],
    ['pending without a certificate', initialDomainState(now), 'correct', undefined, false],
    ['a wrong probe counted', { ...verified, consecutiveWrongDnsProbes: 1 }, 'correct', undefined, false],
  ] as const)('%s: %s', (_, machine, dns, served, expected) => {
    expect(probeChangesNothing(machine, dns, served, now, 30)).toBe(expected);
  });

  describe('a wrong probe that names a DNS problem', () => {
    const problem: DnsProblem = { kind: 'stray_aaaa', hostname: 'shop.example.com', aaaa: ['2001:db8::1'] };
    // As the monitor holds it: parsed from the stored JSON, so keys holding undefined are gone.
    const waiting = JSON.parse(
      JSON.stringify(
        transition(
          initialDomainState(now),
          { type: 'probe_observed', dns: 'incorrect', certificate: 'none', problem },
          now,
        ).state,
      ),
    ) as DomainState;

    it('changes nothing when it names the same problem again (an equal object, not the same one)', () => {
      expect(probeChangesNothing(waiting, 'incorrect', undefined, now, 30, { ...problem, aaaa: ['2001:db8::1'] })).toBe(
        true,
      );
    });

    it('changes the domain when the problem differs, or is gone', () => {
      expect(probeChangesNothing(waiting, 'incorrect', undefined, now, 30, { ...problem, aaaa: ['2001:db8::2'] })).toBe(
        false,
      );
      expect(probeChangesNothing(waiting, 'incorrect', undefined, now, 30)).toBe(false);
    });
  });
});

describe('how long a probe that sees DNS right keeps its verdict (certificateValidUntil)', () => {
  const HOUR = 3_600_000;
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const stateArb: fc.Arbitrary<DomainState> = fc
    .record({
      status: fc.constantFrom(...DOMAIN_STATUSES),
      statusReason: fc.option(fc.constantFrom(...STATUS_REASONS), { nil: undefined }),
      monitorStatus: fc.constantFrom(...MONITOR_STATUSES),
      firstSeen: fc.option(fc.integer({ min: -90 * 24, max: 0 }), { nil: undefined }),
      wrong: fc.integer({ min: 0, max: 4 }),
      expiresInHours: fc.option(fc.integer({ min: -48, max: 90 * 24 }), { nil: undefined }),
      renewInHours: fc.option(fc.integer({ min: -48, max: 90 * 24 }), { nil: undefined }),
      certificateError: fc.option(fc.constant('CAA forbids us'), { nil: undefined }),
    })
    .map((r) => {
      const machine = {
        ...initialDomainState(new Date(now.getTime() - 10 * 86_400_000)),
        status: r.status,
        statusReason: r.statusReason,
        monitorStatus: r.monitorStatus,
        firstSeenCorrectDnsAt: r.firstSeen === undefined ? undefined : at(r.firstSeen * HOUR),
        consecutiveWrongDnsProbes: r.wrong,
        certificateExpiresAt: r.expiresInHours === undefined ? undefined : at(r.expiresInHours * HOUR),
        certificateRenewAt: r.renewInHours === undefined ? undefined : at(r.renewInHours * HOUR),
        certificateError: r.certificateError,
      };
      // As the monitor holds a state: its stored JSON, with the message the machine would give it.
      return JSON.parse(JSON.stringify({ ...machine, monitorMessage: monitorMessageOf(machine) })) as DomainState;
    });

  it('is the verdict at every time before it, and no longer at it (property)', () => {
    let quiet = 0;
    fc.assert(
      fc.property(
        stateArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(undefined, 'valid' as const, 'unreachable' as const),
        (machine, where, served) => {
          if (!probeChangesNothing(machine, 'correct', served, now, 30)) return;
          quiet++;
          const until = certificateValidUntil(machine, 30);
          expect(until).toBeGreaterThan(now.getTime());
          const later = new Date(now.getTime() + Math.floor(where * (until - now.getTime() - 1)));
          expect(probeChangesNothing(machine, 'correct', served, later, 30)).toBe(true);
          expect(probeChangesNothing(machine, 'correct', served, new Date(until), 30)).toBe(false);
        },
      ),
      { numRuns: 5_000 },
    );
    // The property held for states that are actually quiet, not only vacuously.
    expect(quiet).toBeGreaterThan(50);
  });

  it('is the renewal time when the CA advised one, else renewDays before expiry, never past expiry', () => {
    const machine = (expires: number, renew?: number) =>
      ({
        ...initialDomainState(now),
        certificateExpiresAt: days(expires),
        certificateRenewAt: renew && days(renew),
      }) as DomainState;
    expect(certificateValidUntil(machine(60, 40), 30)).toBe(Date.parse(days(40)));
    expect(certificateValidUntil(machine(60), 30)).toBe(Date.parse(days(30)));
    expect(certificateValidUntil(machine(6, 9), 30)).toBe(Date.parse(days(6)));
    expect(certificateValidUntil(initialDomainState(now), 30)).toBe(Infinity);
  });
});
