import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * The property may be left out. Unlike class-validator's `@IsOptional()`, `null` is not "left out":
 * it goes through the other rules, so a boolean, enum, object or string field refuses it (400)
 * instead of storing null in a typed field.
 */
export function IsOmittable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined, options);
}

const NULLABLE = Symbol('nullableProperties');

/** The property may be left out or `null`, for the few fields where null means "none" or "clear" (a PATCH detaching). */
export function IsNullable(options?: ValidationOptions): PropertyDecorator {
  const condition = ValidateIf((_object, value) => value !== undefined && value !== null, options);
  return (target, propertyName) => {
    const own = (Reflect.getOwnMetadata(NULLABLE, target) as string[] | undefined) ?? [];
    Reflect.defineMetadata(NULLABLE, [...own, propertyName as string], target);
    condition(target, propertyName);
  };
}

/** The properties of a DTO (and its parents) declared `@IsNullable()`: the only ones where null is a value. */
export function nullableProperties(dto: abstract new (...args: never[]) => unknown): Set<string> {
  const names = new Set<string>();
  for (
    let proto: object | null = dto.prototype as object;
    proto;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const name of (Reflect.getOwnMetadata(NULLABLE, proto) as string[] | undefined) ?? []) names.add(name);
  }
  return names;
}
