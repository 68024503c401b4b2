import { RouteTable } from './route-table';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.add('GET', '/v1/domains/:id');
  table.add('HEAD', '/v1/domains/:id');
  table.add(['PATCH', 'DELETE'], '/v1/domains/:id');
  table.add('POST', '/v1/domains/bulk');
  table.add('POST', '/v1/domains/:id/check');
  table.add('GET', '/docs/*');
  table.add('GET', '/widget.js');

  it.each([
    ['/v1/domains/dom_1', ['DELETE', 'GET', 'HEAD', 'PATCH']],
    // A static route and a parameter both match: the methods of both.
    ['/v1/domains/bulk', ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST']],
    ['/v1/domains/dom_1/check', ['POST']],
    ['/v1/domains/a%2Fb', ['DELETE', 'GET', 'HEAD', 'PATCH']],
    ['/docs/a/b.css', ['GET']],
    ['/widget.js', ['GET']],
    ['/widgetxjs', []],
    ['/v1/domains/', []],
    ['/v1/domains/dom_1/', []],
    ['/v1/nothing', []],
  ])('%s answers %j', (path, methods) => {
    expect(table.methodsAt(path)).toEqual(methods);
  });
});
