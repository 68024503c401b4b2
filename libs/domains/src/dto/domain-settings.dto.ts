import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
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

  /** A project of the workspace; null (on patch) detaches the domain from its project. */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  projectId?: string | null;
}
