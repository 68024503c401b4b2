import { PreflightWarning } from '@app/hostname-rules';
import { ErrorEnvelope, createValidationPipe, mapError } from '@app/http';
import { DomainError } from '@app/kernel';
import { Injectable, Logger } from '@nestjs/common';
import { CreateDomain } from './create-domain.usecase';
import { DomainPreflight } from './domain-preflight.service';
import { DomainView } from '../model/domain.view';
import { CreateDomainDto } from './dto/create-domain.dto';

export interface BulkItemResult {
  index: number;
  status: number;
  domain?: DomainView;
  warnings?: PreflightWarning[];
  error?: ErrorEnvelope;
}

export interface BulkResult {
  results: BulkItemResult[];
  created: number;
  failed: number;
}

/** Items created at once; the actors and the DNS checks they wait on are the bottleneck, not the API. */
const CONCURRENCY = 8;

/**
 * POST /v1/domains/bulk: every item takes the same path as POST /v1/domains (validation, billing,
 * preflight, the actor's hostname check) and gets its own status; one failure never fails the rest.
 * A hostname repeated in the batch is 409 for every occurrence after the first.
 */
@Injectable()
export class BulkCreateDomains {
  private readonly logger = new Logger(BulkCreateDomains.name);
  private readonly pipe = createValidationPipe();

  constructor(
    private readonly creates: CreateDomain,
    private readonly preflight: DomainPreflight,
  ) {}

  async create(workspaceId: string, items: unknown[], requestId?: string): Promise<BulkResult> {
    const results: BulkItemResult[] = new Array<BulkItemResult>(items.length);
    const pending: { index: number; dto: CreateDomainDto }[] = [];
    const firstIndexOf = new Map<string, number>();
    for (const [index, item] of items.entries()) {
      try {
        const dto = await this.validate(item);
        const { hostname } = this.preflight.hostname(dto.hostname);
        const first = firstIndexOf.get(hostname);
        if (first !== undefined) {
          throw new DomainError('conflict', `${hostname} appears earlier in this batch (index ${first})`, {
            hostname,
            duplicateOf: first,
          });
        }
        firstIndexOf.set(hostname, index);
        pending.push({ index, dto });
      } catch (error) {
        results[index] = this.failure(index, error, requestId);
      }
    }
    let next = 0;
    const worker = async () => {
      while (next < pending.length) {
        const { index, dto } = pending[next++];
        try {
          const { domain, warnings } = await this.creates.execute(workspaceId, dto);
          results[index] = warnings ? { index, status: 201, domain, warnings } : { index, status: 201, domain };
        } catch (error) {
          results[index] = this.failure(index, error, requestId);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, pending.length) }, worker));
    const created = results.filter((r) => r.status === 201).length;
    return { results, created, failed: results.length - created };
  }

  /** The same validation as the body of POST /v1/domains (whitelist, unknown fields refused). */
  private async validate(item: unknown): Promise<CreateDomainDto> {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new DomainError('bad_request', 'Each item must be a JSON object like the body of POST /v1/domains');
    }
    return (await this.pipe.transform(item, { type: 'body', metatype: CreateDomainDto })) as CreateDomainDto;
  }

  private failure(index: number, error: unknown, requestId?: string): BulkItemResult {
    const mapped = mapError(error);
    if (mapped.unexpected) this.logger.error({ requestId, err: error, index }, 'Bulk create item failed unexpectedly');
    return { index, status: mapped.status, error: mapped.body };
  }
}
