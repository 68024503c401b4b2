import { PageQueryDto } from '@app/http';
import { Transform } from 'class-transformer';
import { IsArray, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { PURCHASE_STATUSES, PurchaseStatus } from '../../model/purchase-saga.types';

/** A calendar date (`2026-11-22`) or an ISO 8601 date-time. */
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2}))?$/;

export class ListPurchasesDto extends PageQueryDto {
  @IsOptional()
  @IsString()
  @MaxLength(253)
  hostname?: string;

  /** Repeatable: `?status=completed&status=refunded`. */
  @IsOptional()
  @Transform(({ value }: { value: unknown }): unknown[] => (Array.isArray(value) ? (value as unknown[]) : [value]))
  @IsArray()
  @IsIn(PURCHASE_STATUSES, { each: true })
  status?: PurchaseStatus[];

  @IsOptional()
  @IsString()
  @MaxLength(256)
  customerReference?: string;

  @IsOptional()
  @Matches(DATE, { message: 'createdAfter must be a date (YYYY-MM-DD) or an ISO 8601 date-time' })
  createdAfter?: string;

  @IsOptional()
  @Matches(DATE, { message: 'createdBefore must be a date (YYYY-MM-DD) or an ISO 8601 date-time' })
  createdBefore?: string;
}
