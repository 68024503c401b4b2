import { IsOmittable } from '@app/http';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsString,
  Length,
  Max,
  Min,
  Validate,
  ValidateNested,
} from 'class-validator';
import { IsRegistrarRecordValue, MxPriority } from './purchase.validators';

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SRV', 'URL', 'URL301', 'FRAME'] as const;

/** SPEC 2.7. */
export class RegistrarDnsRecordDto {
  @IsIn(DNS_RECORD_TYPES)
  type!: (typeof DNS_RECORD_TYPES)[number];

  @IsString()
  @Length(1, 253)
  name!: string;

  @IsString()
  @Length(1, 2048)
  @Validate(IsRegistrarRecordValue)
  value!: string;

  @IsOmittable()
  @IsInt()
  @Min(60)
  @Max(86_400)
  ttl?: number;

  /** Required for MX (an integer 0-65535); other types may not carry it. */
  @Validate(MxPriority)
  priority?: number;
}

export class PutDnsRecordsDto {
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => RegistrarDnsRecordDto)
  records!: RegistrarDnsRecordDto[];
}
