import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DOMAIN_MODES, DomainMode } from '../domain.record';
import { IsAbsent, IsMetadata } from './domain-settings.validators';

/** Only sent fields change; `hostname` is immutable and refused by the use-case with a clear message. */
export class UpdateDomainDto {
  @IsAbsent('hostname is immutable: delete the domain and connect the new hostname instead')
  hostname?: never;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  originUrl?: string;

  @IsOptional()
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @IsOptional()
  @IsIn(DOMAIN_MODES)
  mode?: DomainMode;

  @IsOptional()
  @IsBoolean()
  keepHost?: boolean;

  @IsOptional()
  @IsBoolean()
  redirectWww?: boolean;

  @IsOptional()
  @IsIn([301, 302])
  redirectStatus?: 301 | 302;
}
