import { IsOmittable } from '@app/http';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsString, Length } from 'class-validator';
import { EVENT_TYPES } from '../../model/event-types';
import { IsWebhookUrl } from './is-webhook-url.validator';

const TYPES_MESSAGE = `each value in events must be one of: ${EVENT_TYPES.join(', ')}`;

export class CreateWebhookEndpointDto {
  /**
   * An absolute http or https URL (what deliveries can POST to). Whether its address is allowed (SSRF
   * rules) is judged at each delivery, which records a refusal.
   */
  @IsString()
  @Length(1, 2048)
  @IsWebhookUrl()
  url!: string;

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
