import { arrayOf, bool, Infer, obj, oneOfValues, ref, str } from '@app/kernel';
import { dnsRecordSchema, type DnsRecordView } from '@app/domains';
import { isWildcard } from '@app/hostname-rules';
import { DomainConnectView, domainConnectViewSchema } from './domain-connect';
import { ProviderProfile } from './provider-profile';

export interface EdgeTarget {
  cnameTarget: string;
  ipv4: string[];
  /** ACME_CHALLENGE_ZONE: customers may delegate `_acme-challenge` to it. */
  challengeZone?: string;
}

/** A record to add: a Domain's DnsRecord (`traffic` to the edge, `certificate` the `_acme-challenge` delegation). */
type InstructionRecord = DnsRecordView;

/** How the customer points the hostname at the edge: A records or a CNAME. */
export const CONNECT_METHODS = ['a', 'cname'] as const;
type ConnectMethod = (typeof CONNECT_METHODS)[number];

/** The connect instructions object (SPEC 2.3); its records are a Domain's (`DnsRecord`). */
export const connectInstructionsSchema = obj({
  hostname: str(),
  provider: obj({ id: str(), name: str(), detected: bool }),
  apex: bool,
  method: oneOfValues(...CONNECT_METHODS),
  methodReason: str(),
  records: arrayOf(ref('DnsRecord', dnsRecordSchema)),
  steps: arrayOf(str()),
  quirks: arrayOf(str()),
  dashboardUrl: str(),
  domainConnect: domainConnectViewSchema,
});
export type ConnectInstructions = Infer<typeof connectInstructionsSchema>;

export interface InstructionsInput {
  hostname: string;
  /** The registrable domain of the hostname. */
  registrableDomain: string;
  /** The zone that holds the hostname (the registrable domain unless a subzone is delegated). */
  zone: string;
  /** The detected provider; undefined for an unknown provider or a failed lookup. */
  provider?: ProviderProfile;
  nameservers: string[];
  edge: EdgeTarget;
  domainConnect: DomainConnectView;
  /** The hostname's CAA records forbid our CAs: this says which records to add (a step of its own). */
  caaProblem?: string;
  /** The `_acme-challenge` delegation (full names), where a challenge zone is set up. */
  delegation?: { name: string; target: string };
}

const GENERIC_TTL = 3600;

/** Fills `{domain}` (the zone) and `{label}` (the hostname's label, or `www` as an example at the apex). */
const fill = (text: string, domain: string, label = 'www') =>
  text.replaceAll('{domain}', domain).replaceAll('{label}', label);

/** The record name as the provider's editor wants it: the label inside the zone, `@`/empty at the apex, or the full name. */
function editorName(hostname: string, zone: string, provider?: ProviderProfile): string {
  const style = provider?.recordName ?? { apex: '@', style: 'relative' };
  if (style.style === 'fqdn') return hostname;
  if (hostname === zone) return style.apex;
  return hostname.endsWith(`.${zone}`) ? hostname.slice(0, -(zone.length + 1)) : hostname;
}

function chooseMethod(input: InstructionsInput, atZoneApex: boolean): { method: ConnectMethod; reason: string } {
  const { hostname, provider, edge } = input;
  const target = edge.cnameTarget;
  if (!atZoneApex) {
    return {
      method: 'cname',
      reason: `${hostname} is a subdomain, so one CNAME record to ${target} points it at our edge and keeps working if our addresses change.`,
    };
  }
  if (provider?.apexCname === 'flattening') {
    return {
      method: 'cname',
      reason: `${hostname} is the apex of its zone; ${provider.name} flattens a CNAME there (answering with ${target}'s addresses), so a CNAME keeps working if our addresses change.`,
    };
  }
  if (provider?.apexCname === 'alias') {
    return {
      method: 'cname',
      reason: `${hostname} is the apex of its zone; ${provider.name} offers an ${provider.aliasRecordType} record there that follows ${target} like a CNAME, so choose ${provider.aliasRecordType} as the record type.`,
    };
  }
  const who = provider
    ? `${provider.name} does not allow a CNAME there`
    : "DNS does not allow a CNAME next to the zone's own records";
  return {
    method: 'a',
    reason: `${hostname} is the apex of its zone and ${who}, so point it at our edge with ${edge.ipv4.length > 1 ? 'A records' : 'an A record'} to ${edge.ipv4.join(', ')}.`,
  };
}

function recordStep(
  record: InstructionRecord,
  provider: ProviderProfile | undefined,
  method: ConnectMethod,
  atZoneApex: boolean,
): string {
  const fields = provider?.fields ?? { name: 'Name (Host)', value: 'Value (Points to)' };
  const type =
    method === 'cname' && atZoneApex && provider?.apexCname === 'alias'
      ? (provider.aliasRecordType ?? 'ALIAS')
      : record.type;
  const name = record.name === '' ? '(leave empty)' : `"${record.name}"`;
  const ttl = provider?.ttlLabel ? `${provider.ttlLabel}` : `${record.ttl} seconds`;
  const article = /^[AEIOU]/.test(type) ? 'an' : 'a';
  return `Add ${article} ${type} record: ${fields.name} ${name}, ${fields.value} "${record.value}", TTL ${ttl}.`;
}

