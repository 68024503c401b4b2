import { IsNullable, IsOmittable } from '@app/http';
import { IsBoolean, IsIn, IsString, MaxLength } from 'class-validator';
import { DOMAIN_MODES, DomainMode, REDIRECT_STATUSES, RedirectStatus } from '../../model/domain.record';
import { IsMetadata } from './domain-settings.validators';

/** The optional settings shared by create and patch. */
export class DomainSettingsDto {
  @IsOmittable()
  @IsMetadata()
  metadata?: Record<string, unknown>;

  @IsOmittable()
  @IsIn(DOMAIN_MODES)
  mode?: DomainMode;

  @IsOmittable()
  @IsBoolean()
  keepHost?: boolean;

  @IsOmittable()
  @IsBoolean()
  redirectWww?: boolean;

  @IsOmittable()
  @IsIn(REDIRECT_STATUSES)
  redirectStatus?: RedirectStatus;

  /** A project of the workspace; null means none (on patch: detaches the domain from its project). */
  @IsNullable()
  @IsString()
  @MaxLength(100)
  projectId?: string | null;
}
