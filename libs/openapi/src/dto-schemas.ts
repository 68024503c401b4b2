import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { SchemaObject } from './schema';

const OBJECT_REF = '#/components/schemas/Object';

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

/** A custom validator on a `Record<string, unknown>` field (metadata) leaves a ref to `Object`: any object. */
function freeFormObjects(schema: SchemaObject): SchemaObject {
  if (schema.$ref === OBJECT_REF) return { type: 'object', additionalProperties: true };
  const out: SchemaObject = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, freeFormObjects(value)]),
    );
  }
  if (schema.items) out.items = freeFormObjects(schema.items);
  return out;
}
