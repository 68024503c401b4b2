/** The next state for each input; the rules and their reasons are at the top of domain.machine.ts. */
import { DomainInput, DomainState, MonitorStatus, StatusReason } from './domain.types';

export const NEVER_CORRECT_DNS_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
const WRONG_DNS_PROBES_TO_FAIL = 3;

type Probe = Extract<DomainInput, { type: 'probe_observed' }>;

const verify = (s: DomainState): DomainState => ({
  ...s,
  status: 'verified',
  statusReason: undefined,
  monitorStatus: 'active_ssl',
});
const toPending = (s: DomainState, monitorStatus: MonitorStatus): DomainState => ({
  ...s,
  status: 'pending',
  statusReason: undefined,
  monitorStatus,
});
const fail = (s: DomainState, statusReason: StatusReason): DomainState => ({ ...s, status: 'failed', statusReason });
const expire = (s: DomainState, statusReason: StatusReason): DomainState => ({ ...s, status: 'expired', statusReason });
/** Whether the last probe saw correct DNS. */
const dnsCorrect = (s: DomainState) => s.firstSeenCorrectDnsAt !== undefined && s.consecutiveWrongDnsProbes === 0;
const certificateMonitor = {
  none: 'pending_ssl',
  valid: 'active_ssl',
  expired: 'pending_ssl',
  failed: 'ssl_failed',
} as const;

function onCorrectDns(s: DomainState, certificate: Probe['certificate']): DomainState {
  switch (s.status) {
    case 'pending':
      return certificate === 'valid' ? verify(s) : { ...s, monitorStatus: certificateMonitor[certificate] };
    case 'failed':
      if (s.statusReason === 'origin_blocked') return s;
      return certificate === 'valid' ? verify(s) : toPending(s, certificateMonitor[certificate]);
    case 'verified':
      if (certificate === 'expired') return { ...expire(s, 'certificate_expired'), monitorStatus: 'ssl_expired' };
      return { ...s, monitorStatus: certificateMonitor[certificate] };
    case 'expired':
      return s.statusReason === 'certificate_expired' && certificate === 'valid' ? verify(s) : s;
  }
}

/** Pending, never pointed at us, and already holding a valid certificate (issued through the delegation). */
const preValidated = (s: DomainState, certificate: Probe['certificate']) =>
  s.status === 'pending' && s.firstSeenCorrectDnsAt === undefined && certificate === 'valid';

function onWrongDns(s: DomainState, probe: Probe, now: Date): DomainState {
  if (s.status === 'expired' || (s.status === 'failed' && s.statusReason === 'origin_blocked')) return s;
  // Waiting for the customer's cutover is no mistake: no DNS message, and no 7-day failure.
  if (preValidated(s, probe.certificate)) return { ...s, monitorStatus: 'ready_to_switch', dnsProblem: undefined };
  const next: DomainState = {
    ...s,
    monitorStatus: probe.dns === 'incorrect' ? 'dns_incorrect' : 'dns_not_resolving',
    dnsProblem: probe.problem,
  };
  if (s.status === 'failed') return next;
  if (s.status === 'pending' && s.firstSeenCorrectDnsAt === undefined) {
    const waited = now.getTime() - Date.parse(s.createdAt);
    return waited >= NEVER_CORRECT_DNS_GRACE_MS ? fail(next, 'dns_never_correct') : next;
  }
  return s.consecutiveWrongDnsProbes >= WRONG_DNS_PROBES_TO_FAIL ? fail(next, 'dns_drift') : next;
}

function onProbe(state: DomainState, probe: Probe, now: Date): DomainState {
  const at = now.toISOString();
  const s: DomainState = {
    ...state,
    lastProbeAt: at,
    certificateError:
      probe.certificate === 'failed' ? (probe.certificateMessage ?? state.certificateError) : state.certificateError,
  };
  if (probe.dns === 'correct') {
    return onCorrectDns(
      {
        ...s,
        firstSeenCorrectDnsAt: s.firstSeenCorrectDnsAt ?? at,
        consecutiveWrongDnsProbes: 0,
        dnsProblem: undefined,
      },
      probe.certificate,
    );
  }
  // Counted only once DNS has been right (the drift rule reads it): a domain never pointed at us fails
  // by time, so each of its probes that sees the same as the last changes nothing and writes nothing.
  const wrong = s.firstSeenCorrectDnsAt === undefined ? 0 : s.consecutiveWrongDnsProbes + 1;
  return onWrongDns({ ...s, consecutiveWrongDnsProbes: wrong }, probe, now);
}

function onCertificateIssued(state: DomainState, expiresAt: string, renewAt?: string): DomainState {
  const s: DomainState = {
    ...state,
    certificateExpiresAt: expiresAt,
    certificateRenewAt: renewAt,
    certificateError: undefined,
  };
  const waitingForCertificate = ['unknown', 'pending_ssl', 'ssl_failed', 'ssl_expired'].includes(s.monitorStatus);
  if (s.status === 'verified') return waitingForCertificate ? { ...s, monitorStatus: 'active_ssl' } : s;
  const revivable = s.status === 'pending' || (s.status === 'expired' && s.statusReason === 'certificate_expired');
  if (revivable && dnsCorrect(s)) return verify(s);
  return preValidated(s, 'valid') ? { ...s, monitorStatus: 'ready_to_switch', dnsProblem: undefined } : s;
}

export function nextState(state: DomainState, input: DomainInput, now: Date): DomainState {
  // A hostname taken over by another workspace is final: only a delete changes the domain.
  if (state.statusReason === 'moved_to_another_owner' && input.type !== 'deleted') return state;
  const live = state.status === 'pending' || state.status === 'verified';
  switch (input.type) {
    case 'hostname_claimed':
      return { ...fail(state, 'moved_to_another_owner'), monitorStatus: 'dns_incorrect', dnsProblem: undefined };
    case 'probe_observed':
      return onProbe(state, input, now);
    case 'origin_blocked':
      if (state.status === 'expired') return state;
      return { ...fail(state, 'origin_blocked'), monitorStatus: 'target_not_loading' };
    case 'origin_allowed':
      // A new, allowed origin lifts an origin failure; the next probe decides from there.
      return state.status === 'failed' && state.statusReason === 'origin_blocked' ? toPending(state, 'unknown') : state;
    case 'certificate_issued':
      return onCertificateIssued(state, input.expiresAt, input.renewAt);
    case 'certificate_renewal_advised':
      return state.certificateExpiresAt ? { ...state, certificateRenewAt: input.renewAt } : state;
    case 'certificate_failed':
      return { ...state, certificateError: input.reason, ...(live ? { monitorStatus: 'ssl_failed' as const } : {}) };
    case 'certificate_expired':
      if (state.status === 'verified') return { ...expire(state, 'certificate_expired'), monitorStatus: 'ssl_expired' };
      return state.status === 'pending' ? { ...state, monitorStatus: 'ssl_expired' } : state;
    case 'billing_ended':
      return expire(state, 'billing_ended');
    case 'deleted':
      return { ...state, deleted: true };
  }
}
