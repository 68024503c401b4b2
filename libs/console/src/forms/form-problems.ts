import { DomainError, ErrorCode } from '@app/kernel';

/** A refused form's problems: each under its field, the rest above the form. */
export interface FormProblems {
  fields: Record<string, string[]>;
  form: string[];
}

const noProblems = (): FormProblems => ({ fields: {}, form: [] });

/** Codes a person can fix in the form they sent; anything else is not a form problem. */
const FORM_CODES = new Set<ErrorCode>(['bad_request', 'conflict', 'preflight_failed', 'billing_required']);

export const isFormProblem = (error: unknown): error is DomainError =>
  error instanceof DomainError && FORM_CODES.has(error.code);

/** What `attempt` gives, or its refusal when a person can fix it in the form they sent (any other error is thrown). */
export const orFormProblem = <T>(attempt: Promise<T>): Promise<T | DomainError> =>
  attempt.catch((error: unknown) => {
    if (!isFormProblem(error)) throw error;
    return error;
  });

/**
 * Where each problem of a refused form goes (no I/O): the validation pipe's `details.fields`
 * (`[{field, problems}]`) each under its field, a use case's `details.field` under that field with
 * its message, anything else above the form. A message that starts with its field's name
 * (`originUrl: ...`) loses the prefix, since it is shown under that field.
 */
export function formProblems(error: DomainError, known: readonly string[]): FormProblems {
  const result = noProblems();
  const add = (field: string | undefined, message: string) => {
    if (field && known.includes(field)) {
      (result.fields[field] ??= []).push(withoutPrefix(message, field));
    } else {
      result.form.push(message);
    }
  };
  const listed = error.details?.fields;
  if (Array.isArray(listed) && listed.length) {
    for (const entry of listed as { field?: unknown; problems?: unknown }[]) {
      const field = typeof entry.field === 'string' ? entry.field : undefined;
      const problems = Array.isArray(entry.problems) ? entry.problems.map(String) : [];
      for (const problem of problems) add(field, problem);
    }
    return result;
  }
  const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
  add(field, error.message);
  return result;
}

function withoutPrefix(message: string, field: string): string {
  for (const prefix of [`${field}: `, `${field} `]) {
    if (message.startsWith(prefix)) {
      // "originUrl is not allowed: ..." reads "Not allowed: ..." under the Origin URL field.
      const rest = message.slice(prefix.length).replace(/^is /, '');
      return rest.charAt(0).toUpperCase() + rest.slice(1);
    }
  }
  return message;
}
