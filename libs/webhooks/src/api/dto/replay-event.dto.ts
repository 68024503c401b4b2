import { IsOmittable } from '@app/http';
import { IsString, MaxLength } from 'class-validator';

/** Without `endpointId`: every enabled endpoint whose filter matches the event's type. */
export class ReplayEventDto {
  @IsOmittable()
  @IsString()
  @MaxLength(64)
  endpointId?: string;
}
