import { HostnameError, normalizeLookupHostname } from '@app/hostname-rules';
import { ValidationArguments, registerDecorator } from 'class-validator';

function problem(value: unknown): string | undefined {
  if (value === undefined || value === '') return 'hostname is required';
  if (typeof value !== 'string') return 'hostname must be a single string';
  try {
    normalizeLookupHostname(value);
    return undefined;
  } catch (error) {
    if (error instanceof HostnameError) return error.message;
    throw error;
  }
}

/** A public DNS name to diagnose (normalizeLookupHostname), with its refusal as the field's message. */
export function IsLookupHostname(): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isLookupHostname',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => problem(value) === undefined,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'hostname is invalid',
      },
    });
}
