import { SecretBox } from '@app/crypto';
import { Clock } from '@app/kernel';
import { Logger } from '@nestjs/common';
import { ClaimedDelivery } from '../store/delivery.queries';
import { AttemptOutcome, decideOutcome, disabledOutcome } from '../model/delivery-outcome';
import { SerializedEvent, serializedEnvelopeBody, unixSeconds } from '../model/envelope';
import { signingSecrets } from '../model/secret-rotation';
import {
  DELIVERY_ID_HEADER,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  SIGNATURE_HEADER,
  USER_AGENT,
  signatureHeader,
} from '../model/signature';
import { WebhookSender } from './webhook-sender';
import { WebhookMetrics } from './webhooks.metrics';

/** One attempt of one claimed delivery: the envelope built now, signed with the same `t`, then POSTed. */
export class DeliveryAttempt {
  private readonly logger = new Logger(DeliveryAttempt.name);
  private readonly metrics = WebhookMetrics.get();
  private readonly secrets = new Map<string, string>();

  constructor(
    private readonly sender: WebhookSender,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** Never throws: an unexpected failure (say, a secret that does not open) is a failed attempt. */
  async run(d: ClaimedDelivery, event: SerializedEvent): Promise<AttemptOutcome> {
    try {
      return await this.attempt(d, event);
    } catch (error) {
      this.logger.error(
        { err: error, deliveryId: d.id, eventId: d.eventId, endpointId: d.endpointId },
        'Delivery attempt failed unexpectedly',
      );
      const message = `internal error: ${error instanceof Error ? error.message : String(error)}`;
      this.metrics.deliveries.inc({ outcome: 'network_error' });
      const failed = { kind: 'network_error' as const, statusCode: null, error: message, durationMs: 0 };
      return decideOutcome(d, failed, new Date(this.clock.now()));
    }
  }

  private async attempt(d: ClaimedDelivery, event: SerializedEvent): Promise<AttemptOutcome> {
    const startedAt = new Date(this.clock.now());
    if (!d.enabled) {
      this.metrics.deliveries.inc({ outcome: 'disabled' });
      this.metrics.deadLetters.inc();
      return disabledOutcome(d, startedAt);
    }
    const t = unixSeconds(startedAt);
    const body = serializedEnvelopeBody(event, t);
    const secrets = signingSecrets(d, startedAt).map((sealed) => this.secret(sealed));
    const result = await this.sender.send(d.url, body, {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      [SIGNATURE_HEADER]: signatureHeader(secrets, body, t),
      [EVENT_ID_HEADER]: d.eventId,
      [EVENT_TYPE_HEADER]: d.eventType,
      [DELIVERY_ID_HEADER]: d.id,
    });
    const outcome = decideOutcome(d, result, startedAt);
    this.metrics.deliveries.inc({ outcome: result.kind });
    this.metrics.attemptSeconds.observe(result.durationMs / 1000);
    this.metrics.attemptRate.mark();
    if (outcome.status === 'delivered') {
      this.metrics.eventLagSeconds.observe(Math.max(0, Date.now() - event.createdAt.getTime()) / 1000);
    }
    if (outcome.status === 'dead_lettered') this.metrics.deadLetters.inc();
    if (outcome.status !== 'delivered') {
      const ids = { deliveryId: d.id, eventId: d.eventId, eventType: d.eventType, endpointId: d.endpointId };
      this.logger.log(
        {
          ...ids,
          attempt: d.attempts + 1,
          outcome: result.kind,
          statusCode: result.statusCode,
          status: outcome.status,
        },
        `Webhook delivery attempt failed: ${result.error ?? result.kind}`,
      );
    }
    return outcome;
  }

  private secret(sealed: string): string {
    let secret = this.secrets.get(sealed);
    if (secret === undefined) {
      if (this.secrets.size >= 10_000) this.secrets.clear();
      secret = this.box.open(sealed);
      this.secrets.set(sealed, secret);
    }
    return secret;
  }
}
