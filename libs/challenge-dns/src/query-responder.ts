import { APP_CONFIG, AppConfig } from '@app/config';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ChallengeCopy } from './challenge-copy';
import { ChallengeDnsMetrics } from './challenge-dns.metrics';
import { readQuery, encodeResponse, udpLimit } from './model/wire-message';
import { answerQuery } from './model/zone-answer';
import { canonicalName, inZone, ZoneSettings } from './model/zone-names';

export type Transport = 'udp' | 'tcp';
const TCP_LIMIT = 65_535;

/** One query's bytes in, the response's bytes out (undefined: stay silent), counted by outcome. */
@Injectable()
export class QueryResponder {
  private readonly logger = new Logger(QueryResponder.name);
  private readonly metrics = ChallengeDnsMetrics.get();
  private readonly zone?: ZoneSettings;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly copy: ChallengeCopy,
  ) {
    const zone = config.challengeZone;
    if (zone) this.zone = { zone: canonicalName(zone.zone), nameservers: zone.nameservers };
  }

  async respond(bytes: Buffer, transport: Transport): Promise<Buffer | undefined> {
    try {
      return await this.answer(bytes, transport);
    } catch (error) {
      // A message dns-packet decoded but cannot encode back: silence, as for any other garbage.
      this.logger.debug({ error }, 'Dropped a DNS query that could not be answered');
      this.metrics.queries.inc({ transport, outcome: 'dropped' });
      return undefined;
    }
  }

  private async answer(bytes: Buffer, transport: Transport): Promise<Buffer | undefined> {
    const zone = this.zone!;
    const read = readQuery(bytes);
    if (read.kind !== 'query') {
      this.metrics.queries.inc({ transport, outcome: read.kind === 'drop' ? 'dropped' : 'formerr' });
      return read.kind === 'formerr' ? read.response : undefined;
    }
    const { query } = read;
    const question = query.questions?.length === 1 ? query.questions[0] : undefined;
    if (question?.type === 'TXT') {
      const name = canonicalName(question.name);
      if (name !== zone.zone && inZone(name, zone.zone) && !this.copy.hasLive(name, Date.now()))
        await this.copy.reloadForMiss();
    }
    const answer = answerQuery(query, zone, (name) => this.copy.values(name), Date.now());
    const encoded = encodeResponse(answer.response, transport === 'udp' ? udpLimit(query) : TCP_LIMIT);
    this.metrics.queries.inc({ transport, outcome: encoded.truncated ? 'truncated' : answer.outcome });
    return encoded.bytes;
  }

  rateLimited(transport: Transport): void {
    this.metrics.queries.inc({ transport, outcome: 'rate_limited' });
  }
}
