/** The slice of JSON Schema / OpenAPI 3.0 schema objects this document uses. */
export interface SchemaObject {
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  additionalProperties?: boolean | SchemaObject;
  $ref?: string;
  oneOf?: SchemaObject[];
  minimum?: number;
  maximum?: number;
  [key: string]: unknown;
}

export const ref = (name: string): SchemaObject => ({ $ref: `#/components/schemas/${name}` });
export const str = (description?: string): SchemaObject => ({
  type: 'string',
  ...(description ? { description } : {}),
});
export const dateTime = (nullable = false): SchemaObject => ({ type: 'string', format: 'date-time', nullable });
export const int = (description?: string): SchemaObject => ({
  type: 'integer',
  ...(description ? { description } : {}),
});
export const bool: SchemaObject = { type: 'boolean' };
export const oneOfValues = (...values: string[]): SchemaObject => ({ type: 'string', enum: values });
export const arrayOf = (items: SchemaObject): SchemaObject => ({ type: 'array', items });
export const nullable = (schema: SchemaObject): SchemaObject => ({ ...schema, nullable: true });
export const freeForm: SchemaObject = { type: 'object', additionalProperties: true };

/** An object whose listed properties are all required unless named in `optional`. */
export function obj(properties: Record<string, SchemaObject>, optional: string[] = []): SchemaObject {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !optional.includes(key)),
  };
}

/** `{<key>: <schema>}`: the envelope every single-resource answer uses. */
export const envelope = (key: string, schema: SchemaObject): SchemaObject => obj({ [key]: schema });

/** `{<key>: [...], nextCursor}`: a keyset-paginated list. */
export const page = (key: string, item: SchemaObject): SchemaObject =>
  obj({ [key]: arrayOf(item), nextCursor: nullable(str('Opaque; null on the last page')) });
