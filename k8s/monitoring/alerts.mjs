// The alert rules of the service, in one place: `node k8s/monitoring/alerts.mjs` writes the plain
// Prometheus rules file (prometheus/custom-domains.rules.yaml) and the Prometheus Operator's PrometheusRule
// (prometheus-rule.yaml) from the tables below; test/alert-rules.e2e-spec.ts fails when a written
// file differs from what this produces, runs `promtool check rules` and the rule unit tests
// (prometheus/custom-domains.rules.test.yaml), and checks that every alert has a runbook in docs/runbooks/.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { stringify } from 'yaml';

/** Where the runbooks are published; change `example` to your fork. */
export const RUNBOOK_BASE = 'https://github.com/example/custom-domains/blob/main/docs/runbooks';
/** actors SHARD_COUNT (libs/actors/src/shard.ts). */
const SHARDS = 4096;
/** Probes, health checks and scrapes: not requests of API clients. */
const NOT_API = 'route!~"/metrics|/healthz|/readyz"';
/** Routes whose answer waits on the outside (live DNS lookups of the keyless tools and record checks). */
const OUTSIDE_BOUND = 'route!~"/v1/tools/.*|/v1/dns/.*"';
/** Certificate order outcomes that are the CA's or ours, not the customer's (validation_failed, ca_refused, caa_forbids). */
const CA_SIDE = 'outcome=~"ca_unavailable|ca_rate_limited|ca_account|ca_error|internal_error"';

/**
 * Counters whose series appear at their first increment (a label value seen for the first time):
 * `increase()` does not count that first value, so a series younger than the window counts whole.
 */
const increaseWithNew = (series, window) =>
  `((${series} unless ${series} offset ${window}) or increase(${series}[${window}]))`;

/**
 * The service level objectives. `events`: an SLI of good and bad events (errors over total per
 * window); `state`: a 0..1 share of bad right now, averaged over each window. Burn rates after the
 * Google SRE workbook (multiwindow, multi-burn-rate): page at 14.4x over 1h and 5m or 6x over 6h and
 * 30m, ticket at 1x over 3d and 6h.
 */
export const SLOS = [
  {
    slo: 'edge_availability',
    alert: 'EdgeAvailabilityBudgetBurn',
    objective: 0.999,
    what: "edge answers that are not the service's own fault (unavailable: no routing answer for a visitor)",
    errors: (w) => `sum by (namespace) (rate(edge_requests_total{outcome="edge_error"}[${w}]))`,
    total: (w) => `sum by (namespace) (rate(edge_requests_total[${w}]))`,
  },
  {
    slo: 'api_availability',
    alert: 'ApiAvailabilityBudgetBurn',
    objective: 0.999,
    what: 'API answers that are not 5xx',
    errors: (w) =>
      `sum by (namespace) (rate(http_request_duration_seconds_count{${NOT_API},status_class="5xx"}[${w}]))`,
    total: (w) => `sum by (namespace) (rate(http_request_duration_seconds_count{${NOT_API}}[${w}]))`,
  },
  {
    slo: 'api_latency',
    alert: 'ApiLatencyBudgetBurn',
    objective: 0.99,
    what: 'API requests answered within 1 s (tools and record checks, which wait on live DNS, aside)',
    errors: (w) =>
      `(sum by (namespace) (rate(http_request_duration_seconds_count{${NOT_API},${OUTSIDE_BOUND}}[${w}]))` +
      ` - sum by (namespace) (rate(http_request_duration_seconds_bucket{${NOT_API},${OUTSIDE_BOUND},le="1"}[${w}])))`,
    total: (w) => `sum by (namespace) (rate(http_request_duration_seconds_count{${NOT_API},${OUTSIDE_BOUND}}[${w}]))`,
  },
  {
    slo: 'time_to_https',
    alert: 'TimeToHttpsBudgetBurn',
    objective: 0.95,
    ticketOnly: true, // a few domains an hour: too few events for a fast burn rate to mean anything
    what: 'domains with a certificate within 10 minutes of their DNS first pointing at the edge',
    errors: (w) =>
      `(sum by (namespace) (rate(certificates_time_to_https_seconds_count[${w}]))` +
      ` - sum by (namespace) (rate(certificates_time_to_https_seconds_bucket{le="600"}[${w}])))`,
    total: (w) => `sum by (namespace) (rate(certificates_time_to_https_seconds_count[${w}]))`,
  },
  {
    slo: 'certificate_lifetime',
    alert: 'CertificateLifetimeBudgetBurn',
    objective: 0.999,
    what: 'certificates (of domains whose DNS and CAA are still ours) valid with at least a third of their lifetime left',
    state:
      '(max by (namespace) (certificates_by_lifetime_left{left="under_third"}) + max by (namespace) (certificates_by_lifetime_left{left="expired"}))' +
      ' / clamp_min(sum by (namespace) (max by (namespace, left) (certificates_by_lifetime_left)), 1)',
  },
  {
    slo: 'monitor_lag',
    alert: 'MonitorLagBudgetBurn',
    objective: 0.99,
    what: 'time in which no domain waits longer than the monitor interval for its probe',
    state: 'max by (namespace) (monitor_lag_seconds) > bool max by (namespace) (monitor_interval_seconds)',
  },
  {
    slo: 'webhook_delay',
    alert: 'WebhookDelayBudgetBurn',
    objective: 0.95,
    what: 'webhooks delivered within 30 s of their event (of those delivered)',
    errors: (w) =>
      `(sum by (namespace) (rate(webhook_event_to_delivery_seconds_count[${w}]))` +
      ` - sum by (namespace) (rate(webhook_event_to_delivery_seconds_bucket{le="30"}[${w}])))`,
    total: (w) => `sum by (namespace) (rate(webhook_event_to_delivery_seconds_count[${w}]))`,
  },
];

