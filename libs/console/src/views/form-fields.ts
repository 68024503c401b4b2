import type { FormProblems } from '../forms/form-problems';
import { Html, html } from '../html';

const fieldsToCorrect = (count: number) =>
  count === 1 ? 'Please correct the problem below.' : 'Please correct the problems below.';

/**
 * A refused form's problems at its fields: `attrs(name)` marks the input invalid and points it at
 * its problem, `under(name)` is the problem below the input, `above()` the rest (role=alert).
 */
export function problemsOf(problems: FormProblems | undefined, idPrefix: string) {
  const id = (name: string) => `${idPrefix}-${name}-problem`;
  return {
    attrs: (name: string): Html =>
      problems?.fields[name]?.length ? html`aria-invalid="true" aria-describedby="${id(name)}"` : html``,
    under: (name: string): Html =>
      problems?.fields[name]?.length
        ? html`<p class="field-problem" id="${id(name)}">${problems.fields[name].join(' ')}</p>`
        : html``,
    above: (extra?: Html): Html =>
      problems && (problems.form.length || Object.keys(problems.fields).length || extra)
        ? html`<div class="notice bad" role="alert">
            ${problems.form.length ? problems.form.join(' ') : fieldsToCorrect(Object.keys(problems.fields).length)}
            ${extra ?? ''}
          </div>`
        : html``,
  };
}
