import { XmlNode, attr, child, children } from './namecheap-xml';
import { dollarsToCents } from './namecheap-values';

/**
 * The total for `years` from users.getPricing: the `<Price Duration="years">` of the TLD's product in the
 * action's category, our own price (`YourPrice`) plus the registry fee (`YourAdditonalCost`, Namecheap's
 * spelling). `MULTIPLE` pricing is per year; `ABSOLUTE` is for the whole duration.
 */
export function pricingTotal(response: XmlNode, action: string, tld: string, years: number): number | undefined {
  const types = children(child(response, 'usergetpricingresult'), 'producttype');
  const domain = types.find((t) => attr(t, 'Name').toUpperCase() === 'DOMAIN');
  const category = children(domain, 'productcategory').find((c) => attr(c, 'Name').toUpperCase() === action);
  const product = children(category, 'product').find((p) => attr(p, 'Name').toLowerCase() === tld);
  const price = children(product, 'price').find(
    (p) => Number(attr(p, 'Duration')) === years && (attr(p, 'DurationType') || 'YEAR').toUpperCase() === 'YEAR',
  );
  if (!price || (attr(price, 'Currency') || 'USD').toUpperCase() !== 'USD') return undefined;
  const pricingType = attr(price, 'PricingType');
  const part = (amount: string, type: string) =>
    dollarsToCents(amount || '0') * ((type || pricingType).toUpperCase() === 'ABSOLUTE' ? 1 : years);
  return (
    part(attr(price, 'YourPrice') || attr(price, 'Price'), attr(price, 'YourPriceType')) +
    part(attr(price, 'YourAdditonalCost') || attr(price, 'AdditionalCost'), attr(price, 'YourAdditonalCostType'))
  );
}
