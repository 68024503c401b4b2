import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { RegistrantDto } from './registrant.dto';

export class AutoConnectDto {
  @IsString()
  @MaxLength(2048)
  originUrl!: string;

  @IsOptional()
  @IsBoolean()
  keepHost?: boolean;
}

/** POST /v1/domain-purchases (SPEC 4.3). The hostname's own rules run in the use-case. */
export class CreatePurchaseDto {
  @IsString()
  @Length(3, 253)
  hostname!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10)
  years?: number;

  @IsDefined()
  @ValidateNested()
  @Type(() => RegistrantDto)
  registrant!: RegistrantDto;

  @IsOptional()
  @IsBoolean()
  enableWhoisPrivacy?: boolean;

  @IsOptional()
  @IsBoolean()
  autoRenew?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  maxTotalCents?: number;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  customerReference?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => AutoConnectDto)
  autoConnect?: AutoConnectDto;
}