const WINDOWS = ['5m', '30m', '1h', '6h', '3d'];
/** One rule per severity: its pairs of windows joined by `or`. */
const BURNS = [
  {
    severity: 'page',
    for: '2m',
    pairs: [
      { factor: 14.4, long: '1h', short: '5m' },
      { factor: 6, long: '6h', short: '30m' },
    ],
  },
  { severity: 'ticket', for: '15m', pairs: [{ factor: 1, long: '3d', short: '6h' }] },
];

/** Alerts on a cause, each with its own `for`. */
export const CAUSES = [
  {
    alert: 'ShardsUnowned',
    severity: 'page',
    for: '1m',
    expr: `${SHARDS} - sum by (namespace) (actors_shards_owned) > 0 or ${SHARDS} * absent(actors_shards_owned)`,
    summary: '{{ $value }} of 4096 shards have no live node: their domains are not probed, renewed or changed',
  },
  {
    alert: 'NodeFlapping',
    severity: 'ticket',
    for: '5m',
    expr: `max by (namespace, member) (${increaseWithNew('actors_membership_changes_total{change="left"}', '30m')}) > 2`,
    summary: 'Node {{ $labels.member }} left the cluster {{ $value }} times in 30 minutes',
  },
  {
    alert: 'DatabaseUnreachable',
    severity: 'page',
    for: '2m',
    expr: 'dependency_up{dependency="database"} == 0',
    summary: '{{ $labels.instance }} cannot reach PostgreSQL',
  },
  {
    alert: 'NatsUnreachable',
    severity: 'page',
    for: '2m',
    expr: 'dependency_up{dependency="bus"} == 0',
    summary: '{{ $labels.instance }} is not connected to NATS',
  },
  {
    alert: 'CertificatesNotRenewing',
    severity: 'ticket',
    for: '1h',
    expr: 'max by (namespace) (certificates_by_lifetime_left{left="under_third"}) > 0',
    summary: '{{ $value }} certificates have less than a third of their lifetime left and were not renewed',
  },
  {
    alert: 'CertificateIssuanceFailing',
    severity: 'ticket',
    for: '15m',
    expr:
      `sum by (namespace, issuer) (${increaseWithNew(`certificate_order_attempts_total{${CA_SIDE}}`, '30m')}) >= 3` +
      ` and sum by (namespace, issuer) (${increaseWithNew(`certificate_order_attempts_total{${CA_SIDE}}`, '30m')})` +
      ` / sum by (namespace, issuer) (${increaseWithNew('certificate_order_attempts_total', '30m')}) > 0.5`,
    summary: "Most certificate orders at {{ $labels.issuer }} fail on the CA's or our side",
  },
  {
    alert: 'CertificateBudgetExhausted',
    severity: 'ticket',
    for: '30m',
    expr:
      'sum by (namespace, limit) (rate(certificate_budget_waits_total[10m])) > 0' +
      ' and on (namespace) sum by (namespace) (certificate_orders_queued) > 0',
    summary: "Certificate orders have waited on our count of the CA's {{ $labels.limit }} limit for 30 minutes",
  },
  {
    alert: 'WebhookDeadLettersGrowing',
    severity: 'ticket',
    for: '10m',
    expr: 'sum by (namespace) (increase(webhook_dead_letters_total[1h])) > 0',
    summary: 'Webhook deliveries gave up (dead letters) in the last hour',
  },
  {
    alert: 'MonitorBehind',
    severity: 'ticket',
    for: '10m',
    expr: 'max by (namespace) (monitor_lag_seconds) > max by (namespace) (monitor_interval_seconds)',
    summary: 'A domain has waited {{ $value | humanizeDuration }} for its probe, longer than the monitor interval',
  },
];

