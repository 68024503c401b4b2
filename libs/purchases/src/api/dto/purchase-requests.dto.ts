import { IsOmittable } from '@app/http';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsInt, IsString, Length, Max, Min } from 'class-validator';

export class UpdatePurchaseDto {
  @IsDefined()
  @IsBoolean()
  autoRenew!: boolean;
}

export class RenewPurchaseDto {
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(10)
  years!: number;

  /** The most the renewal may charge (the price the caller confirmed): above it, 409 price_changed and no charge. */
  @IsOmittable()
  @IsInt()
  @Min(1)
  maxTotalCents?: number;
}

/** 0-13 names; each is checked as a hostname in the use-case. */
export class NameserversDto {
  @IsArray()
  @ArrayMaxSize(13)
  @IsString({ each: true })
  @Length(1, 253, { each: true })
  nameservers!: string[];
}

export class CheckPurchaseDto {
  @IsString()
  @Length(1, 253)
  hostname!: string;
}
