import { DomainError } from '@app/kernel';
import { buyProblems, purchaseInput, readBuyForm } from './buy-form';

const body = {
  hostname: ' Shop.example.com ',
  years: '2',
  whoisPrivacy: 'on',
  firstName: 'Ada',
  lastName: 'Lovelace',
  organization: '',
  email: 'ada@example.com',
  phone: '+44.2071234567',
  address1: '12 St James Square',
  address2: '',
  city: 'London',
  stateOrProvince: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'gb',
};

describe('the buy form', () => {
  it('keeps what was typed and builds the API body, leaving empty optional fields out', () => {
    const form = readBuyForm(body);
    expect(form).toMatchObject({ hostname: 'Shop.example.com', years: '2', whoisPrivacy: true, autoRenew: false });
    expect(form.registrant.country).toBe('gb');
    const input = purchaseInput(form);
    expect(input).toMatchObject({ hostname: 'Shop.example.com', years: 2, enableWhoisPrivacy: true, autoRenew: false });
    expect(input.registrant).toMatchObject({ country: 'GB', firstName: 'Ada' });
    expect(input.registrant).not.toHaveProperty('organization');
    expect(input.registrant).not.toHaveProperty('address2');
  });

  it('passes years that are not a number through as typed (the DTO names the problem)', () => {
    expect(purchaseInput(readBuyForm({ ...body, years: 'ten' })).years).toBe('ten');
    expect(readBuyForm({}).years).toBe('1');
  });

  it.each([
    [
      new DomainError('bad_request', 'Invalid request: ...', {
        fields: [
          { field: 'registrant.email', problems: ['registrant.email must be an email address'] },
          { field: 'years', problems: ['years must not be greater than 10'] },
        ],
      }),
      {
        fields: { 'registrant.email': 'email must be an email address', years: 'years must not be greater than 10' },
        form: [],
      },
    ],
    [
      new DomainError('unavailable', 'taken-x.com is not available for registration', { hostname: 'taken-x.com' }),
      { fields: { hostname: 'taken-x.com is not available for registration' }, form: [] },
    ],
    [
      new DomainError('bad_request', "WHOIS privacy is not available for x.ch's TLD", {
        fields: [{ field: 'enableWhoisPrivacy', problems: ['this TLD does not support WHOIS privacy'] }],
      }),
      { fields: { whoisPrivacy: 'this TLD does not support WHOIS privacy' }, form: [] },
    ],
    [new DomainError('billing_required', 'Your card was declined.'), { fields: {}, form: ['Your card was declined.'] }],
  ])('puts each problem under its field: %#', (error, expected) => {
    expect(buyProblems(error)).toEqual(expected);
  });
});
