import { problemsOf } from './form-fields';
import { htmlText } from '../testing/html-text';

describe('problemsOf', () => {
  it('asks to correct "the problem" for one field and "the problems" for several', () => {
    expect(htmlText(problemsOf({ form: [], fields: { name: ['Required'] } }, 'f').above())).toBe(
      'Please correct the problem below.',
    );
    expect(htmlText(problemsOf({ form: [], fields: { name: ['Required'], url: ['Not a URL'] } }, 'f').above())).toBe(
      'Please correct the problems below.',
    );
  });

  it("says the form's own problem instead, and nothing when there is none", () => {
    expect(htmlText(problemsOf({ form: ['That name is taken.'], fields: {} }, 'f').above())).toBe(
      'That name is taken.',
    );
    expect(htmlText(problemsOf(undefined, 'f').above())).toBe('');
  });

  it('points an invalid input at its problem', () => {
    const p = problemsOf({ form: [], fields: { name: ['Required'] } }, 'ws');
    expect(p.attrs('name').toString()).toBe('aria-invalid="true" aria-describedby="ws-name-problem"');
    expect(p.under('name').toString()).toContain('id="ws-name-problem"');
    expect(p.attrs('url').toString()).toBe('');
  });
});
