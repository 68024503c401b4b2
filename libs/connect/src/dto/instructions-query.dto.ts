import { IsOptional, IsString, IsUrl, MaxLength } from 'class-validator';

/** GET /v1/domains/{id}/instructions query: where Domain Connect returns the customer, and an opaque state. */
export class InstructionsQueryDto {
  @IsOptional()
  @IsUrl({ protocols: ['https', 'http'], require_protocol: true, require_tld: false })
  @MaxLength(2048)
  redirect_uri?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  state?: string;
}