function delegationRecord(input: InstructionsInput, ttl: number): InstructionRecord | undefined {
  if (!input.delegation) return undefined;
  const name = editorName(input.delegation.name, input.zone, input.provider);
  return { type: 'CNAME', name, value: input.delegation.target, ttl, purpose: 'certificate' };
}

/** Why the delegation is asked for: required for a wildcard, for any name a certificate before the cutover. */
function delegationStep(record: InstructionRecord, hostname: string, provider: ProviderProfile | undefined): string {
  const add = recordStep(record, provider, 'cname', false);
  return isWildcard(hostname)
    ? `${add} A wildcard certificate is validated through it: we issue and renew it without touching your DNS again.`
    : `${add} Optional but recommended: with it we issue the certificate before your traffic moves, so HTTPS works from the first request, and renew it without touching your DNS again.`;
}

/**
 * Provider-aware connect instructions for one hostname. Pure: detection and Domain Connect
 * discovery happen before, and an unknown provider gets generic steps rather than an error.
 */
export function buildInstructions(input: InstructionsInput): ConnectInstructions {
  const { hostname, zone, provider, edge } = input;
  const apex = hostname === input.registrableDomain;
  const atZoneApex = apex || hostname === zone;
  const { method, reason } = chooseMethod(input, atZoneApex);
  const name = editorName(hostname, zone, provider);
  const ttl = provider?.ttl ?? GENERIC_TTL;
  const purpose = 'traffic';
  const traffic: InstructionRecord[] =
    method === 'cname'
      ? [{ type: 'CNAME', name, value: edge.cnameTarget, ttl, purpose }]
      : edge.ipv4.map((value) => ({ type: 'A', name, value, ttl, purpose }));
  const delegation = delegationRecord(input, ttl);
  const records = delegation ? [...traffic, delegation] : traffic;

  const shownName = name === '' ? `the apex of ${zone}` : `"${name}"`;
  const conflicts = `Delete any other A, AAAA or CNAME record at ${shownName} (these would conflict); leave MX, TXT and records of other names alone.`;
  const finish =
    'Save, then come back here and press "Check now": we verify the record and issue the certificate automatically.';
  const steps = provider
    ? [
        ...provider.steps.map((step) => fill(step, zone)),
        conflicts,
        ...traffic.map((record) => recordStep(record, provider, method, atZoneApex)),
        ...(delegation ? [delegationStep(delegation, hostname, provider)] : []),
        ...(input.caaProblem ? [input.caaProblem] : []),
        finish,
        provider.propagation,
      ]
    : [
        `Sign in where the DNS of ${zone} is managed: usually the registrar where you bought it, or the DNS host its nameservers point to${input.nameservers.length ? ` (${input.nameservers.slice(0, 4).join(', ')})` : ''}.`,
        'Open the DNS settings (often called DNS records, Zone editor or Advanced DNS).',
        conflicts,
        ...traffic.map((record) => recordStep(record, undefined, method, atZoneApex)),
        ...(delegation ? [delegationStep(delegation, hostname, undefined)] : []),
        ...(input.caaProblem ? [input.caaProblem] : []),
        finish,
        "DNS changes usually take effect within minutes, but can take up to the old record's TTL (often an hour).",
      ];

  const label = atZoneApex ? undefined : name;
  const quirks = provider
    ? provider.quirks.map((quirk) => fill(quirk, zone, label))
    : [
        `Most editors want only the label ("${name || '@'}") and append ${zone} themselves; if yours asks for the full name, enter ${hostname}. Typing the full name where a label is expected creates ${hostname}.${zone}.`,
        'For the apex, editors use "@" or an empty name.',
        'If your DNS host offers a proxy or CDN toggle for the record, turn it off (DNS only): we must see our own edge to issue the certificate.',
      ];

  const detected = Boolean(provider);
  const dc = input.domainConnect;
  const controlPanel = dc.urlControlPanel?.replaceAll('%domain%', zone);
  return {
    hostname,
    provider: detected
      ? { id: provider!.id, name: provider!.name, detected: true }
      : { id: 'unknown', name: dc.providerDisplayName ?? 'Your DNS provider', detected: false },
    apex,
    method,
    methodReason: reason,
    records,
    steps,
    quirks,
    dashboardUrl: provider ? fill(provider.dashboardUrl, zone) : (controlPanel ?? ''),
    domainConnect: dc.urlControlPanel ? { ...dc, urlControlPanel: controlPanel } : dc,
  };
}
