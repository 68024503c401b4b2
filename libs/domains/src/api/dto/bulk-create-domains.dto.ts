import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

const BULK_MAX_DOMAINS = 100;

/** The items are validated one by one (as CreateDomainDto), so one bad item fails only itself. */
export class BulkCreateDomainsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BULK_MAX_DOMAINS)
  @JSONSchema({ items: { $ref: '#/components/schemas/CreateDomainDto' } })
  domains!: unknown[];
}
