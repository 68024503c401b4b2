import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from '@app/kernel';
import { findUnstorable } from './storable-input';

export interface FieldProblem {
  field: string;
  problems: string[];
}

/** Constraints that say what a value is: when one fails, the others (lengths, patterns) are noise. */
const SHAPE_CONSTRAINTS = [
  'whitelistValidation',
  'isAbsent',
  'isDefined',
  'nestedValidation',
  'isString',
  'isBoolean',
  'isInt',
  'isNumber',
  'isArray',
  'isMetadata',
  'isObject',
  'isIn',
  'isEmail',
];

const BODY_NOT_OBJECT = 'the body must be a JSON object';

/**
 * The one problem worth saying about a property: "X is required" when it is missing, else the first
 * failed shape rule ("X must be a string"), else the first failed rule as declared. A list of every
 * rule a missing value breaks ("must be shorter than 2048 characters, must be a string") hides the point.
 */
function mainProblem(field: string, error: ValidationError): string {
  const constraints = error.constraints ?? {};
  const keys = Object.keys(constraints);
  const hasShapeRule = keys.some((k) => SHAPE_CONSTRAINTS.includes(k) && k !== 'whitelistValidation');
  if (error.value === undefined && hasShapeRule) return `${field} is required`;
  const key = SHAPE_CONSTRAINTS.find((k) => k in constraints) ?? keys[0];
  let message = constraints[key];
  if (key === 'nestedValidation') {
    message = Array.isArray(error.value)
      ? `each value in ${field} must be a JSON object`
      : `${field} must be a JSON object`;
  }
  // class-validator names the leaf (`value`); a nested field is clearer with its path (`records.0.value`).
  if (field !== error.property && message.startsWith(`${error.property} `)) {
    message = `${field}${message.slice(error.property.length)}`;
  }
  return message;
}

/** Flattens nested class-validator errors into `field.path: [its main problem]`. */
function fieldProblems(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: [mainProblem(field, error)] }] : [];
    return [...own, ...fieldProblems(error.children ?? [], field)];
  });
}

export function invalidFields(fields: FieldProblem[]): DomainError {
  const summary = fields.map((f) => f.problems.join(', ')).join('; ');
  return new DomainError('bad_request', `Invalid request: ${summary}`, { fields });
}

/**
 * Whitelists, forbids unknown properties, transforms; failures answer 400 bad_request naming the fields.
 * Path and query parameters, whatever their type, are first checked for values the database can never
 * store (storable-input.ts; bodies were checked by their parser).
 */
class ApiValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'param' || metadata.type === 'query') {
      const unstorable = findUnstorable(value, metadata.data ?? '');
      if (unstorable) throw invalidFields([{ field: unstorable.field, problems: [unstorable.problem] }]);
    }
    // Nest would turn a `null` body into `{}` and an array into "property 0 should not exist".
    // No body at all stays allowed (a POST whose fields are all optional).
    const isDto = typeof metadata.metatype === 'function' && this.toValidate(metadata);
    if (metadata.type === 'body' && isDto && value !== undefined) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw invalidFields([{ field: 'body', problems: [BODY_NOT_OBJECT] }]);
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new ApiValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // The value is needed to tell "missing" from "wrong"; it never reaches the answer.
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => invalidFields(fieldProblems(errors)),
  });
}
