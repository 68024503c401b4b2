import { IsBoolean, IsIn, IsOptional } from 'class-validator';
import { DOMAIN_MODES, DomainMode } from '../domain.record';
import { IsMetadata } from './domain-settings.validators';

/** The optional settings shared by create and patch. */
export class DomainSettingsDto {
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
