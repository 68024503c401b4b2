import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '@test/support';

const MONITORING = join(REPO_ROOT, 'k8s/monitoring');
const RULES = join(MONITORING, 'prometheus/custom-domains.rules.yaml');
const RULE_TESTS = join(MONITORING, 'prometheus/custom-domains.rules.test.yaml');
const PROMETHEUS_RULE = join(MONITORING, 'prometheus-rule.yaml');
const RUNBOOKS = join(REPO_ROOT, 'docs/runbooks');
const RUNBOOK_BASE = 'https://github.com/example/custom-domains/blob/main/docs/runbooks';
/** Every runbook answers these, in this order. */
const RUNBOOK_SECTIONS = ['## What it means for customers', '## Look first', '## What to do', '## When it is over'];
const PROMTOOL = process.env.PROMTOOL ?? '/usr/bin/promtool';

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
type Groups = { name: string; rules: Rule[] }[];

function promtool(...args: string[]): string {
  if (!existsSync(PROMTOOL))
    throw new Error(`${PROMTOOL} is missing: install Debian's prometheus package (.ci/run does)`);
  try {
    return execFileSync(PROMTOOL, args, { cwd: join(MONITORING, 'prometheus'), encoding: 'utf8' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${stdout}${stderr}`);
  }
}

const groups = (): Groups => parse(readFileSync(RULES, 'utf8')).groups;
const alerts = () => groups().flatMap((g) => g.rules.filter((r) => r.alert));
const alertNames = () => [...new Set(alerts().map((r) => r.alert!))].sort();

describe('alert rules (k8s/monitoring)', () => {
  it('the rules file and the PrometheusRule are what k8s/monitoring/alerts.mjs writes', () => {
    execFileSync(process.execPath, [join(MONITORING, 'alerts.mjs'), '--check'], { cwd: REPO_ROOT });
  });

  it('the PrometheusRule holds the same groups as the plain rules file', () => {
    const operator = parse(readFileSync(PROMETHEUS_RULE, 'utf8'));
    expect(operator).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' });
    expect(operator.spec.groups).toEqual(groups());
  });

  it('promtool accepts both (the PrometheusRule by its groups)', () => {
    expect(promtool('check', 'rules', RULES)).toContain('SUCCESS');
    const dir = mkdtempSync(join(tmpdir(), 'prometheus-rule-'));
    try {
      const spec = join(dir, 'spec.yaml');
      writeFileSync(spec, JSON.stringify(parse(readFileSync(PROMETHEUS_RULE, 'utf8')).spec));
      expect(promtool('check', 'rules', spec)).toContain('SUCCESS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("every alert's unit tests pass (promtool test rules, at the real `for` and windows)", () => {
    expect(promtool('test', 'rules', RULE_TESTS)).toContain('SUCCESS');
  });

  it('every alert at every severity has a unit test that fires it', () => {
    const tests = parse(readFileSync(RULE_TESTS, 'utf8')).tests as {
      alert_rule_test?: { alertname: string; exp_alerts: { exp_labels: Record<string, string> }[] }[];
    }[];
    const fired = new Set(
      tests.flatMap((t) =>
        (t.alert_rule_test ?? []).flatMap((a) => a.exp_alerts.map((e) => `${a.alertname} ${e.exp_labels.severity}`)),
      ),
    );
    const declared = [...new Set(alerts().map((r) => `${r.alert} ${r.labels?.severity}`))].sort();
    expect(declared.filter((pair) => !fired.has(pair))).toEqual([]);
    expect(declared.length).toBeGreaterThanOrEqual(16);
  });

  it('every alert says its severity (page or ticket) and links its runbook, which answers the four questions', () => {
    for (const rule of alerts()) {
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({
        alert: rule.alert,
        severity: expect.stringMatching(/^(page|ticket)$/),
      });
      expect(rule.annotations?.runbook_url).toBe(`${RUNBOOK_BASE}/${rule.alert}.md`);
      expect(rule.annotations?.summary).toEqual(expect.any(String));
    }
    for (const name of alertNames()) {
      const file = join(RUNBOOKS, `${name}.md`);
      expect({ name, runbook: existsSync(file) }).toEqual({ name, runbook: true });
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(`# ${name}`)).toBe(true);
      const positions = RUNBOOK_SECTIONS.map((section) => text.indexOf(`\n${section}\n`));
      expect({ name, positions }).toEqual({ name, positions: [...positions].sort((a, b) => a - b) });
      expect({ name, missing: RUNBOOK_SECTIONS.filter((_, i) => positions[i] < 0) }).toEqual({ name, missing: [] });
    }
  });

  it("README's operations section lists every alert; the dashboard charts every SLO's recorded ratios and names every alert", () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const operations = readme.slice(readme.indexOf('\n## Operations'));
    expect(alertNames().filter((name) => !operations.includes(`\`${name}\``))).toEqual([]);
    const dashboard = readFileSync(join(REPO_ROOT, 'k8s/grafana/custom-domains.dashboard.json'), 'utf8');
    const records = groups().flatMap((g) => g.rules.filter((r) => r.record).map((r) => r.record!));
    const slos = [...new Set(records.map((r) => r.split(':')[1]))];
    expect(slos.filter((slo) => !dashboard.includes(`slo:${slo}:error_ratio_rate1h`))).toEqual([]);
    expect(alertNames().filter((name) => !dashboard.includes(name))).toEqual([]);
  });
});
