import { DomainError } from '@app/kernel';
import { formProblems, isFormProblem, orFormProblem } from './form-problems';

const FIELDS = ['hostname', 'originUrl'];

describe('formProblems', () => {
  it('puts each validation problem under its field', () => {
    const error = new DomainError('bad_request', 'Invalid request', {
      fields: [
        { field: 'hostname', problems: ['hostname must be shorter'] },
        { field: 'other', problems: ['other is wrong'] },
      ],
    });
    expect(formProblems(error, FIELDS)).toEqual({
      fields: { hostname: ['Must be shorter'] },
      form: ['other is wrong'],
    });
  });

  it("puts a use case's field error under the field without the field's name", () => {
    const error = new DomainError('bad_request', 'originUrl: 10.0.0.1 is not a public address', { field: 'originUrl' });
    expect(formProblems(error, FIELDS)).toEqual({
      fields: { originUrl: ['10.0.0.1 is not a public address'] },
      form: [],
    });
  });

  it('puts an error without a field above the form', () => {
    const error = new DomainError('conflict', 'shop.example.com is already connected', {
      hostname: 'shop.example.com',
    });
    expect(formProblems(error, FIELDS)).toEqual({ fields: {}, form: ['shop.example.com is already connected'] });
  });

  it('is a form problem only for what the person can fix', () => {
    expect(isFormProblem(new DomainError('conflict', 'x'))).toBe(true);
    expect(isFormProblem(new DomainError('bad_request', 'x'))).toBe(true);
    expect(isFormProblem(new DomainError('not_found', 'x'))).toBe(false);
    expect(isFormProblem(new DomainError('service_unavailable', 'x'))).toBe(false);
    expect(isFormProblem(new Error('x'))).toBe(false);
  });
});

describe('formProblems wording', () => {
  it('reads "Not allowed: ..." for "<field> is not allowed: ..."', () => {
    const error = new DomainError('preflight_failed', 'originUrl is not allowed: 10.0.0.1 is private', {
      field: 'originUrl',
    });
    expect(formProblems(error, ['originUrl']).fields.originUrl).toEqual(['Not allowed: 10.0.0.1 is private']);
  });
});

describe('orFormProblem', () => {
  it('gives the value, or the refusal a form can show, and throws any other error', async () => {
    const refusal = new DomainError('bad_request', 'url: must be a URL', { field: 'url' });
    await expect(orFormProblem(Promise.resolve(1))).resolves.toBe(1);
    await expect(orFormProblem(Promise.reject(refusal))).resolves.toBe(refusal);
    const missing = new DomainError('not_found', 'Endpoint was not found');
    await expect(orFormProblem(Promise.reject(missing))).rejects.toBe(missing);
  });
});
