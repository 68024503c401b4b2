import { LOOKUP_TYPES, LookupType } from '@app/dns';
import { ValidationArguments, registerDecorator } from 'class-validator';
import { splitExpected, valueProblem } from '../record-values';

/** The record type the value belongs to: the sibling `type` (default A); unknown types are reported there. */
function typeOf(args: ValidationArguments): LookupType | undefined {
  const type = (args.object as { type?: unknown }).type ?? 'A';
  return (LOOKUP_TYPES as readonly unknown[]).includes(type) ? (type as LookupType) : undefined;
}

function problem(value: unknown, args: ValidationArguments, commaSeparated: boolean): string | undefined {
  const type = typeOf(args);
  if (!type) return undefined;
  const listed = Array.isArray(value) ? value : [value];
  const values = commaSeparated ? splitExpected(type, listed) : listed;
  for (const v of values) {
    if (typeof v !== 'string') continue; // IsString reports it
    const found = valueProblem(type, v);
    if (found) return `${args.property}: ${found} (got ${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)})`;
  }
  return undefined;
}

/** A value (or each of a list) that can be a record of the sibling `type`; `commaSeparated` as `splitExpected`. */
export function IsRecordValue(options: { commaSeparated?: boolean } = {}): PropertyDecorator {
  const comma = options.commaSeparated ?? false;
  return (target, propertyName) =>
    registerDecorator({
      name: 'isRecordValue',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => !args || problem(value, args, comma) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          (args && problem(args.value, args, comma)) ?? 'value is invalid',
      },
    });
}
