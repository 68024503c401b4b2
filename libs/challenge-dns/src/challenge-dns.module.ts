import { DynamicModule, Module } from '@nestjs/common';
import { ChallengeCopy } from './challenge-copy';
import { CHALLENGE_DNS_DEFAULTS, CHALLENGE_DNS_OPTIONS, ChallengeDnsOptions } from './challenge-dns.options';
import { ChallengeDnsServer } from './challenge-dns.server';
import { QueryResponder } from './query-responder';

/**
 * The authoritative DNS listener of ACME_CHALLENGE_ZONE (DNS-01 through a delegated challenge
 * name); idle when the zone is not configured. The edge brings it, on the edge's listen host.
 */
@Module({})
export class ChallengeDnsModule {
  static forRoot(overrides: Partial<ChallengeDnsOptions> = {}): DynamicModule {
    return {
      module: ChallengeDnsModule,
      providers: [
        { provide: CHALLENGE_DNS_OPTIONS, useValue: { ...CHALLENGE_DNS_DEFAULTS, ...overrides } },
        ChallengeCopy,
        QueryResponder,
        ChallengeDnsServer,
      ],
      exports: [ChallengeDnsServer],
    };
  }
}
