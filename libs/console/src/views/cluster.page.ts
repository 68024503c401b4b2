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
  }[];
  webhookBacklog: { pending: number; oldestDueAt: string | null };
}

export function clusterPage(actor: ConsoleActor, c: ClusterView) {
  return layout({
    title: 'Cluster',
    actor,
    section: 'cluster',
    body: html`<div class="head">
        <div>
          <h1>Cluster</h1>
          <p class="lead">The nodes that answered just now (the same data as <code>GET /admin/cluster</code>).</p>
        </div>
      </div>
      <div class="grid">
        <section class="card">
          <h2>Shards</h2>
          <div class="stat">
            ${c.shardCount - c.unowned} <span class="muted" style="font-size:16px">of ${c.shardCount} owned</span>
          </div>
          <p>
            ${c.unowned ? html`${pill('failed')} ${c.unowned} shards have no owner: their domains are not monitored until a node takes them.` : html`${pill('active')} every shard has an owner.`}
          </p>
        </section>
        <section class="card">
          <h2>Webhook backlog</h2>
          <div class="stat">${c.webhookBacklog.pending}</div>
          <p class="muted">pending deliveries · oldest due ${when(c.webhookBacklog.oldestDueAt)}</p>
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
                  </tr>
                </thead>
                <tbody>
                  ${c.nodes.map(
                    (n) =>
                      html`<tr>
                        <td><code>${n.nodeId}</code></td>
                        <td>${pill(n.draining ? 'pending' : 'active')} ${n.draining ? 'draining' : ''}</td>
                        <td>${n.shardsOwned}<br /><code class="muted">${n.shards}</code></td>
                        <td>${n.residentActors}</td>
                        <td>${n.mailboxDepth}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : empty('No node answered', 'Start a node (npm run start:node) or check the bus (NATS_URLS).')
      }`,
  });
}
