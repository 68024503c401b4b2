import { startBanner } from './start-banner';

const TOKEN = 'gQUsRgmStNx9IIBKP6ysKzbOTXH0BEM3uxE6AXJyLfC';
const facts = {
  url: 'http://127.0.0.1:3001',
  dataDir: './quickstart-data',
  adminToken: TOKEN,
  adminTokenGenerated: true,
  database: 'embedded PostgreSQL in ./quickstart-data',
  bus: 'in-process',
  consoleSetUp: false,
};

describe('startBanner', () => {
  it('on a terminal: the token, where it is kept, and a curl line that uses it', () => {
    const banner = startBanner({ ...facts, onTerminal: true });
    expect(banner).toContain(`  Admin token: ${TOKEN}  (generated, kept in ./quickstart-data/admin-token)`);
    expect(banner).toContain(`-H "authorization: Bearer ${TOKEN}"`);
  });

  it('where logs are collected: never the token, only the file that holds it', () => {
    const banner = startBanner({ ...facts, onTerminal: false });
    expect(banner).not.toContain(TOKEN);
    expect(banner).toContain('  Admin token: in ./quickstart-data/admin-token (not printed where logs are collected');
    expect(banner).toContain('-H "authorization: Bearer $(cat ./quickstart-data/admin-token)"');
  });

  it('a token set by ADMIN_TOKEN is never printed off a terminal either', () => {
    const banner = startBanner({ ...facts, adminTokenGenerated: false, onTerminal: false });
    expect(banner).not.toContain(TOKEN);
    expect(banner).toContain('Admin token: the ADMIN_TOKEN you set');
    expect(banner).toContain('Bearer $ADMIN_TOKEN"');
  });

  it('stops calling the console a first visit once a console user exists', () => {
    expect(startBanner({ ...facts, onTerminal: true })).toContain('first visit: create the operator account');
    const later = startBanner({ ...facts, onTerminal: true, consoleSetUp: true });
    expect(later).not.toContain('first visit');
    expect(later).toContain('/console  (sign in; operators add users under Users,');
  });
});
