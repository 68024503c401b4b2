import { DomainRepository } from '@app/domains';
import { KeyObject } from 'node:crypto';
import { buildApplyUrl, DomainConnectDiscovery, DomainConnectView } from './domain-connect';
import { DomainConnectClient } from './domain-connect.client';
import { buildInstructions, ConnectInstructions, EdgeTarget } from './instructions.builder';
import { ProviderDetector } from './provider-detector.service';
import { registrableDomain } from './registrable-domain';

export interface InstructionsOptions {
  edge: EdgeTarget;
  /** Our Domain Connect template ids and the optional signing key. */
  providerId: string;
  serviceId: string;
  signer?: { keyHost: string; privateKey: KeyObject };
}

export interface InstructionsQuery {
  redirectUri?: string;
  state?: string;
}

/** The template's groups (libs/connect/templates): a CNAME to our target, or an A record to our first edge address. */
export const TEMPLATE_GROUPS = { cname: 'cname', a: 'a' } as const;

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
    const root = registrableDomain(hostname);
    // Both lookups are independent and never throw: DNS trouble gives generic instructions.
    const [detection, discovery] = await Promise.all([
      this.detector.detect(hostname),
      this.domainConnect.discover(root),
    ]);
    const domainConnect = this.view(discovery, hostname, root, query);
    return buildInstructions({
      hostname,
      registrableDomain: root,
      zone: detection.zone,
      provider: detection.provider,
      nameservers: detection.nameservers,
      edge: this.options.edge,
      domainConnect,
    });
  }

  private view(
    discovery: DomainConnectDiscovery,
    hostname: string,
    root: string,
    query: InstructionsQuery,
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
    const applyUrl = buildApplyUrl(
      discovery.settings.urlSyncUX!,
      {
        providerId,
        serviceId,
        domain: root,
        host: atRoot ? '' : hostname.slice(0, -(root.length + 1)),
        variables: atRoot ? [['ip', edge.ipv4[0]]] : [['target', edge.cnameTarget]],
        groupId: atRoot ? TEMPLATE_GROUPS.a : TEMPLATE_GROUPS.cname,
        redirectUri: query.redirectUri,
        state: query.state,
      },
      signer,
    );
    return { supported: true, ...provider, applyUrl };
  }
}
