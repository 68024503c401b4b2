import type { ErrorCode } from '@app/kernel';
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
  contentType?: string | string[];
  /** A body not described by a DTO (the OAuth endpoints take form parameters, RFC 6749). */
  requestBody?: { contentTypes: string[]; schema: SchemaObject };
  /** Query parameters whose accepted form is wider than the DTO says (a transform splits `a,b`). */
  query?: Record<string, SchemaObject>;
  /** Headers sent on every answer of the operation, by name (see `components.headers`). */
  headers?: Record<string, string>;
  /** The body is a list whose invalid items fail one by one inside a success answer. */
  itemErrors?: boolean;
  /** Headers sent on some error answers only, by status. */
  errorHeaders?: Record<number, Record<string, string>>;
}
