import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Without `endpointId`: every enabled endpoint whose filter matches the event's type. */
export class ReplayEventDto {
  @IsOptional()
  @IsString()
  @MaxLength(64)
  endpointId?: string;
}
