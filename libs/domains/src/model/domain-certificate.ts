import { CertificateObservation, DnsProblem } from '@app/hostname-rules';
import { transition } from './domain.machine';
import { DomainState, MonitorStatus } from './domain.types';
import type { ServedCertificate } from '@app/hostname-rules';
import { DomainRecord } from './domain.record';

export type CertificateState = 'none' | 'valid' | 'renewal_due' | 'expired';

const DAY_MS = 86_400_000;

/**
 * Certificates stored before renewal times were recorded renew this many days before expiry (a
 * third of a 90-day certificate); every certificate issued since carries its own `certificateRenewAt`.
 */
export const LEGACY_RENEW_DAYS = 30;

/** The stored certificate's state at `now`: renewal is due from its renewal time. */
export function certificateState(
  record: Pick<DomainRecord, 'machine'>,
  now: Date,
  renewDays: number,
): CertificateState {
  const { certificateExpiresAt: expiresAt, certificateRenewAt: renewAt } = record.machine;
  if (!expiresAt) return 'none';
  const expiry = Date.parse(expiresAt);
  const t = now.getTime();
  if (t >= expiry) return 'expired';
  return t >= renewalDueAt(expiry, renewAt, renewDays) ? 'renewal_due' : 'valid';
}

/**
 * When the stored certificate stops being `valid` (its renewal falls due, or it expires): the only
 * clock a probe that sees DNS right depends on. Until then such a probe's verdict
 * (`probeChangesNothing`) holds, so the monitor keeps it for the domain's view instead of running the
 * machine again each interval. Infinity without a certificate.
 */
export function certificateValidUntil(machine: DomainState, renewDays: number): number {
  const { certificateExpiresAt: expiresAt, certificateRenewAt: renewAt } = machine;
  if (!expiresAt) return Infinity;
  const expiry = Date.parse(expiresAt);
  return Math.min(expiry, renewalDueAt(expiry, renewAt, renewDays));
}

/** The renewal time the CA advised (ARI), or `renewDays` before expiry for a certificate stored without one. */
const renewalDueAt = (expiry: number, renewAt: string | undefined, renewDays: number): number =>
  renewAt ? Date.parse(renewAt) : expiry - renewDays * DAY_MS;

/**
 * What the state machine is told about the certificate. One due for renewal still serves; a refusal
 * sticks. A certificate we hold but the hostname does not actually serve (wrong name or outside its
 * validity, seen over TLS) counts as none: visitors get no working HTTPS, whatever the store says.
 * An unreachable hostname judges nothing (the fault may lie between this node and the edge).
 */
export function observedCertificate(
  record: Pick<DomainRecord, 'machine'>,
  now: Date,
  renewDays: number,
  served?: ServedCertificate['outcome'],
): CertificateObservation {
  const state = certificateState(record, now, renewDays);
  if (state === 'none') return record.machine.certificateError ? 'failed' : 'none';
  if (state === 'expired') return 'expired';
  return served === 'wrong_name' || served === 'outside_validity' ? 'none' : 'valid';
}

/**
 * Whether the probe at `now` also reads the served certificate: once per `servedIntervalS` for each
 * domain, at its own served phase, so the handshakes spread evenly over the edges (at 1,000,000
 * domains every probe would cost the edges 3,333 handshakes a second). Stateless: the probe whose
 * interval crosses the domain's served-check boundary does it.
 *
 * The served phase is the probe phase scrambled (`servedPhase`), not the probe phase itself: with the
 * same phase, the domains whose boundary falls in one monitor interval are those of a phase band
 * 1/12 wide, and they are probed in the same 25 s of that interval (a burst of 12x the handshake rate,
 * which on a busy node held the probes behind it past their slots).
 */
export function servedCheckDue(
  nowMs: number,
  phase: number,
  monitorIntervalS: number,
  servedIntervalS: number,
): boolean {
  if (servedIntervalS <= monitorIntervalS) return true;
  const offset = servedPhase(phase) * servedIntervalS;
  const slot = (ms: number) => Math.floor((ms / 1000 + offset) / servedIntervalS);
  return slot(nowMs) !== slot(nowMs - monitorIntervalS * 1000);
}

