import { ChallengeDelegation, challengeDelegation, isWildcard, wildcardBase } from '@app/hostname-rules';
import { DomainRepository } from '@app/domains';
import { KeyObject } from 'node:crypto';
import { buildApplyUrl, DomainConnectDiscovery, DomainConnectView } from './domain-connect';
import { DomainConnectClient } from './domain-connect.client';
import { buildInstructions, ConnectInstructions, EdgeTarget } from './instructions.builder';
import { ProviderDetector } from './provider-detector.service';
import { registrableDomain } from './registrable-domain';

export interface InstructionsOptions {
  edge: EdgeTarget;
  /** The most the lookups may add to a request; slower ones answer as failed but still fill the caches. */
  lookupBudgetMs?: number;
  /** Our Domain Connect template ids and the optional signing key. */
  providerId: string;
  serviceId: string;
  signer?: { keyHost: string; privateKey: KeyObject };
  /** What the hostname's CAA records must change for a certificate (with the exact records), if anything. */
  caaProblem?: (hostname: string) => Promise<string | undefined>;
}

export interface InstructionsQuery {
  redirectUri?: string;
  state?: string;
}

const DEFAULT_LOOKUP_BUDGET_MS = 5_000;

/** The promise's value, or the fallback once `ms` have passed (the promise keeps running). */
function withDeadline<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The template's groups (libs/connect/templates): a CNAME to our target, or an A record to our first
 * edge address; with a challenge zone, also the `_acme-challenge` delegation.
 */
const TEMPLATE_GROUPS = { cname: 'cname', a: 'a', delegation: 'delegation' } as const;

/** Reads the domain, detects its DNS provider and Domain Connect support, and builds the instructions. */
export class ConnectInstructionsService {
  constructor(
    private readonly domains: DomainRepository,
    private readonly detector: ProviderDetector,
    private readonly domainConnect: DomainConnectClient,
    private readonly options: InstructionsOptions,
  ) {}

  async instructions(workspaceId: string, id: string, query: InstructionsQuery): Promise<ConnectInstructions> {
    const domain = await this.domains.get(workspaceId, id);
    const hostname = domain.hostname;
    // A wildcard's zone and provider are those of the name under its `*` label.
    const named = wildcardBase(hostname);
    const root = registrableDomain(named);
    // Both lookups are independent and never throw: DNS trouble gives generic instructions.
    const budget = this.options.lookupBudgetMs ?? DEFAULT_LOOKUP_BUDGET_MS;
    const caa = this.options.caaProblem?.(hostname).catch(() => undefined) ?? Promise.resolve(undefined);
    const [detection, discovery, caaProblem] = await Promise.all([
      withDeadline(this.detector.detect(named), budget, { zone: root, nameservers: [], lookupFailed: true }),
      withDeadline<DomainConnectDiscovery>(this.domainConnect.discover(root), budget, {
        supported: false,
        reason: 'lookup_failed',
      }),
      withDeadline(caa, budget, undefined),
    ]);
    const zone = this.options.edge.challengeZone;
    const delegation = zone ? challengeDelegation(hostname, domain.workspaceId, zone) : undefined;
    const domainConnect = this.view(discovery, hostname, root, query, delegation);
    return buildInstructions({
      hostname,
      registrableDomain: root,
      zone: detection.zone,
      provider: detection.provider,
      nameservers: detection.nameservers,
      edge: this.options.edge,
      domainConnect,
      caaProblem,
      ...(delegation ? { delegation } : {}),
    });
  }

  private view(
    discovery: DomainConnectDiscovery,
    hostname: string,
    root: string,
    query: InstructionsQuery,
    delegation?: ChallengeDelegation,
  ): DomainConnectView {
    const settings = discovery.settings;
    const provider = settings && {
      providerId: settings.providerId,
      providerName: settings.providerName,
      providerDisplayName: settings.providerDisplayName,
      width: settings.width,
      height: settings.height,
      ...(settings.urlControlPanel ? { urlControlPanel: settings.urlControlPanel } : {}),
    };
    if (!discovery.supported) return { supported: false, reason: discovery.reason, ...provider };
    const { edge, providerId, serviceId, signer } = this.options;
    // A template applied at the root writes an A record: a CNAME there is refused by most providers'
    // template engines even where their editors flatten one.
    const atRoot = hostname === root;
    // The delegation's host is relative to the applied host: right for any name but a wildcard, whose
    // `_acme-challenge` sits beside the `*` label (it stays a step of the instructions).
    const delegated = delegation && !isWildcard(hostname);
    const groups = [
      atRoot ? TEMPLATE_GROUPS.a : TEMPLATE_GROUPS.cname,
      ...(delegated ? [TEMPLATE_GROUPS.delegation] : []),
    ];
    const variables: Array<[string, string]> = [atRoot ? ['ip', edge.ipv4[0]] : ['target', edge.cnameTarget]];
    if (delegated) variables.push(['challenge', delegation.target]);
    const applyUrl = buildApplyUrl(
      discovery.settings.urlSyncUX!,
      {
        providerId,
        serviceId,
        domain: root,
        host: atRoot ? '' : hostname.slice(0, -(root.length + 1)),
        variables,
        groupId: groups.join(','),
        redirectUri: query.redirectUri,
        state: query.state,
      },
      signer,
    );
    return { supported: true, ...provider, applyUrl };
  }
}
