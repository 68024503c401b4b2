import { IsOmittable } from '@app/http';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn } from 'class-validator';
import { EVENT_TYPES } from '../../model/event-types';

const TYPES_MESSAGE = `each value in events must be one of: ${EVENT_TYPES.join(', ')}`;

/** The optional settings shared by create and patch. */
export class WebhookEndpointSettingsDto {
  /** Empty (or absent) means every event type. */
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(EVENT_TYPES.length * 2)
  @IsIn(EVENT_TYPES, { each: true, message: TYPES_MESSAGE })
  events?: string[];

  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;
}
