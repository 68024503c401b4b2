/**
 * The routes Fastify registered (fed by an onRoute hook), to tell "no such path" (404) from "no such
 * method on this path" (405 with `Allow`). Fastify's patterns: `:name` is one path segment, `*` the rest.
 */
export class RouteTable {
  private readonly routes: { method: string; pattern: RegExp }[] = [];

  add(method: string | string[], url: string): void {
    const pattern = new RegExp(
      `^${url
        .split('/')
        .map((part) =>
          part === '*' ? '.*' : part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('/')}$`,
    );
    for (const one of [method].flat()) this.routes.push({ method: one.toUpperCase(), pattern });
  }

  /** The methods some route answers at this path (without its query), sorted; empty when none does. */
  methodsAt(path: string): string[] {
    const methods = new Set(this.routes.filter((route) => route.pattern.test(path)).map((route) => route.method));
    return [...methods].sort();
  }
}
