import { REGISTRAR_DNS_RECORD_TYPES } from '@app/registrar';
import { ConsoleActor } from '../access';
import { DnsFormRow, NEW_ROWS } from '../dns-record-form';
import { Html, html } from '../html';
import { csrf } from './layout';

/** The editor as shown: the rows (read, or as the user left them), the version read, and any problems. */
export interface DnsEditorState {
  rows: DnsFormRow[];
  version: string;
  /** Problems of a refused save, by form row. */
  byRow?: Map<number, string[]>;
  /** Problems not tied to a row, or the lost-update refusal. */
  problems?: string[];
}

const blank = (): DnsFormRow => ({ type: '', name: '', value: '', ttl: '', priority: '', remove: false });

function typeSelect(i: number, row: DnsFormRow, isNew: boolean): Html {
  return html`<select id="type-${i}" name="type.${i}" aria-label="Type of row ${i + 1}">
    ${isNew ? html`<option value="" ${row.type ? '' : html` selected`}>—</option>` : ''}
    ${REGISTRAR_DNS_RECORD_TYPES.map(
      (t) => html`<option value="${t}" ${t === row.type ? html` selected` : ''}>${t}</option>`,
    )}
  </select>`;
}

function editRow(i: number, row: DnsFormRow, isNew: boolean, problems: string[] | undefined): Html {
  const invalid = problems?.length ? html` aria-invalid="true" aria-describedby="problem-${i}"` : '';
  const input = (name: string, label: string, value: string, size: string) =>
    html`<input
      type="text"
      name="${name}.${i}"
      value="${value}"
      aria-label="${label} of row ${i + 1}"
      class="${size}"
      ${invalid}
    />`;
  return html`<tr class="${problems?.length ? 'row-invalid' : isNew ? 'row-new' : ''}">
    <td>${typeSelect(i, row, isNew)}</td>
    <td>${input('name', 'Name', row.name, 'w-name')}</td>
    <td>
      ${input('value', 'Value', row.value, 'w-value')}
      ${problems?.length ? html`<p class="field-problem" id="problem-${i}">${problems.join('; ')}</p>` : ''}
    </td>
    <td>${input('ttl', 'TTL', row.ttl, 'w-num')}</td>
    <td>${input('priority', 'Priority', row.priority, 'w-num')}</td>
    <td>
      ${isNew ? html`<span class="muted">new</span>` : html`<label class="inline-check"><input type="checkbox" name="remove.${i}" ${row.remove ? html` checked` : ''} /> Remove</label>`}
    </td>
  </tr>`;
}

function readRow(row: DnsFormRow): Html {
  return html`<tr>
    <td>${row.type}</td>
    <td><code>${row.name}</code></td>
    <td><code>${row.value}</code></td>
    <td>${row.ttl}</td>
    <td>${row.priority || '—'}</td>
  </tr>`;
}

/**
 * The registrar's record set as one form: the whole edited set is what "Save" sends (SPEC's PUT
 * replaces the set), with the version read so a set changed meanwhile is refused, not overwritten.
 */
export function dnsEditor(actor: ConsoleActor, action: string, state: DnsEditorState, canWrite: boolean): Html {
  const problems = state.problems ?? [];
  const summary = problems.length
    ? html`<div class="form-problems" role="alert">
        <strong>The records were not saved.</strong>
        <ul>
          ${problems.map((p) => html`<li>${p}</li>`)}
        </ul>
      </div>`
    : '';
  if (!canWrite) {
    return html`${summary}
      ${
        state.rows.length
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Name</th>
                    <th scope="col">Value</th>
                    <th scope="col">TTL</th>
                    <th scope="col">Priority</th>
                  </tr>
                </thead>
                <tbody>
                  ${state.rows.map(readRow)}
                </tbody>
              </table>
            </div>`
          : html`<p class="muted">The registrar holds no DNS records for this domain.</p>`
      }
      <p class="muted">Viewers cannot change DNS records.</p>`;
  }
  // Rows the user added and left blank are not carried over; three fresh blank rows follow the set.
  const kept = state.rows.filter((r, i) => r.name || r.value || state.byRow?.has(i));
  const rows = [...kept, ...Array.from({ length: NEW_ROWS }, blank)];
  const firstNew = kept.length;
  return html`${summary}
    <form method="post" action="${action}" id="dns-editor">
      ${csrf(actor)}
      <input type="hidden" name="version" value="${state.version}" />
      <input type="hidden" name="rows" value="${rows.length}" />
      <div class="table-wrap">
        <table class="editor">
          <caption class="muted">
            Edit, add (blank rows at the bottom) or remove records, then save: the registrar gets the whole set. TTL
            empty: 1800 seconds. Priority: MX only.
          </caption>
          <thead>
            <tr>
              <th scope="col">Type</th>
              <th scope="col">Name</th>
              <th scope="col">Value</th>
              <th scope="col">TTL</th>
              <th scope="col">Priority</th>
              <th scope="col"><span class="skip">Remove</span></th>
            </tr>
          </thead>
          <tbody>
            ${rows.map((row, i) => {
              // A kept row keeps its problems; `byRow` is keyed by the submitted form row.
              const original = i < firstNew ? state.rows.indexOf(kept[i]) : -1;
              return editRow(i, row, i >= firstNew, original >= 0 ? state.byRow?.get(original) : undefined);
            })}
          </tbody>
        </table>
      </div>
      <button type="submit">Save DNS records</button>
    </form>`;
}
