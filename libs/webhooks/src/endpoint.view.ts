/** An endpoint as stored (the secret stays sealed). */
export interface EndpointRecord {
  id: string;
  workspaceId: string;
  url: string;
  events: string[];
  enabled: boolean;
  secretSealed: string;
  createdAt: Date;
  updatedAt: Date;
  createdAtKey: string;
}

/** What the API shows; `secret` only in the answers to create and rotate-secret. */
export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}

export function toEndpointView(record: EndpointRecord, secret?: string): EndpointView {
  const view: EndpointView = {
    id: record.id,
    url: record.url,
    events: record.events,
    enabled: record.enabled,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  };
  if (secret === undefined) return view;
  const { id, url, ...rest } = view;
  return { id, url, secret, ...rest };
}
