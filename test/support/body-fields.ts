import { nullableProperties } from '@app/http';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { ValidationTypes, getMetadataStorage } from 'class-validator';

type Class = abstract new (...args: never[]) => unknown;

/** What a field holds, read from its class-validator rules. */
export type FieldKind =
  | { kind: 'string' | 'boolean' | 'integer' | 'object' | 'array' | 'absent' | 'other' }
  | { kind: 'enum'; values: unknown[] };

/** One property of a request body, nested ones included (`registrant.firstName`, `records.0.type`). */
export interface BodyField {
  /** How to reach it in a body: `['records', 0, 'type']`. */
  path: (string | number)[];
  /** As the validation answer names it: `records.0.type`. */
  name: string;
  kind: FieldKind;
  /** `@IsNullable()`: null is a value here (it clears or means none). */
  nullable: boolean;
}

/** Every field of a body DTO and of the DTOs nested in it, from the same metadata the validation pipe uses. */
export function bodyFields(dto: Class, prefix: (string | number)[] = []): BodyField[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const nullable = nullableProperties(dto);
  const names = [...new Set(metas.map((m) => m.propertyName))];
  return names.flatMap((property) => {
    const own = metas.filter((m) => m.propertyName === property);
    const has = (name: string) => own.some((m) => m.name === name && !m.each);
    const nested = own.some((m) => m.type === ValidationTypes.NESTED_VALIDATION);
    const isArray = has('isArray');
    let kind: FieldKind;
    if (own.some((m) => m.name === 'isAbsent')) kind = { kind: 'absent' };
    else if (isArray) kind = { kind: 'array' };
    else if (nested || has('isMetadata')) kind = { kind: 'object' };
    else if (has('isBoolean')) kind = { kind: 'boolean' };
    else if (has('isInt')) kind = { kind: 'integer' };
    else if (has('isIn'))
      kind = { kind: 'enum', values: own.find((m) => m.name === 'isIn')!.constraints[0] as unknown[] };
    else if (has('isString') || has('isEmail')) kind = { kind: 'string' };
    else kind = { kind: 'other' };
    const path = [...prefix, property];
    const field: BodyField = { path, name: path.join('.'), kind, nullable: nullable.has(property) };
    const type = nested ? defaultMetadataStorage.findTypeMetadata(dto, property)?.typeFunction() : undefined;
    const children = type ? bodyFields(type as Class, isArray ? [...path, 0] : path) : [];
    return [field, ...children];
  });
}

/** Whether a value has the field's kind (it may still break a length or pattern rule). */
export function hasKind(kind: FieldKind, value: unknown): boolean {
  switch (kind.kind) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return Number.isInteger(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
    case 'enum':
      return kind.values.includes(value);
    case 'absent':
      return value === undefined;
    case 'other':
      // Custom rules (a string pattern, a conditional integer): only say that null, arrays and objects are refused.
      return value !== null && typeof value !== 'object';
  }
}

/** A body holding `value` at `path` and nothing else. */
export function bodyWith(path: (string | number)[], value: unknown): unknown {
  const [head, ...rest] = path;
  const inner = rest.length ? bodyWith(rest, value) : value;
  return typeof head === 'number' ? [inner] : { [head]: inner };
}
