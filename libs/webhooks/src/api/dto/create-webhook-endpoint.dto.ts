import { IsString, Length } from 'class-validator';
import { IsWebhookUrl } from './is-webhook-url.validator';
import { WebhookEndpointSettingsDto } from './webhook-endpoint-settings.dto';

export class CreateWebhookEndpointDto extends WebhookEndpointSettingsDto {
  /**
   * An absolute http or https URL (what deliveries can POST to). Whether its address is allowed (SSRF
   * rules) is judged at each delivery, which records a refusal.
   */
  @IsString()
  @Length(1, 2048)
  @IsWebhookUrl()
  url!: string;
}
