import { WORKSPACE_ROLES } from '../access';
import { UserRow } from '../console-user-admin.store';
import { Html, html } from '../html';
import { pill } from './layout';

/** Form parts shared by the users list and a user's page. */
export type Choice = { id: string; name: string };

export const workspaceSelect = (
  id: string,
  choices: Choice[],
  optional: boolean,
  selected?: string,
  attrs: Html = html``,
) =>
  html`<select id="${id}" name="workspaceId" ${optional ? '' : html`required`} ${attrs}>
    ${optional ? html`<option value="">No workspace (operators see all)</option>` : ''}
    ${choices.map(
      (w) => html`<option value="${w.id}" ${w.id === selected ? html`selected` : ''}>${w.name} (${w.id})</option>`,
    )}
  </select>`;

export const roleSelect = (id: string, selected: string = 'member') =>
  html`<select id="${id}" name="role">
    ${WORKSPACE_ROLES.map(
      (r) =>
        html`<option value="${r}" ${r === selected ? html`selected` : ''}>
          ${r === 'member' ? 'member (can change things)' : 'viewer (read-only)'}
        </option>`,
    )}
  </select>`;

export const roleOf = (u: UserRow): Html =>
  u.operator
    ? html`<span class="badge">operator</span>`
    : u.workspaces.length
      ? html`workspace roles`
      : html`<span class="muted">no workspace</span>`;

export const status = (u: UserRow) => pill(u.disabled ? 'disabled' : 'active');
