import { arrayOf, bool, dateTime, described, Infer, obj, str } from '@app/kernel';

/** An endpoint as stored (the secret stays sealed). */
export interface EndpointRecord {
  id: string;
  workspaceId: string;
  url: string;
  events: string[];
  enabled: boolean;
  secretSealed: string;
  /** The end of the latest rotation's overlap (the replaced secret still signs until then). */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  createdAtKey: string;
}

/** What the API shows (`WebhookEndpoint`); `secret` only in the answers to create and rotate-secret. */
export const endpointSchema = obj(
  {
    id: str('`whe_...`'),
    url: str(),
    secret: str('`whsec_...`: only in the answers to create and rotate-secret'),
    events: arrayOf(str()),
    enabled: bool,
    previousSecretExpiresAt: described(
      dateTime(true),
      'Until when deliveries are also signed with the secret the latest rotation replaced (two `sha256=` values); null: none',
    ),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  },
  ['secret'],
);
export type EndpointView = Infer<typeof endpointSchema>;

export function toEndpointView(record: EndpointRecord, secret?: string): EndpointView {
  const view: EndpointView = {
    id: record.id,
    url: record.url,
    events: record.events,
    enabled: record.enabled,
    previousSecretExpiresAt: record.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
  if (secret === undefined) return view;
  const { id, url, ...rest } = view;
  return { id, url, secret, ...rest };
}
