import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy';

describe('passwordProblem', () => {
  it.each([
    ['short', undefined, /at least 10 characters/],
    ['x'.repeat(MIN_PASSWORD_LENGTH - 1), undefined, /at least/],
    ['x'.repeat(1025), undefined, /at most 1024/],
    ['same-password-1', 'same-password-1', /differ from the current/],
  ])('refuses %j (current %j)', (password, current, problem) => {
    expect(passwordProblem(password, current)).toMatch(problem);
  });

  it.each([['x'.repeat(MIN_PASSWORD_LENGTH)], ['a longer pass phrase']])('accepts %j', (password) => {
    expect(passwordProblem(password, 'old-password-1')).toBeUndefined();
  });
});
