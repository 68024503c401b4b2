import { IsOmittable } from '@app/http';
import { IsString, Length } from 'class-validator';
import { IsWebhookUrl } from './is-webhook-url.validator';
import { WebhookEndpointSettingsDto } from './webhook-endpoint-settings.dto';

/** Only the fields sent change; at least one is required. */
export class UpdateWebhookEndpointDto extends WebhookEndpointSettingsDto {
  @IsOmittable()
  @IsString()
  @Length(1, 2048)
  @IsWebhookUrl()
  url?: string;
}
