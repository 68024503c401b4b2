import { OriginPreflight } from '@app/dns';
import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { AutoConnectSettings } from '../model/purchase.record';
import { AutoConnectDto } from './dto/create-purchase.dto';

/** autoConnect's settings (also a connect call's body): an https origin that passes the SSRF rules. */
@Injectable()
export class AutoConnectCheck {
  constructor(private readonly origins: OriginPreflight) {}

  async settings(dto: AutoConnectDto, prefix: string): Promise<AutoConnectSettings> {
    const field = `${prefix}originUrl`;
    const originUrl = dto.originUrl.trim();
    if (!/^https:\/\//i.test(originUrl)) {
      throw new DomainError('bad_request', `${field} must be an https URL`, {
        fields: [{ field, problems: ['must be an https URL'] }],
      });
    }
    await this.origins.check(originUrl, field);
    return { originUrl, keepHost: dto.keepHost ?? false };
  }
}
