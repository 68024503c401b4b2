import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { DELIVERY_STATUSES, DeliveryStatus } from '../../model/delivery.view';
import { PageQueryDto } from '@app/http';

export class ListDeliveriesDto extends PageQueryDto {
  @IsOptional()
  @IsIn(DELIVERY_STATUSES)
  status?: DeliveryStatus;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  eventId?: string;
}
