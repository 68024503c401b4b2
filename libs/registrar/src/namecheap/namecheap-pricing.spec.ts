import { pricingTotal } from './namecheap-pricing';
import { parseXml } from './namecheap-xml';

const response = (prices: string) =>
  parseXml(
    `<CommandResponse Type="namecheap.users.getPricing"><UserGetPricingResult><ProductType Name="domain">
       <ProductCategory Name="renew"><Product Name="com">${prices}</Product></ProductCategory>
       <ProductCategory Name="register"><Product Name="net"><Price Duration="1" DurationType="YEAR" YourPrice="12.98" YourPriceType="MULTIPLE" YourAdditonalCost="0.18" YourAdditonalCostType="MULTIPLE" Currency="USD"/></Product></ProductCategory>
     </ProductType></UserGetPricingResult></CommandResponse>`,
    'commandresponse',
  )!;

describe('Namecheap getPricing totals', () => {
  it('multiplies per-year (MULTIPLE) prices and fees by the term it finds by Duration', () => {
    const xml = response(`
      <Price Duration="1" DurationType="YEAR" Price="14.58" PricingType="MULTIPLE" AdditionalCost="0.18" YourPrice="14.58" YourPriceType="MULTIPLE" YourAdditonalCost="0.18" YourAdditonalCostType="MULTIPLE" Currency="USD"/>
      <Price Duration="2" DurationType="YEAR" Price="14.48" PricingType="MULTIPLE" AdditionalCost="0.18" YourPrice="14.48" YourPriceType="MULTIPLE" YourAdditonalCost="0.18" YourAdditonalCostType="MULTIPLE" Currency="USD"/>`);
    expect(pricingTotal(xml, 'RENEW', 'com', 1)).toBe(1476);
    expect(pricingTotal(xml, 'RENEW', 'com', 2)).toBe(2932);
    expect(pricingTotal(xml, 'RENEW', 'com', 3)).toBeUndefined();
    expect(pricingTotal(xml, 'REGISTER', 'net', 1)).toBe(1316);
    expect(pricingTotal(xml, 'REGISTER', 'com', 1)).toBeUndefined();
  });

  it('takes ABSOLUTE prices as the whole term, and refuses other currencies', () => {
    const absolute = response(
      `<Price Duration="2" DurationType="YEAR" Price="30.00" PricingType="ABSOLUTE" YourPrice="29.50" YourPriceType="ABSOLUTE" YourAdditonalCost="0.36" YourAdditonalCostType="ABSOLUTE" Currency="USD"/>`,
    );
    expect(pricingTotal(absolute, 'RENEW', 'com', 2)).toBe(2986);
    const euros = response(`<Price Duration="1" DurationType="YEAR" YourPrice="9.00" Currency="EUR"/>`);
    expect(pricingTotal(euros, 'RENEW', 'com', 1)).toBeUndefined();
  });

  it('falls back to Price/AdditionalCost when the Your* attributes are absent', () => {
    const plain = response(`<Price Duration="1" DurationType="YEAR" Price="8.55" RegularPrice="8.55" Currency="USD"/>`);
    expect(pricingTotal(plain, 'RENEW', 'com', 1)).toBe(855);
  });
});
