import { IsBoolean, IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { DOMAIN_MODES, DomainMode } from '../domain.record';
import { IsMetadata } from './domain-settings.validators';

export class CreateDomainDto {
  @IsString()
  @Length(1, 253)
  hostname!: string;

  @IsString()
  @MaxLength(2048)
  originUrl!: string;

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
