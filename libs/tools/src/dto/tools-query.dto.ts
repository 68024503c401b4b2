import { LOOKUP_TYPES, LookupType } from '@app/dns';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { IsLookupHostname } from './lookup-hostname.validator';
import { LookupTypeSchema } from './lookup-type.schema';
import { IsRecordValue } from './record-value.validator';

const upper = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toUpperCase() : value);
const TYPE_MESSAGE = `type must be one of ${LOOKUP_TYPES.join(', ')}`;

export class HostnameQueryDto {
  @IsLookupHostname()
  hostname!: string;
}

export class DnsLookupQueryDto extends HostnameQueryDto {
  /** Omitted: every type. */
  @IsOptional()
  @Transform(upper)
  @IsIn(LOOKUP_TYPES, { message: TYPE_MESSAGE })
  @LookupTypeSchema()
  type?: LookupType;
}

export class PropagationQueryDto extends HostnameQueryDto {
  /** Default A. */
  @IsOptional()
  @Transform(upper)
  @IsIn(LOOKUP_TYPES, { message: TYPE_MESSAGE })
  @LookupTypeSchema()
  type?: LookupType;

  /** Repeat `expected` (or separate by commas, except for TXT) for several values. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @MaxLength(2048, { each: true })
  @IsRecordValue({ commaSeparated: true })
  expected?: string[];
}

export class TlsCheckQueryDto extends HostnameQueryDto {
  /** Default 443; must be one of TLS_CHECK_PORTS. */
  @IsOptional()
  @Type(() => Number)
  @ValidateBy({
    name: 'isPort',
    validator: {
      validate: (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 65535,
      defaultMessage: () => 'port must be an integer from 1 to 65535',
    },
  })
  port?: number;
}
