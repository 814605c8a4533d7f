/**
 * Blocks every outgoing connection of this process while the cost estimate runs (`adaptmr run --estimate`), so "no
 * request is sent" holds for every client — the LLM SDK's connection pool, Node's fetch, an embedding API, a memory
 * server's adapter — not only for the LLM clients the estimate replaces: each opens its TCP (or TLS) connection
 * through `net.Socket.prototype.connect`, which here throws instead. A method that needs such a service fails in the
 * estimate with that message, and the estimate says which.
 */
import net from 'node:net';

export const NO_NETWORK_MESSAGE = 'the estimate sends no request';

export function blockNetwork(): () => void {
  const original = net.Socket.prototype.connect;
  const blocked = function (this: net.Socket, ...args: unknown[]): net.Socket {
    const first = args[0] as { host?: string; port?: number; path?: string } | number | string | undefined;
    const where =
      typeof first === 'object' && first !== null
        ? (first.path ?? `${first.host ?? 'localhost'}:${first.port ?? ''}`)
        : String(first);
    throw new Error(`${NO_NETWORK_MESSAGE} (blocked a connection to ${where})`);
  };
  net.Socket.prototype.connect = blocked as unknown as typeof original;
  return () => {
    net.Socket.prototype.connect = original;
  };
}
