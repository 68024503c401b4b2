import { IsOmittable } from '@app/http';
import { IsString, MaxLength } from 'class-validator';
import { DomainSettingsDto } from './domain-settings.dto';
import { IsAbsent } from './domain-settings.validators';

/** Only sent fields change; `hostname` is immutable and refused with a message that says so. */
export class UpdateDomainDto extends DomainSettingsDto {
  @IsAbsent('hostname is immutable: delete the domain and connect the new hostname instead')
  hostname?: never;

  @IsOmittable()
  @IsString()
  @MaxLength(2048)
  originUrl?: string;
}
