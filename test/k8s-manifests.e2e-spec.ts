import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ProcessRole, loadConfig } from '@app/config';
import { REPO_ROOT } from '@test/support';
import { API_V8_FLAGS } from '../apps/api/src/v8-flags';
import { NODE_V8_FLAGS } from '../apps/node/src/v8-flags';

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [key: string]: any;
};

const K8S = join(REPO_ROOT, 'k8s');
const OVERLAYS = ['dev', 'production'];
const KUBECTL = process.env.KUBECTL ?? 'kubectl';
/**
 * Settings that do not belong in the ConfigMap or Secret: per pod (NODE_ID), embedded-only
 * (DATA_DIR), test-only CAs and the test-only OpenAPI answer check (OPENAPI_VIOLATIONS_FILE).
 */
const NOT_IN_CONFIG = new Set([
  'NODE_ID',
  'DATA_DIR',
  'ACME_CA_FILE',
  'DOMAIN_CONNECT_CA_FILE',
  'OPENAPI_VIOLATIONS_FILE',
]);

function filesUnder(dir: string, suffixes: string[]): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return filesUnder(path, suffixes);
    return suffixes.some((s) => entry.endsWith(s)) ? [path] : [];
  });
}

function parseYaml(text: string, source: string): unknown[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length) throw new Error(`${source}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS();
  });
}

/** kubectl with an embedded kustomize that knows `labels` and `patches` (v4+); fails loudly otherwise. */
function requireKubectl(kubectl = KUBECTL): void {
  const version = spawnSync(kubectl, ['version', '--client'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) {
    throw new Error(
      `kubectl is required to render k8s/overlays (not found as "${kubectl}": ${version.error?.message ?? version.stderr}). ` +
        'Install it (Debian: apt-get install kubernetes-client; .ci/run does) or point KUBECTL at one.',
    );
  }
  const kustomize = /Kustomize Version: v(\d+)/.exec(version.stdout);
  if (kustomize && Number(kustomize[1]) < 4) {
    throw new Error(`kubectl embeds kustomize v${kustomize[1]}; the overlays need v4 or later (kubectl 1.21+)`);
  }
}

function render(overlay: string): K8sObject[] {
  const output = execFileSync(KUBECTL, ['kustomize', join(K8S, 'overlays', overlay)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseYaml(output, `kubectl kustomize ${overlay}`) as K8sObject[];
}

function schemaFailures(objects: K8sObject[]): { kind: string; name: string; error: string }[] {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, 'test/support/k8s-schema-check.mjs')], {
    cwd: REPO_ROOT,
    input: JSON.stringify(objects),
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`schema check crashed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Variable names app-config.ts reads (`integer(env, 'PORT', ...)`, `raw(env, 'X')`, ...). */
function configVariables(): string[] {
  const source = readFileSync(join(REPO_ROOT, 'libs/config/src/app-config.ts'), 'utf8');
  return [...new Set([...source.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]))];
}

const podSpec = (o: K8sObject) => o.spec.template.spec;
const workloads = (objects: K8sObject[]) =>
  objects.filter((o) => ['Deployment', 'StatefulSet', 'Job'].includes(o.kind));
