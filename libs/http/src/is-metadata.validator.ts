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
