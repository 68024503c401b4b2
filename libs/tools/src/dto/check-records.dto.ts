import { IsOmittable } from '@app/http';
import { LOOKUP_TYPES, LookupType } from '@app/dns';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { IsLookupHostname } from './lookup-hostname.validator';
import { LookupTypeSchema } from './lookup-type.schema';
import { IsRecordValue } from './record-value.validator';

const MAX_RECORDS_PER_CHECK = 100;
const MAX_CHECKS_PER_BATCH = 100;
/** Lookups per batch call are bounded by the total of records across its checks. */
export const MAX_RECORDS_PER_BATCH = 1_000;

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);

export class ExpectedRecordDto {
  @Transform(upper)
  @IsIn(LOOKUP_TYPES, { message: `type must be one of ${LOOKUP_TYPES.join(', ')}` })
  @LookupTypeSchema()
  type!: LookupType;

  /** `@` or omitted: the hostname; relative (`_acme-challenge`) or absolute (ending in a dot, or under the hostname). */
  @IsOmittable()
  @IsString()
  @MaxLength(253)
  @Matches(/^(@|[A-Za-z0-9_*-]+(\.[A-Za-z0-9_*-]+)*\.?)$/, {
    message: 'name must be @, a relative name like _acme-challenge or a full name',
  })
  name?: string;

  @IsString()
  @MinLength(1)
  @MaxLength(2048)
  @IsRecordValue()
  value!: string;
}

export class CheckRecordsDto {
  @IsLookupHostname()
  hostname!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_RECORDS_PER_CHECK)
  @ValidateNested({ each: true })
  @Type(() => ExpectedRecordDto)
  records!: ExpectedRecordDto[];
}

export class CheckRecordsBatchDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_CHECKS_PER_BATCH)
  @ValidateNested({ each: true })
  @Type(() => CheckRecordsDto)
  checks!: CheckRecordsDto[];
}
