import { ValidationOptions, registerDecorator } from 'class-validator';

const MAX_METADATA_BYTES = 8 * 1024;

/** A plain JSON object (not an array or null) of at most 8 KiB when serialized. */
export function IsMetadata(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isMetadata',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `$property must be a JSON object of at most ${MAX_METADATA_BYTES} bytes`, ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Buffer.byteLength(JSON.stringify(value)) <= MAX_METADATA_BYTES,
      },
    });
}

/** The property must not be sent at all (for immutable fields, with a message that says why). */
export function IsAbsent(message: string): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isAbsent',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: { validate: (value: unknown) => value === undefined },
    });
}