const runbook = (alert) => `${RUNBOOK_BASE}/${alert}.md`;

function sloRules(s) {
  const record = (w) => `slo:${s.slo}:error_ratio_rate${w}`;
  const recordings = s.state
    ? [
        { record: `slo:${s.slo}:error_ratio`, expr: s.state },
        ...WINDOWS.map((w) => ({ record: record(w), expr: `avg_over_time(slo:${s.slo}:error_ratio[${w}])` })),
      ]
    : WINDOWS.map((w) => ({ record: record(w), expr: `(${s.errors(w)} or ${s.total(w)} * 0) / ${s.total(w)}` }));
  const budget = Number((1 - s.objective).toFixed(6));
  const burning = ({ factor, long, short }) =>
    `(${record(long)} > ${factor} * ${budget} and ${record(short)} > ${factor} * ${budget})`;
  const alerts = BURNS.filter((b) => b.severity === 'ticket' || !s.ticketOnly).map((b) => ({
    alert: s.alert,
    expr: b.pairs.map(burning).join(' or '),
    for: b.for,
    labels: { severity: b.severity, slo: s.slo },
    annotations: {
      summary: `${s.slo}: the error budget burns too fast (${b.pairs.map((p) => `${p.factor}x over ${p.long} and ${p.short}`).join(', or ')})`,
      description: `SLO: ${s.objective * 100}% of ${s.what}, over 30 days.`,
      runbook_url: runbook(s.alert),
    },
  }));
  return { recordings, alerts };
}

/** The rule groups, as a Prometheus rules file holds them. */
export function ruleGroups() {
  const slos = SLOS.map(sloRules);
  return [
    { name: 'custom-domains-slo.records', rules: slos.flatMap((s) => s.recordings) },
    { name: 'custom-domains-slo.alerts', rules: slos.flatMap((s) => s.alerts) },
    {
      name: 'custom-domains-cause.alerts',
      rules: CAUSES.map((c) => ({
        alert: c.alert,
        expr: c.expr,
        for: c.for,
        labels: { severity: c.severity },
        annotations: { summary: c.summary, runbook_url: runbook(c.alert) },
      })),
    },
  ];
}

const HEADER =
  '# Generated by k8s/monitoring/alerts.mjs (`node k8s/monitoring/alerts.mjs`): edit that file, not this one.\n';

export function rulesFile() {
  return HEADER + stringify({ groups: ruleGroups() }, { lineWidth: 0 });
}

export function prometheusRule() {
  return (
    HEADER +
    '# For the Prometheus Operator: `kubectl apply -n custom-domains -f k8s/monitoring/prometheus-rule.yaml`.\n' +
    stringify(
      {
        apiVersion: 'monitoring.coreos.com/v1',
        kind: 'PrometheusRule',
        metadata: { name: 'custom-domains', labels: { 'app.kubernetes.io/name': 'custom-domains' } },
        spec: { groups: ruleGroups() },
      },
      { lineWidth: 0 },
    )
  );
}

const here = dirname(fileURLToPath(import.meta.url));
export const RULES_FILE = join(here, 'prometheus', 'custom-domains.rules.yaml');
export const PROMETHEUS_RULE_FILE = join(here, 'prometheus-rule.yaml');

/** `--check`: exit 1 naming the files that differ from what this produces (written by hand, or stale). */
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // Written as Prettier formats them, so `npm run lint` passes over them.
  const formatted = async (file, text) =>
    prettier.format(text, { ...(await prettier.resolveConfig(file)), filepath: file });
  const outputs = [
    [RULES_FILE, await formatted(RULES_FILE, rulesFile())],
    [PROMETHEUS_RULE_FILE, await formatted(PROMETHEUS_RULE_FILE, prometheusRule())],
  ];
  if (process.argv.includes('--check')) {
    const stale = outputs.filter(([file, text]) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
    for (const [file] of stale) console.error(`${file} differs from what k8s/monitoring/alerts.mjs writes`);
    process.exit(stale.length ? 1 : 0);
  }
  for (const [file, text] of outputs) writeFileSync(file, text);
}
