import { IsOmittable } from '@app/http';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsInt,
  IsObject,
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

  @IsOmittable()
  @IsBoolean()
  keepHost?: boolean;
}

/** POST /v1/domain-purchases (SPEC 4.3). The hostname's own rules run in the use-case. */
export class CreatePurchaseDto {
  @IsString()
  @Length(3, 253)
  hostname!: string;

  @IsOmittable()
  @IsInt()
  @Min(1)
  @Max(10)
  years?: number;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RegistrantDto)
  registrant!: RegistrantDto;

  @IsOmittable()
  @IsBoolean()
  enableWhoisPrivacy?: boolean;

  @IsOmittable()
  @IsBoolean()
  autoRenew?: boolean;

  @IsOmittable()
  @IsInt()
  @Min(1)
  maxTotalCents?: number;

  @IsOmittable()
  @IsString()
  @MaxLength(256)
  customerReference?: string;

  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => AutoConnectDto)
  autoConnect?: AutoConnectDto;
}
