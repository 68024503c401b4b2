import { dateTime, described, Infer, int, nullable, obj, oneOfValues, str } from '@app/kernel';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'dead_lettered'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A delivery row as the API reads it. */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  firstAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastDurationMs: number | null;
  deliveredAt: Date | null;
  deadLetteredAt: Date | null;
  inFlight: boolean;
  createdAt: Date;
  createdAtKey: string;
}

export const deliverySchema = obj({
  id: str(),
  eventId: str(),
  eventType: str(),
  endpointId: str(),
  status: oneOfValues(...DELIVERY_STATUSES),
  attempts: int(),
  nextAttemptAt: described(dateTime(true), 'When the next attempt is due (pending only; null while one is in flight)'),
  firstAttemptAt: dateTime(true),
  lastAttempt: nullable(
    obj({ at: dateTime(), statusCode: nullable(int()), error: nullable(str()), durationMs: nullable(int()) }),
  ),
  deliveredAt: dateTime(true),
  deadLetteredAt: dateTime(true),
  createdAt: dateTime(),
});
export type DeliveryView = Infer<typeof deliverySchema>;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function toDeliveryView(r: DeliveryRecord): DeliveryView {
  return {
    id: r.id,
    eventId: r.eventId,
    eventType: r.eventType,
    endpointId: r.endpointId,
    status: r.status,
    attempts: r.attempts,
    nextAttemptAt: r.status === 'pending' && !r.inFlight ? iso(r.nextAttemptAt) : null,
    firstAttemptAt: iso(r.firstAttemptAt),
    lastAttempt: r.lastAttemptAt
      ? {
          at: r.lastAttemptAt.toISOString(),
          statusCode: r.lastStatusCode,
          error: r.lastError,
          durationMs: r.lastDurationMs,
        }
      : null,
    deliveredAt: iso(r.deliveredAt),
    deadLetteredAt: iso(r.deadLetteredAt),
    createdAt: r.createdAt.toISOString(),
  };
}
