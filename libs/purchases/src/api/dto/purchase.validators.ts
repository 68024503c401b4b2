import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { registrarValueProblem } from '@app/tools';
import { ISO_COUNTRIES } from '../../model/countries';

@ValidatorConstraint({ name: 'isIsoCountry' })
export class IsIsoCountry implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && ISO_COUNTRIES.has(value);
  }

  defaultMessage(): string {
    return '$property must be an ISO 3166-1 alpha-2 country code in capitals, e.g. US';
  }
}

/** `priority` is required on MX records (an integer 0-65535) and refused on the others. */
@ValidatorConstraint({ name: 'mxPriority' })
export class MxPriority implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    const type = (args.object as { type?: unknown }).type;
    if (type !== 'MX') return value === undefined;
    return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65_535;
  }

  defaultMessage(args: ValidationArguments): string {
    return (args.object as { type?: unknown }).type === 'MX'
      ? 'priority is required for MX records: an integer 0-65535'
      : 'priority is only allowed on MX records';
  }
}

/** The value fits the record's `type` (addresses for A/AAAA, hostnames for CNAME/NS/MX, SRV's shape, URLs). */
@ValidatorConstraint({ name: 'isRegistrarRecordValue' })
export class IsRegistrarRecordValue implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean {
    return typeof value !== 'string' || problemOf(value, args) === undefined; // IsString reports a non-string
  }

  defaultMessage(args: ValidationArguments): string {
    return problemOf(args.value as string, args) ?? 'value is invalid';
  }
}

function problemOf(value: string, args: ValidationArguments): string | undefined {
  const type = (args.object as { type?: unknown }).type;
  return typeof type === 'string' ? registrarValueProblem(type, value) : undefined;
}
