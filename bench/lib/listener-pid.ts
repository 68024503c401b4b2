import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

/** The socket inodes listening on TCP `port` on this machine (Linux /proc/net/tcp and tcp6). */
function listeningInodes(port: number): Set<string> {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st ... inode: state 0A is LISTEN.
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && f[1].endsWith(hexPort)) inodes.add(f[9]);
    }
  }
  return inodes;
}

/**
 * The pid of the process on this machine listening on TCP `port`, when this process may see its
 * file descriptors (the same user, or root); undefined otherwise (a server elsewhere, in a container).
 */
export function listenerPid(port: number): number | undefined {
  const inodes = listeningInodes(port);
  if (!inodes.size) return undefined;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (socket && inodes.has(socket[1])) return Number(pid);
      } catch {
        // Closed since the listing.
      }
    }
  }
  return undefined;
}

/** The local NATS server's pid for a `nats://host:port` URL on loopback, else undefined. */
export function localNatsPid(natsUrl: string): number | undefined {
  const url = new URL(natsUrl.includes('://') ? natsUrl : `nats://${natsUrl}`);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return undefined;
  return listenerPid(Number(url.port || 4222));
}
