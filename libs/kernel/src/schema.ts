// JSON Schema (the OpenAPI 3.0 slice) built by functions that also carry the TypeScript type of what
// the schema describes: a resource declares its schema once and takes its type from it (`Infer`), so
// a field is added in one place, and the API document cannot miss it.

/** The slice of JSON Schema / OpenAPI 3.0 schema objects the API documents use. */
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

declare const TYPE: unique symbol;

/** A schema of values of type `T`. `T` exists for the compiler only: the object is plain JSON. */
export interface Schema<T> extends SchemaObject {
  readonly [TYPE]: (value: T) => T;
}

/** The type a schema describes; `unknown` for a plain SchemaObject. */
export type Infer<S> = S extends Schema<infer T> ? T : unknown;

const typed = <T>(schema: SchemaObject) => schema as Schema<T>;

export const str = (description?: string) => typed<string>({ type: 'string', ...(description ? { description } : {}) });
export const uri = () => typed<string>({ type: 'string', format: 'uri' });
export function dateTime(): Schema<string>;
export function dateTime(nullable: true): Schema<string | null>;
export function dateTime(nullable?: boolean): Schema<string> | Schema<string | null> {
  nullable ??= false;
  return typed({ type: 'string', format: 'date-time', nullable });
}
export const int = (description?: string) =>
  typed<number>({ type: 'integer', ...(description ? { description } : {}) });
export const bool = typed<boolean>({ type: 'boolean' });
/** One of the given strings: the type is their union. */
export const oneOfValues = <const V extends string>(...values: V[]) => typed<V>({ type: 'string', enum: values });
/** One of the given integers (a number enum). */
export const intValues = <const V extends number>(values: readonly V[]) =>
  typed<V>({ type: 'integer', enum: [...values] });
export const arrayOf = <S extends SchemaObject>(items: S) => typed<Infer<S>[]>({ type: 'array', items });
/** The schema or null (OpenAPI 3.0 `nullable`; an enum lists null too, as validators require). */
export const nullable = <S extends SchemaObject>(schema: S) =>
  typed<Infer<S> | null>({ ...schema, nullable: true, ...(schema.enum ? { enum: [...schema.enum, null] } : {}) });
/** Any one of the schemas (`oneOf`). */
export const oneOf = <S extends SchemaObject[]>(...schemas: S) => typed<Infer<S[number]>>({ oneOf: schemas });
/** An object of any keys whose values all follow one schema. */
export const dictionary = <S extends SchemaObject>(values: S) =>
  typed<Record<string, Infer<S>>>({ type: 'object', additionalProperties: values });
export const freeForm = typed<Record<string, unknown>>({ type: 'object', additionalProperties: true });
/** The schema with a description for the document (the type is unchanged). */
export const described = <S extends SchemaObject>(schema: S, description: string): S => ({ ...schema, description });

/**
 * A reference to a named schema of the document (`#/components/schemas/<name>`); given the schema it
 * names, the reference carries its type.
 */
export function ref(name: string): SchemaObject;
export function ref<T>(name: string, of: Schema<T>): Schema<T>;
export function ref(name: string): SchemaObject {
  return { $ref: `#/components/schemas/${name}` };
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ObjectOf<P, O extends keyof P> = Simplify<
  { [K in Exclude<keyof P, O>]: Infer<P[K]> } & { [K in O]?: Infer<P[K]> }
>;

/** An object whose listed properties are all required unless named in `optional`. */
export function obj<P extends Record<string, SchemaObject>, O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
): Schema<ObjectOf<P, O>> {
  return typed({
    type: 'object',
    properties,
    required: Object.keys(properties).filter((key) => !(optional as readonly string[]).includes(key)),
  });
}
