import { registerDecorator } from 'class-validator';

export { IsMetadata } from '@app/http';

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
