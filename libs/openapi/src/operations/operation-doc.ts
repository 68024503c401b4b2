import type { ErrorCode } from '@app/http';
import type { SchemaObject } from '../schema';

/** What the document says of one operation beyond what the route's declaration shows. */
export interface OperationDoc {
  summary: string;
  /** The success body (status from the route: 201 for POST unless @HttpCode says otherwise). */
  response: SchemaObject;
  /** Errors specific to the operation; the generic ones (401, 404, 429, ...) follow from the route. */
  errors?: ErrorCode[];
  description?: string;
  /** Not JSON (metrics, HTML). */
  contentType?: string;
  /** A body not described by a DTO (the OAuth endpoints take form parameters, RFC 6749). */
  requestBody?: { contentType: string; schema: SchemaObject };
}
