import { AcmeIssuerConfig } from '@app/config';
import { Injectable, Logger } from '@nestjs/common';
import { randomInt } from 'node:crypto';
import { AcmeIssuers, IssuedCertificate } from './acme/acme-issuers.service';
import { RenewalPlan } from './certificate.repository';
import { RenewalWindow, renewalTime } from './model/renewal-time';

const MINUTE = 60_000;
/** RFC 9773 section 4.3: clients should not ask more often than a minute, and every few hours at most is plenty. */
const ARI_MIN_WAIT_MS = MINUTE;
const ARI_DEFAULT_WAIT_MS = 6 * 60 * MINUTE;
const ARI_MAX_WAIT_MS = 24 * 60 * MINUTE;
/** After an unanswered ARI request: ask again in an hour, renewing meanwhile by the lifetime rule. */
const ARI_FAILED_WAIT_MS = 60 * MINUTE;

/**
 * When to renew a certificate: inside the CA's suggested window (ARI, RFC 9773) when the CA offers
 * one, else when between a half and a third of its lifetime remains (`renewalTime`), at a random
 * point so certificates issued together renew apart. A renewal time already inside a newly fetched
 * window is kept, so asking the CA again changes nothing unless the CA moved the window.
 */
@Injectable()
export class RenewalPlanner {
  private readonly logger = new Logger(RenewalPlanner.name);

  constructor(private readonly issuers: AcmeIssuers) {}

  async plan(
    issuer: AcmeIssuerConfig,
    cert: Pick<IssuedCertificate, 'notBefore' | 'notAfter' | 'certId'>,
    current?: Date,
  ): Promise<RenewalPlan> {
    const now = new Date();
    const random = randomInt(1_000_000) / 1_000_000;
    let info;
    try {
      info = cert.certId ? await this.issuers.renewalInfo(issuer, cert.certId) : undefined;
    } catch (err) {
      this.logger.warn({ err, issuer: issuer.name, certId: cert.certId }, 'Renewal information could not be read');
      const renewAt = current ?? renewalTime(cert, random, now);
      return { renewAt, ariCheckAt: new Date(now.getTime() + ARI_FAILED_WAIT_MS) };
    }
    if (!info) return { renewAt: current ?? renewalTime(cert, random, now), ariCheckAt: null };
    const renewAt = current && inside(current, info.window) ? current : renewalTime(cert, random, now, info.window);
    const wait = info.retryAfter ? info.retryAfter.getTime() - now.getTime() : ARI_DEFAULT_WAIT_MS;
    const ariCheckAt = new Date(now.getTime() + Math.min(Math.max(wait, ARI_MIN_WAIT_MS), ARI_MAX_WAIT_MS));
    return { renewAt, ariCheckAt };
  }
}

const inside = (at: Date, window: RenewalWindow) =>
  at.getTime() >= window.start.getTime() && at.getTime() <= window.end.getTime();
