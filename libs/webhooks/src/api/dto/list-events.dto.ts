import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsISO8601, IsOptional } from 'class-validator';
import { EVENT_TYPES } from '../../model/event-types';
import { PageQueryDto } from '@app/http';

/** `type=a&type=b` or `type=a,b`. */
const list = ({ value }: { value: unknown }): unknown =>
  (Array.isArray(value) ? value : [value]).flatMap((v) => String(v).split(',')).filter(Boolean);

export class ListEventsDto extends PageQueryDto {
  @IsOptional()
  @Transform(list)
  @IsArray()
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true, message: `each value in type must be one of: ${EVENT_TYPES.join(', ')}` })
  type?: string[];

  /** Inclusive; a date-time, or a date (from its start). */
  @IsOptional()
  @IsISO8601({ strict: true })
  createdAfter?: string;

  /** Inclusive; a date-time, or a date (to its end). */
  @IsOptional()
  @IsISO8601({ strict: true })
  createdBefore?: string;
}