const servers = (objects: K8sObject[]) => objects.filter((o) => ['Deployment', 'StatefulSet'].includes(o.kind));
const find = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is missing`);
  return found;
};
const selects = (selector: Record<string, string>, labels: Record<string, string> = {}) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('k8s manifests', () => {
  it("a node starts with its V8 flags however it is started: the image's standalone and the npm scripts", () => {
    const flags = NODE_V8_FLAGS.join(' ');
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
    expect(cmd).toEqual([...NODE_V8_FLAGS, 'dist/apps/standalone/src/main.js']);
    const scripts = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.start).toContain(`${flags} dist/apps/standalone/src/main.js`);
    expect(scripts['start:node']).toContain(`${flags} dist/apps/node/src/main.js`);
  });

  it('every YAML file under k8s/ parses, and every object names its apiVersion, kind and metadata.name', () => {
    // Prometheus's own rule files (k8s/monitoring/prometheus) are not Kubernetes objects: test/alert-rules checks them.
    const prometheusFiles = join(K8S, 'monitoring', 'prometheus');
    const files = filesUnder(K8S, ['.yaml', '.yml']).filter((file) => !file.startsWith(prometheusFiles));
    expect(files.length).toBeGreaterThan(8);
    for (const file of files) {
      const docs = parseYaml(readFileSync(file, 'utf8'), relative(REPO_ROOT, file));
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs as K8sObject[]) {
        const where = `${relative(REPO_ROOT, file)} (${doc?.kind})`;
        expect({ where, apiVersion: typeof doc?.apiVersion }).toEqual({ where, apiVersion: 'string' });
        expect({ where, kind: typeof doc.kind }).toEqual({ where, kind: 'string' });
        if (doc.kind !== 'Kustomization')
          expect({ where, name: typeof doc.metadata?.name }).toEqual({ where, name: 'string' });
      }
    }
  });

  it('the Grafana dashboard is JSON with panels that query Prometheus', () => {
    const dashboards = filesUnder(join(K8S, 'grafana'), ['.json']);
    expect(dashboards.length).toBeGreaterThan(0);
    for (const file of dashboards) {
      const dashboard = JSON.parse(readFileSync(file, 'utf8'));
      const panels = dashboard.panels.filter((p: any) => p.type !== 'row');
      expect(panels.length).toBeGreaterThan(8);
      for (const panel of panels) expect(panel.targets?.[0]?.expr).toEqual(expect.any(String));
    }
  });

  it('fails with a clear message when kubectl is missing', () => {
    expect(() => requireKubectl('/nonexistent/kubectl')).toThrow(/kubectl is required to render k8s\/overlays/);
  });

  describe.each(OVERLAYS)('overlay %s', (overlay) => {
    let objects: K8sObject[];
    beforeAll(() => {
      requireKubectl();
      objects = render(overlay);
    });

    it('renders, every object has apiVersion, kind, a name and (namespaced) the overlay namespace', () => {
      expect(objects.length).toBeGreaterThan(15);
      const namespace = objects.find((o) => o.kind === 'Namespace')?.metadata.name;
      expect(namespace).toEqual(expect.any(String));
      for (const o of objects) {
        expect(o.apiVersion).toEqual(expect.any(String));
        expect(o.kind).toEqual(expect.any(String));
        expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/);
        if (o.kind !== 'Namespace')
          expect({ object: `${o.kind}/${o.metadata.name}`, ns: o.metadata.namespace }).toEqual({
            object: `${o.kind}/${o.metadata.name}`,
            ns: namespace,
          });
      }
    });

    it('every object passes the Kubernetes schema (kubernetes-models)', () => {
      expect(schemaFailures(objects)).toEqual([]);
    });

    it('the schema check catches a broken object', () => {
      const broken = structuredClone(find(objects, 'Deployment', 'api'));
      broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
      delete broken.spec.selector;
      const failures = schemaFailures([broken]);
      expect(failures).toHaveLength(1);
      expect(failures[0].error).toMatch(/containerPort must be integer|selector/);
    });

    it('has the api, node and edge workloads, the migration Job, their Services, HPAs and PDBs', () => {
      const api = find(objects, 'Deployment', 'api');
      const node = find(objects, 'StatefulSet', 'node');
      const edge = find(objects, 'Deployment', 'edge');
      const migrate = find(objects, 'Job', 'migrate');
      const args = (o: K8sObject) => podSpec(o).containers[0].args as string[];
      const script = (o: K8sObject) => args(o).at(-1) as string;
      expect([api, node, edge, migrate].map(script)).toEqual([
        'dist/apps/api/src/main.js',
        'dist/apps/node/src/main.js',
        'dist/apps/edge/src/main.js',
        'dist/libs/persistence/src/migrate.main.js',
      ]);
      // Before the script: the api's and the node's V8 flags (apps/*/src/v8-flags.ts), nothing for the others.
      expect([api, node, edge, migrate].map((o) => args(o).slice(0, -1))).toEqual([
        API_V8_FLAGS,
        NODE_V8_FLAGS,
        [],
        [],
      ]);
      for (const o of [api, node, edge, migrate]) {
        const source = script(o)
          .replace(/^dist\//, '')
          .replace(/\.js$/, '.ts');
        expect(existsSync(join(REPO_ROOT, source))).toBe(true);
      }
      for (const [kind, name] of [
        ['Deployment', 'api'],
        ['StatefulSet', 'node'],
        ['Deployment', 'edge'],
      ]) {
        const hpa = find(objects, 'HorizontalPodAutoscaler', name);
        expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind, name });
        expect(hpa.spec.metrics).toContainEqual(
          expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }),
        );
        expect(hpa.spec.minReplicas).toBeLessThanOrEqual(hpa.spec.maxReplicas);
        const pdb = find(objects, 'PodDisruptionBudget', name);
        const workload = find(objects, kind, name);
        expect(selects(pdb.spec.selector.matchLabels, workload.spec.template.metadata.labels)).toBe(true);
      }
      expect(find(objects, 'PodDisruptionBudget', 'node').spec.maxUnavailable).toBe(1);
      // Every Service selects the pods of some workload.
      for (const service of objects.filter((o) => o.kind === 'Service')) {
        const targets = servers(objects).filter((w) => selects(service.spec.selector, w.spec.template.metadata.labels));
        expect({ service: service.metadata.name, targets: targets.length }).toEqual({
          service: service.metadata.name,
          targets: 1,
        });
      }
    });

    it('every long-running container has /healthz liveness, /readyz readiness, a startup probe and a preStop', () => {
      for (const workload of servers(objects)) {
        for (const c of podSpec(workload).containers) {
          const where = `${workload.kind}/${workload.metadata.name}/${c.name}`;
          expect({ where, live: c.livenessProbe?.httpGet?.path }).toEqual({ where, live: '/healthz' });
          expect({ where, ready: c.readinessProbe?.httpGet?.path }).toEqual({ where, ready: '/readyz' });
          expect({ where, startup: c.startupProbe?.httpGet?.path }).toEqual({ where, startup: '/healthz' });
          expect({ where, preStop: Boolean(c.lifecycle?.preStop) }).toEqual({ where, preStop: true });
          const preStopSeconds = Number(c.lifecycle.preStop.exec.command.at(-1));
          expect(podSpec(workload).terminationGracePeriodSeconds).toBeGreaterThan(preStopSeconds + 10);
          // Probes use the port that serves PORT (3000 in the ConfigMap).
          const probePort = c.ports.find((p: any) => p.name === c.livenessProbe.httpGet.port)?.containerPort;
          expect({ where, probePort }).toEqual({ where, probePort: 3000 });
        }
      }
    });

    it('every container has CPU and memory requests and limits, runs as non-root, read-only, without capabilities', () => {
      const memoryMi = (q: string) =>
        Number(/^(\d+)Mi$/.exec(q)?.[1] ?? /^(\d+)Gi$/.exec(q)?.[1] ?? NaN) * (q.endsWith('Gi') ? 1024 : 1);
      for (const workload of workloads(objects)) {
        const pod = podSpec(workload);
        expect(pod.automountServiceAccountToken).toBe(false);
        expect(pod.securityContext.runAsNonRoot).toBe(true);
        expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
        expect(pod.securityContext.seccompProfile.type).toBe('RuntimeDefault');
        for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
          const where = `${workload.kind}/${workload.metadata.name}/${c.name}`;
          for (const side of ['requests', 'limits']) {
            expect({ where, side, cpu: typeof c.resources?.[side]?.cpu }).toEqual({ where, side, cpu: 'string' });
            expect({ where, side, mem: typeof c.resources?.[side]?.memory }).toEqual({ where, side, mem: 'string' });
          }
          expect(memoryMi(c.resources.limits.memory)).toBeGreaterThanOrEqual(memoryMi(c.resources.requests.memory));
          expect({ where, sc: c.securityContext }).toEqual({
            where,
            sc: expect.objectContaining({
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ['ALL'] },
            }),
          });
          expect(c.securityContext.privileged).not.toBe(true);
          expect(c.securityContext.runAsUser ?? pod.securityContext.runAsUser).not.toBe(0);
          // A writable /tmp for a read-only root.
          expect(c.volumeMounts).toContainEqual(expect.objectContaining({ mountPath: '/tmp' }));
        }
      }
    });

    it('nodes get a stable NODE_ID from the pod name and time for a shard handoff', () => {
      const node = find(objects, 'StatefulSet', 'node');
      expect(node.spec.serviceName).toBe('node-headless');
      const env = podSpec(node).containers[0].env;
      expect(env).toContainEqual({ name: 'NODE_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
      // The drain: queued commands, lease release, 3 s of webhook attempts; the client retries 30 s.
      expect(podSpec(node).terminationGracePeriodSeconds).toBeGreaterThanOrEqual(30);
      expect(node.spec.updateStrategy.type).toBe('RollingUpdate');
    });

    it('the edge is a LoadBalancer on 80/443 mapped to EDGE_HTTP_PORT/EDGE_HTTPS_PORT, and on UDP and TCP 53 for the challenge zone', () => {
      const config = find(objects, 'ConfigMap', 'custom-domains-config').data;
      const service = find(objects, 'Service', 'edge');
      const edgePod = podSpec(find(objects, 'Deployment', 'edge'));
      const edge = edgePod.containers[0];
      const target = (name: string) => edge.ports.find((p: any) => p.name === name);
      if (overlay === 'production') expect(service.spec.type).toBe('LoadBalancer');
      const ports = service.spec.ports.map((p: any) => [
        `${p.port}/${p.protocol}`,
        `${target(p.targetPort as string)?.containerPort}/${target(p.targetPort as string)?.protocol}`,
      ]);
      // ACME_CHALLENGE_DNS_PORT is left to its default (53), which the pod may bind without root.
      const secret = find(objects, 'Secret', 'custom-domains-secrets').stringData;
      const withZone = { ...config, ...secret, ACME_CHALLENGE_ZONE: 'acme.example.net' };
      const dnsPort = loadConfig(withZone, 'edge').challengeZone!.port;
      expect(Object.fromEntries(ports)).toEqual({
        '80/TCP': `${config.EDGE_HTTP_PORT}/TCP`,
        '443/TCP': `${config.EDGE_HTTPS_PORT}/TCP`,
        '53/UDP': `${dnsPort}/UDP`,
        '53/TCP': `${dnsPort}/TCP`,
      });
      const unprivilegedFrom = edgePod.securityContext.sysctls.find(
        (s: any) => s.name === 'net.ipv4.ip_unprivileged_port_start',
      )?.value;
      expect(Number(unprivilegedFrom)).toBeLessThanOrEqual(dnsPort);
    });

    it('the ConfigMap and Secret carry every setting of libs/config; the apps leave migrations to the Job', () => {
      const config = find(objects, 'ConfigMap', 'custom-domains-config').data;
      const secret = find(objects, 'Secret', 'custom-domains-secrets').stringData;
      const provided = new Set([...Object.keys(config), ...Object.keys(secret)]);
      const missing = configVariables().filter((name) => !NOT_IN_CONFIG.has(name) && !provided.has(name));
      expect(missing).toEqual([]);
      for (const name of ['DATABASE_URL', 'SIGNING_SECRET', 'ENCRYPTION_KEY', 'ADMIN_TOKEN']) {
        expect(Object.keys(secret)).toContain(name);
        expect(Object.keys(config)).not.toContain(name);
      }
      expect(config.MIGRATE_ON_START).toBe('false');
      for (const workload of workloads(objects)) {
        const refs = podSpec(workload).containers[0].envFrom.map((e: any) => e.configMapRef?.name ?? e.secretRef?.name);
        expect(refs).toEqual(['custom-domains-config', 'custom-domains-secrets']);
      }
    });

    it('the ConfigMap and Secret are a valid configuration for every process (libs/config accepts them)', () => {
      const env = {
        ...find(objects, 'ConfigMap', 'custom-domains-config').data,
        ...find(objects, 'Secret', 'custom-domains-secrets').stringData,
        NODE_ID: 'node-0',
      };
      const roles: Record<string, ProcessRole> = { api: 'api', node: 'node', edge: 'edge', migrate: 'tool' };
      for (const [name, role] of Object.entries(roles)) {
        const config = loadConfig(env, role);
        expect({ name, migrateOnStart: config.migrateOnStart, port: config.port }).toEqual({
          name,
          migrateOnStart: false,
          port: 3000,
        });
      }
      expect(loadConfig(env, 'node').natsReplicas).toBe(overlay === 'production' ? 3 : 1);
    });

    it('NetworkPolicies deny by default and open only what each process needs', () => {
      const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
      const deny = find(objects, 'NetworkPolicy', 'default-deny');
      expect(deny.spec.policyTypes).toEqual(['Ingress', 'Egress']);
      expect(deny.spec.ingress).toBeUndefined();
      expect(deny.spec.egress).toBeUndefined();
      for (const workload of workloads(objects)) {
        const labels = workload.spec.template.metadata.labels;
        expect(selects(deny.spec.podSelector.matchLabels, labels)).toBe(true);
      }
      const ingressPorts = (name: string) =>
        find(objects, 'NetworkPolicy', name).spec.ingress.flatMap((r: any) => r.ports.map((p: any) => p.port));
      expect(ingressPorts('api-ingress')).toEqual([3000]);
      expect(ingressPorts('edge-ingress').sort()).toEqual([3000, 53, 53, 8080, 8443]);
      expect(ingressPorts('node-ingress')).toEqual([3000]);
      const egressPorts = find(objects, 'NetworkPolicy', 'dependencies-egress').spec.egress.flatMap((r: any) =>
        r.ports.map((p: any) => p.port),
      );
      expect(egressPorts).toEqual(expect.arrayContaining([53, 5432, 4222]));
      expect(policies.length).toBeGreaterThanOrEqual(5);
    });
  });
});
