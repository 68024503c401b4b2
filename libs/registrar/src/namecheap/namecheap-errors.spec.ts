import { RegistrarRefusedError, RegistrarUnavailableError } from '../registrar.port';
import { NamecheapApiError, mapNamecheapError } from './namecheap-errors';

describe('Namecheap error numbers', () => {
  it.each([
    ['2019166', 'Domain not found'],
    ['2016166', 'Domain is not associated with your account'],
    ['2030280', 'TLD is not supported in API'],
    ['2030288', 'Cannot complete this command as this domain is not using proper DNS servers'],
    ['3031510', 'Error From Enom when Errorcount <> 0'],
    ['2011170', 'Promotion Code is invalid'],
    ['1011102', 'API Key is invalid or API access has not been enabled'],
    ['2050900', 'Invalid Address'],
  ])('%s is a refusal carrying the registrar text', (number, text) => {
    const error = mapNamecheapError('namecheap.domains.create', { number, text });
    expect(error).toBeInstanceOf(RegistrarRefusedError);
    expect(error).toMatchObject({ reason: text, registrarCode: number });
  });

  it.each([
    ['4019337', 'Unable to retrieve domain contacts'],
    ['4023166', 'Error occured while domain renewal'],
    ['5050900', 'Unhandled exceptions'],
    ['3050900', 'Unknown error from Enom'],
    ['3011511', 'UnKnown response from Provider'],
    ['1050900', 'Unknown error when validating APIUser'],
  ])('%s means the registrar failed: unavailable', (number, text) => {
    expect(mapNamecheapError('namecheap.domains.renew', { number, text })).toBeInstanceOf(RegistrarUnavailableError);
  });

  it('treats an answer as transient when any of its errors is', () => {
    const mixed = new NamecheapApiError('namecheap.domains.create', [
      { number: '2011170', text: 'Promotion Code is invalid' },
      { number: '5050900', text: 'Unhandled exceptions' },
    ]);
    expect(mixed.toPortError()).toBeInstanceOf(RegistrarUnavailableError);
    const refused = new NamecheapApiError('namecheap.domains.create', [{ number: '3031510', text: 'No' }]);
    expect(refused.toPortError()).toMatchObject({ reason: 'No', registrarCode: '3031510' });
  });
});
