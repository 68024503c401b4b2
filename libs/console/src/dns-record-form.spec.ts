import { parseDnsForm, problemsByRow, recordSetVersion, rowsOf } from './dns-record-form';

describe('the DNS record editor form', () => {
  const a = { type: 'A', name: '@', value: '198.51.100.80', ttl: 1800 };
  const mx = { type: 'MX', name: '@', value: 'mail.example.net', ttl: 1800, priority: 10 };

  it('versions a set by its content, not its order', () => {
    expect(recordSetVersion([a, mx])).toBe(recordSetVersion([mx, a]));
    expect(recordSetVersion([a, mx])).not.toBe(recordSetVersion([a]));
    expect(recordSetVersion([a])).not.toBe(recordSetVersion([{ ...a, ttl: 600 }]));
    expect(recordSetVersion([mx])).not.toBe(recordSetVersion([{ ...mx, priority: 20 }]));
    expect(recordSetVersion([])).toMatch(/^[\w-]{22}$/);
  });

  it('reads the edited set: removed and blank rows left out, numbers as numbers, bad numbers as typed', () => {
    const form = parseDnsForm({
      rows: '5',
      'type.0': 'A',
      'name.0': '@',
      'value.0': ' 203.0.113.1 ',
      'ttl.0': '600',
      'type.1': 'CNAME',
      'name.1': 'www',
      'value.1': 'x.example',
      'remove.1': 'on',
      'type.2': '',
      'name.2': '',
      'value.2': '',
      'type.3': 'MX',
      'name.3': '@',
      'value.3': 'mail.example.net',
      'ttl.3': 'soon',
      'type.4': 'MX',
      'name.4': '@',
      'value.4': 'mx2.example.net',
      'priority.4': '20',
    });
    expect(form.records).toEqual([
      { type: 'A', name: '@', value: '203.0.113.1', ttl: 600 },
      { type: 'MX', name: '@', value: 'mail.example.net', ttl: 'soon', priority: undefined },
      { type: 'MX', name: '@', value: 'mx2.example.net', priority: 20 },
    ]);
    expect(form.rowOf).toEqual([0, 3, 4]);
    expect(form.rows[1].remove).toBe(true);
  });

  it('caps the rows it reads, and reads none without a count', () => {
    expect(parseDnsForm({ rows: '100000' }).rows).toHaveLength(103);
    expect(parseDnsForm({ 'type.0': 'A', 'name.0': '@', 'value.0': '1.2.3.4' }).records).toEqual([]);
    expect(parseDnsForm(undefined).records).toEqual([]);
  });

  it('puts each refused field beside the form row it came from', () => {
    const { byRow, other } = problemsByRow(
      [
        { field: 'records.1.value', problems: ['records.1.value must be an IPv4 address for an A record'] },
        { field: 'records.0.ttl', problems: ['records.0.ttl must not be less than 60'] },
        { field: 'records', problems: ['records must contain no more than 100 elements'] },
      ],
      [0, 3],
    );
    expect(byRow.get(3)).toEqual(['value must be an IPv4 address for an A record']);
    expect(byRow.get(0)).toEqual(['ttl must not be less than 60']);
    expect(other).toEqual(['records: records must contain no more than 100 elements']);
  });

  it('shows a set as rows with empty text for what is not set', () => {
    expect(rowsOf([mx, { type: 'TXT', name: '@', value: 'v=spf1' }])).toEqual([
      { type: 'MX', name: '@', value: 'mail.example.net', ttl: '1800', priority: '10', remove: false },
      { type: 'TXT', name: '@', value: 'v=spf1', ttl: '', priority: '', remove: false },
    ]);
  });
});
