import { IsString, Length, MaxLength } from 'class-validator';
import { DomainSettingsDto } from './domain-settings.dto';

export class CreateDomainDto extends DomainSettingsDto {
  @IsString()
  @Length(1, 253)
  hostname!: string;

  @IsString()
  @MaxLength(2048)
  originUrl!: string;
}
