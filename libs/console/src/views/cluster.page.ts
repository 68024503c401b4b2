import { ConsoleActor } from '../access';
import { html } from '../html';
import { empty, layout, pill, when } from './layout';

export interface ClusterView {
  shardCount: number;
  unowned: number;
  nodes: {
    nodeId: string;
    draining: boolean;
    shardsOwned: number;
    shards: string;
    residentActors: number;
    mailboxDepth: number;
    rates: Record<string, number>;
  }[];
  processes: { role: string; nodeId: string; host: string; pid: number; startedAt: string }[];
  departed: { nodeId: string; at: string; reason: 'left' | 'killed' | 'silent' }[];
  webhookBacklog: { pending: number; oldestDueAt: string | null };
  monitor: { lagSeconds: number; overdue: number };
}

const perSecond = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(n >= 10 ? 1 : 2));
const sum = (c: ClusterView, rate: string) => c.nodes.reduce((total, n) => total + (n.rates[rate] ?? 0), 0);

function duration(seconds: number): string {
  if (seconds < 1) return 'none';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/**
 * The shard numbers folded away: consistent hashing scatters a node's shards, so the list of ranges
 * runs to hundreds of numbers that pushed every other column off the screen.
 */
function shardList(ranges: string) {
  if (!ranges) return '';
  const count = ranges.split(',').length;
  return html`<details class="shards">
    <summary class="muted">${count === 1 ? '1 range' : `${count} ranges`}</summary>
    <code class="muted">${ranges}</code>
  </details>`;
}

/** Why a node left, in the words a support person repeats to a customer. */
const LEFT_BECAUSE: Record<ClusterView['departed'][number]['reason'], string> = {
  left: 'Shut down cleanly: it handed its shards over before it stopped (a deploy or a scale-down).',
  killed:
    'Died: its connections closed without a goodbye (killed, crashed or out of memory); its shards were taken over.',
  silent:
    'Stopped answering: no heartbeat for 9 s (paused, cut off from NATS, or died unseen); its shards were taken over.',
};

function processesTable(c: ClusterView) {
  if (!c.processes.length) return '';
  return html`<h2>Processes</h2>
    <p class="muted">Every process that answered on the bus: api, node, edge (or one standalone).</p>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col">Name</th>
            <th scope="col">Host</th>
            <th scope="col">PID</th>
            <th scope="col">Up since</th>
          </tr>
        </thead>
        <tbody>
          ${c.processes.map(
            (p) =>
              html`<tr>
                <td>${p.role}</td>
                <td><code>${p.nodeId}</code></td>
                <td><code>${p.host}</code></td>
                <td>${p.pid}</td>
                <td>${when(p.startedAt)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

function departedTable(c: ClusterView) {
  if (!c.departed.length) return '';
  return html`<h2>Departed nodes</h2>
    <p class="muted">Nodes that left the cluster within the last hour and have not come back.</p>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Left at</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          ${c.departed.map(
            (d) =>
              html`<tr>
                <td><code>${d.nodeId}</code></td>
                <td>${when(d.at)}</td>
                <td>
                  <span class="pill ${d.reason === 'left' ? 'neutral' : 'bad'}">${d.reason}</span>
                  ${LEFT_BECAUSE[d.reason]}
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

export function clusterPage(actor: ConsoleActor, c: ClusterView) {
  const behind = c.monitor.lagSeconds >= 60;
  return layout({
    title: 'Cluster',
    actor,
    section: 'cluster',
    body: html`<div class="head">
        <div>
          <h1>Cluster</h1>
          <p class="lead">
            The nodes that answered just now (the same data as <code>GET /admin/cluster</code>); rates are per second
            over the last minute.
          </p>
        </div>
      </div>
      <div class="grid">
        <section class="card">
          <h2>Shards</h2>
          <div class="stat">${c.shardCount - c.unowned} <span class="muted unit">of ${c.shardCount} owned</span></div>
          <p>
            ${c.unowned ? html`${pill('failed')} ${c.unowned} shards have no owner: their domains are not monitored until a node takes them.` : html`${pill('active')} every shard has an owner.`}
          </p>
        </section>
        <section class="card">
          <h2>Monitor</h2>
          <div class="stat">${perSecond(sum(c, 'monitorProbes'))} <span class="muted unit">probes/s</span></div>
          <p>
            Lag ${pill(behind ? 'behind' : 'on_time')} <strong>${duration(c.monitor.lagSeconds)}</strong>
            <span class="muted"
              >· oldest overdue probe; ${c.monitor.overdue > 10_000 ? 'over 10,000' : c.monitor.overdue} domains
              overdue</span
            >
          </p>
        </section>
        <section class="card">
          <h2>Webhook backlog</h2>
          <div class="stat">${c.webhookBacklog.pending}</div>
          <p class="muted">
            pending deliveries · oldest due ${when(c.webhookBacklog.oldestDueAt)} ·
            ${perSecond(sum(c, 'webhookAttempts'))} attempts/s
          </p>
        </section>
      </div>
      ${
        c.nodes.length
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Node</th>
                    <th scope="col">State</th>
                    <th scope="col">Shards owned</th>
                    <th scope="col">Resident actors</th>
                    <th scope="col">Mailbox depth</th>
                    <th scope="col">Probes/s</th>
                    <th scope="col">Webhook attempts/s</th>
                  </tr>
                </thead>
                <tbody>
                  ${c.nodes.map(
                    (n) =>
                      html`<tr>
                        <td><code>${n.nodeId}</code></td>
                        <td>${pill(n.draining ? 'pending' : 'active')} ${n.draining ? 'draining' : ''}</td>
                        <td>${n.shardsOwned}${shardList(n.shards)}</td>
                        <td>${n.residentActors}</td>
                        <td>${n.mailboxDepth}</td>
                        <td>${perSecond(n.rates.monitorProbes ?? 0)}</td>
                        <td>${perSecond(n.rates.webhookAttempts ?? 0)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : empty('No node answered', 'Start a node (npm run start:node) or check the bus (NATS_URLS).')
      }
      ${departedTable(c)} ${processesTable(c)}`,
  });
}
