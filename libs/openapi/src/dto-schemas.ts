import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { SchemaObject } from './schema';

/** Refs class-validator-jsonschema leaves for a custom validator on a field of a built-in type. */
const BUILT_IN_REF = /^#\/components\/schemas\/(Object|Array|String|Number|Boolean|Date)$/;

/**
 * JSON schemas of every class-validator DTO, read from the same decorators the validation pipe
 * enforces, so the document cannot drift from what the API accepts.
 */
export function dtoSchemas(): Record<string, SchemaObject> {
  const schemas = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
  }) as Record<string, SchemaObject>;
  return Object.fromEntries(Object.entries(schemas).map(([name, schema]) => [name, freeFormObjects(schema)]));
}

/**
 * A custom validator leaves a ref to the field's built-in type (`Object` for `metadata`, `Array`):
 * drop it, keeping what the other decorators said, and make a bare object a free-form one.
 */
function freeFormObjects(schema: SchemaObject): SchemaObject {
  const { $ref, ...rest } = schema;
  if ($ref && BUILT_IN_REF.test($ref)) {
    return Object.keys(rest).length ? freeFormObjects(rest) : { type: 'object', additionalProperties: true };
  }
  const out: SchemaObject = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, freeFormObjects(value)]),
    );
  }
  if (schema.items) out.items = freeFormObjects(schema.items);
  return out;
}
