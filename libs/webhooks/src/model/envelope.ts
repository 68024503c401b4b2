import { dateTime, freeForm, Infer, int, obj, str } from '@app/kernel';

/** An outbox row as the relay and the events API read it. */
export interface EventRow {
  id: string;
  workspaceId: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * What receivers get: `data` is the row's payload (`data.domain` is the canonical domain object,
 * `data.purchase` the purchase). `timestamp` (unix seconds) is when this copy was built; a webhook
 * body carries the same value as its signature's `t=`, so the signed bytes bind it.
 */
export const eventSchema = obj({
  id: str('`evt_...`'),
  type: str(),
  createdAt: dateTime(),
  timestamp: int('Unix seconds, also in the signature header'),
  workspaceId: str(),
  data: freeForm,
});
export type EventEnvelope = Infer<typeof eventSchema>;

export const unixSeconds = (at: Date): number => Math.floor(at.getTime() / 1000);

export function buildEnvelope(row: EventRow, timestamp: number): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
    timestamp,
    workspaceId: row.workspaceId,
    data: row.data,
  };
}

/** The exact bytes that are signed and sent. */
export function envelopeBody(envelope: EventEnvelope): Buffer {
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/** An event as the delivery workers keep it: its payload serialized once, however many endpoints get it. */
export interface SerializedEvent {
  id: string;
  workspaceId: string;
  type: string;
  createdAt: Date;
  dataJson: string;
}

export function serializeEvent(row: EventRow): SerializedEvent {
  const { id, workspaceId, type, createdAt } = row;
  return { id, workspaceId, type, createdAt, dataJson: JSON.stringify(row.data) };
}

/** The same bytes as `envelopeBody(buildEnvelope(row, timestamp))`, without serializing the payload again. */
export function serializedEnvelopeBody(event: SerializedEvent, timestamp: number): Buffer {
  const head = JSON.stringify({
    id: event.id,
    type: event.type,
    createdAt: event.createdAt.toISOString(),
    timestamp,
    workspaceId: event.workspaceId,
  });
  return Buffer.from(`${head.slice(0, -1)},"data":${event.dataJson}}`, 'utf8');
}