/**
 * A phase in [0, 1) spread independently of the probe phase's position in the interval: a Weyl step
 * (the golden ratio's digits), so any band of served phases is probe phases scattered over the whole
 * interval. Probe phases are multiples of 1e-6 (`probePhaseOf`); 618,033 is coprime to 1e6, so the
 * map permutes them.
 */
function servedPhase(phase: number): number {
  const scrambled = phase * 618_033;
  return scrambled - Math.floor(scrambled);
}

/**
 * Whether a probe that saw `dns` (and maybe a served certificate) would leave the domain exactly as
 * stored: same machine state but the probe time, no event, and no certificate to order (the stored one
 * is valid and not due for renewal). The monitor then skips the actor: at 1,000,000 domains almost
 * every probe is such a no-op, and activating an actor for it (a snapshot read, memory, passivation
 * churn) would cost more than the probe. A state changed since the row was read is seen next probe.
 */
export function probeChangesNothing(
  machine: DomainState,
  dns: 'not_resolving' | 'incorrect' | 'correct',
  served: ServedCertificate['outcome'] | undefined,
  now: Date,
  renewDays: number,
  problem?: DnsProblem,
): boolean {
  const record = { machine };
  if (dns === 'correct' && certificateState(record, now, renewDays) !== 'valid') return false;
  const certificate = observedCertificate(record, now, renewDays, served);
  const next = transition(machine, { type: 'probe_observed', dns, certificate, problem }, now);
  if (next.events.length) return false;
  return sameButProbeTime(next.state, machine);
}

/**
 * Whether two states differ in nothing but `lastProbeAt`, compared as their JSON would be (a key
 * holding undefined is a key left out). Field by field: the states are flat but for `dnsProblem`,
 * and two JSON.stringify per probe were a twelfth of the monitor's domain code at 300,000 domains.
 */
function sameButProbeTime(a: DomainState, b: DomainState): boolean {
  const x = a as unknown as Record<string, unknown>;
  const y = b as unknown as Record<string, unknown>;
  for (const key in x) if (key !== 'lastProbeAt' && !sameJsonValue(x[key], y[key])) return false;
  for (const key in y) if (key !== 'lastProbeAt' && !(key in x) && y[key] !== undefined) return false;
  return true;
}

const sameJsonValue = (u: unknown, v: unknown): boolean =>
  u === v || (typeof u === 'object' && typeof v === 'object' && JSON.stringify(u) === JSON.stringify(v));

/** Monitor states in which the last probe did not see DNS pointing at the edge (or there was none yet). */
const DNS_NOT_YET_OURS: ReadonlySet<MonitorStatus> = new Set([
  'unknown',
  'dns_not_resolving',
  'dns_incorrect',
  'ready_to_switch',
]);

/**
 * Whether a probe that sees DNS right also reads the certificate the hostname serves. At once after a
 * change: a certificate issued or renewed that no probe has read yet (`servedCheckPending`), or DNS
 * that pointed elsewhere at the last probe. Otherwise once per `servedIntervalS` (SERVED_CHECK_INTERVAL_SECONDS,
 * a day by default) at the domain's served phase: a wrong certificate that nothing of ours changed
 * (a customer's own proxy in front of the edge) is noticed within that.
 */
export function servedReadDue(
  // The claim reads the mark as JSON: null when absent.
  domain: Pick<DomainRecord, 'machine' | 'probePhase'> & { servedCheckPending?: true | null },
  nowMs: number,
  monitorIntervalS: number,
  servedIntervalS: number,
): boolean {
  if (!holdsCertificate(domain)) return false;
  if (domain.servedCheckPending || DNS_NOT_YET_OURS.has(domain.machine.monitorStatus)) return true;
  return servedCheckDue(nowMs, domain.probePhase, monitorIntervalS, servedIntervalS);
}

/** Whether a served-certificate read judged something: it saw a certificate (an unreachable edge judges nothing). */
export const servedReadJudged = (served: ServedCertificate['outcome'] | undefined): boolean =>
  served !== undefined && served !== 'unreachable';

/** Only a domain holding a certificate has one to compare with what is served. */
export const holdsCertificate = (record: Pick<DomainRecord, 'machine'>): boolean =>
  record.machine.certificateExpiresAt !== undefined;
