import { listPager, noneMatching } from './layout';

describe('listPager', () => {
  it('keeps the set filters on the first and next pages', () => {
    const text = String(listPager('/console/w/ws_1/domains', { status: 'verified', q: undefined }, 'c1', true));
    expect(text).toContain('href="/console/w/ws_1/domains?status=verified">First page');
    expect(text).toContain('href="/console/w/ws_1/domains?status=verified&amp;cursor=c1">Next page');
  });

  it('links no first page before paging, and no next page at the end', () => {
    expect(String(listPager('/console/w/ws_1/purchases', {}, null, false))).not.toContain('href=');
  });
});

describe('noneMatching', () => {
  it('says no item matches and links the list without filters', () => {
    const text = String(noneMatching('/console/w/ws_1/domains', 'domain'));
    expect(text).toContain('No domain matches these filters');
    expect(text).toContain('<a href="/console/w/ws_1/domains">Clear the filters</a> to see every domain.');
  });
});
