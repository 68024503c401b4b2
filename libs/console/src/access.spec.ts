import {
  ConsoleActor,
  WorkspaceRole,
  requireAccess,
  requireOperator,
  requireRead,
  requireWrite,
  roleIn,
} from './access';

const actor = (operator: boolean, roles: [string, WorkspaceRole][]): ConsoleActor => ({
  user: { id: 'cu_1', email: 'a@example.com', name: null, operator },
  memberships: new Map(roles),
  csrfToken: 'c',
  sessionHash: 'h',
});

describe('console access', () => {
  it('lets an operator read and write every workspace', () => {
    const op = actor(true, []);
    expect(roleIn(op, 'ws_x')).toBe('member');
    expect(() => requireWrite(op, 'ws_x')).not.toThrow();
    expect(() => requireOperator(op)).not.toThrow();
  });

  it('hides other workspaces from a member and refuses writes to a viewer', () => {
    const user = actor(false, [
      ['ws_a', 'member'],
      ['ws_b', 'viewer'],
    ]);
    expect(() => requireWrite(user, 'ws_a')).not.toThrow();
    expect(() => requireRead(user, 'ws_b')).not.toThrow();
    expect(() => requireWrite(user, 'ws_b')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => requireRead(user, 'ws_c')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => requireOperator(user)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });

  it('decides by the declared level, and refuses an undeclared one or a workspace level without a workspace', () => {
    const viewer = actor(false, [['ws_b', 'viewer']]);
    expect(() => requireAccess('signed-in', viewer)).not.toThrow();
    expect(() => requireAccess('read', viewer, 'ws_b')).not.toThrow();
    expect(() => requireAccess('write', viewer, 'ws_b')).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => requireAccess('operator', viewer)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => requireAccess('read', viewer)).toThrow(expect.objectContaining({ code: 'forbidden' }));
    expect(() => requireAccess(undefined, actor(true, []))).toThrow(/declares no access rule/);
  });
});
