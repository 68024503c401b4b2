import { IsOmittable } from '@app/http';
import { REGISTRAR_DNS_RECORD_TYPES, RegistrarDnsRecordType } from '@app/registrar';
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

/** SPEC 2.7. */
export class RegistrarDnsRecordDto {
  @IsIn(REGISTRAR_DNS_RECORD_TYPES)
  type!: RegistrarDnsRecordType;

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
