import { IsIn, IsString, Length, Matches } from 'class-validator';
import { DNS_PROVIDER_IDS, DnsProviderId } from '../dns-provider';

export class DnsApplyDto {
  @IsIn(DNS_PROVIDER_IDS)
  provider!: DnsProviderId;

  /** The customer's DNS API token: used for this request only. Printable ASCII, so it is a valid header value. */
  @IsString()
  @Length(1, 512)
  @Matches(/^[\x21-\x7e]+$/, { message: 'token must be an API token (printable characters, no spaces)' })
  token!: string;
}
