import { ValidationArguments, ValidatorConstraint, ValidatorConstraintInterface } from 'class-validator';
import { ISO_COUNTRIES } from '../model/countries';

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
