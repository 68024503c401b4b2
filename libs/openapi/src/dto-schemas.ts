import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { IS_ISO8601, IS_OPTIONAL, ValidationTypes, getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import type { IOptions } from 'class-validator-jsonschema/build/options';
import { ISchemaConverters, defaultConverters } from 'class-validator-jsonschema/build/defaultConverters';
import { nullableProperties } from '@app/http';
import type { SchemaObject } from './schema';

/** Refs class-validator-jsonschema leaves for a custom validator on a field of a built-in type. */
const BUILT_IN_REF = /^#\/components\/schemas\/(Object|Array|String|Number|Boolean|Date)$/;

const BUILT_IN_TYPES: Record<string, SchemaObject> = {
  Object: { type: 'object', additionalProperties: true },
  Array: { type: 'array', items: {} },
  String: { type: 'string' },
  Number: { type: 'number' },
  Boolean: { type: 'boolean' },
  Date: { type: 'string', format: 'date-time' },
};

/** Markers the converters leave for the clean-up below (never in the served document). */
const ABSENT = 'x-absent';
const NOT_REQUIRED = 'x-not-required';

/**
 * What our own custom constraints accept, where the field's design type does not say it (by the
 * constraint's name). `absent`: the field must not be sent; `optional`: not always required.
 */
const CUSTOM_CONSTRAINTS: Record<string, { absent?: true; optional?: true; schema?: SchemaObject }> = {
  isAbsent: { absent: true },
  mxPriority: {
    optional: true,
    schema: {
      type: 'integer',
      minimum: 0,
      maximum: 65_535,
      description: 'Required on MX records; refused on every other type',
    },
  },
};

const defaultCustom = defaultConverters[ValidationTypes.CUSTOM_VALIDATION] as (
  meta: ValidationMetadata,
  options: IOptions,
) => SchemaObject;

/** `@IsNullable()` fields take null as a value; `@IsOmittable()` ones may only be left out. */
const isNullable = (meta: ValidationMetadata): boolean =>
  typeof meta.target === 'function' &&
  nullableProperties(meta.target as abstract new (...args: never[]) => unknown).has(meta.propertyName);

const constraintName = (meta: ValidationMetadata): string | undefined =>
  meta.constraintCls ? getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls)[0]?.name : undefined;

/**
 * JSON schemas of every class-validator DTO, read from the same decorators the validation pipe
 * enforces, so the document cannot drift from what the API accepts. Written as OpenAPI 3.0:
 * `@IsOptional()` and `@IsNullable()` let null through, so such fields are `nullable`
 * (`@IsOmittable()` ones may be left out but refuse null); the pipe forbids unknown properties, so objects are closed.
 */
export function dtoSchemas(): Record<string, SchemaObject> {
  const schemas = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: <ISchemaConverters>{
      [ValidationTypes.CONDITIONAL_VALIDATION]: (meta: ValidationMetadata) =>
        meta.name === IS_OPTIONAL || isNullable(meta) ? { nullable: true } : {},
      // `@IsDefined()` says "not null"; OpenAPI 3.0 already refuses null unless `nullable`.
      [ValidationTypes.IS_DEFINED]: {},
      // Either form; `anyOf`, as a date-time string is no date and the other way round only by format.
      [IS_ISO8601]: {
        type: 'string',
        anyOf: [{ format: 'date' }, { format: 'date-time' }],
        description: 'ISO 8601: a date (2030-03-02) or a date-time (2030-03-02T12:00:00Z)',
      },
      [ValidationTypes.CUSTOM_VALIDATION]: (meta: ValidationMetadata, options: IOptions) => {
        const known = CUSTOM_CONSTRAINTS[constraintName(meta) ?? ''];
        if (known?.absent) return { [ABSENT]: true, description: meta.message };
        if (known?.schema) return { ...known.schema, ...(known.optional ? { [NOT_REQUIRED]: true } : {}) };
        return defaultCustom(meta, options);
      },
    },
  }) as Record<string, SchemaObject>;
  // By name: class-validator lists DTOs in the order their files were first loaded, which any new
  // import reshuffles; the document (and the SDK generated from it) must not depend on that.
  return Object.fromEntries(
    Object.entries(schemas)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, schema]) => [name, closeObject(freeFormObjects(schema))]),
  );
}

/**
 * A custom validator leaves a ref to the field's built-in type (`Object` for `metadata`, `Array`):
 * drop it, keeping what the other decorators said, and make a bare object a free-form one. A `$ref`
 * with other keywords beside it becomes `allOf` (OpenAPI 3.0 ignores siblings of `$ref`).
 */
function freeFormObjects(schema: SchemaObject): SchemaObject {
  const { $ref, ...rest } = schema;
  const builtIn = $ref ? BUILT_IN_REF.exec($ref)?.[1] : undefined;
  if (builtIn) return freeFormObjects({ ...BUILT_IN_TYPES[builtIn], ...rest });
  // Only DTOs are referred to, all objects: `type` lets `nullable` stand beside `allOf`.
  if ($ref && Object.keys(rest).length) return { type: 'object', ...rest, allOf: [{ $ref }] };
  const out: SchemaObject = { ...schema };
  if (schema.properties) {
    out.properties = Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, closeObject(freeFormObjects(value))]),
    );
  }
  if (schema.items) out.items = freeFormObjects(schema.items);
  return out;
}

/** Drops fields that must be absent (the pipe refuses them as unknown ones) and closes the object. */
function closeObject(schema: SchemaObject): SchemaObject {
  if (schema.type !== 'object' || !schema.properties) return schema;
  const absent: string[] = [];
  const notRequired: string[] = [];
  const properties: Record<string, SchemaObject> = {};
  for (const [key, value] of Object.entries(schema.properties)) {
    const { [ABSENT]: isAbsent, [NOT_REQUIRED]: isNotRequired, ...property } = value;
    if (isAbsent) absent.push(`\`${key}\` may not be sent: ${String(property.description ?? 'refused')}`);
    else properties[key] = property;
    if (isAbsent || isNotRequired) notRequired.push(key);
  }
  const required = (schema.required ?? []).filter((key) => !notRequired.includes(key));
  const description = [schema.description, ...absent].filter(Boolean).join('. ');
  const { required: _, ...rest } = schema;
  return {
    ...rest,
    ...(description ? { description } : {}),
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}
