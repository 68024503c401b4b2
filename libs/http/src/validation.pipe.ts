import { ValidationError, ValidationPipe } from '@nestjs/common';
import { DomainError } from './domain-error';

export interface FieldProblem {
  field: string;
  problems: string[];
}

/** Flattens nested class-validator errors into `field.path: problems`. */
export function fieldProblems(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = error.constraints ? [{ field, problems: Object.values(error.constraints) }] : [];
    return [...own, ...fieldProblems(error.children ?? [], field)];
  });
}

/** Whitelists, forbids unknown properties, transforms; failures answer 400 bad_request naming the fields. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const fields = fieldProblems(errors);
      const summary = fields.map((f) => `${f.field}: ${f.problems.join(', ')}`).join('; ');
      return new DomainError('bad_request', `Invalid request: ${summary}`, { fields });
    },
  });
}
