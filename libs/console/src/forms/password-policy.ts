/** Shortest console password, as at user creation (console, admin API, CLI). */
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1024;

/** Why a new console password is refused, or undefined when it is acceptable (no I/O). */
export function passwordProblem(password: string, current?: string): string | undefined {
  if (password.length < MIN_PASSWORD_LENGTH) return `The password must be at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `The password must be at most ${MAX_PASSWORD_LENGTH} characters.`;
  if (current !== undefined && password === current) return 'The new password must differ from the current one.';
  return undefined;
}
