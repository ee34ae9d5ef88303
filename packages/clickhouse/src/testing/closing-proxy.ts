/**
 * Test harness (used only by tests): a TCP proxy in front of a real server
 * that does what a server's keep-alive timeout does at the worst moment. A
 * connection that has carried an answer and then idled for `idleMs` is closed
 * (FIN, nothing forwarded) when the next request's first bytes arrive, as a
 * server closes an idle connection just as a request crosses the close on
 * the wire. On a loaded machine that race is real (clickhouse-js issues
 * #150, #294): a 10M import into clickhouse-server 18.16 (keep-alive 3 s) died
 * with `socket hang up`. Here it happens on every reuse after `idleMs`.
 */
import { connect, createServer, type Socket } from 'node:net';

export interface ClosingProxy {
  url: string;
  /** Connections closed by the proxy. */
  readonly closed: number;
  /**
   * When set, every answer is lost: the connection is closed as the server's first bytes
   * arrive, after the server has run the request (a server or network dying at that moment).
   */
  loseAnswers: boolean;
  stop(): Promise<void>;
}

/**
 * @example
 * const proxy = await startClosingProxy(server.httpPort, 200);
 * const storage = createClickHouseStorage({ url: proxy.url });
 */
export async function startClosingProxy(targetPort: number, idleMs: number): Promise<ClosingProxy> {
  let closed = 0;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    let answeredAt: number | undefined;
    let dropping = false;
    client.on('data', (data) => {
      if (dropping) return;
      if (answeredAt !== undefined && Date.now() - answeredAt >= idleMs) {
        dropping = true;
        closed++;
        upstream.destroy();
        client.end();
        return;
      }
      upstream.write(data);
    });
    upstream.on('data', (data) => {
      if (proxy.loseAnswers) {
        dropping = true;
        closed++;
        upstream.destroy();
        client.end();
        return;
      }
      answeredAt = Date.now();
      client.write(data);
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', () => {
      if (!dropping) close();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const proxy: ClosingProxy = {
    url: `http://127.0.0.1:${port}`,
    get closed() {
      return closed;
    },
    loseAnswers: false,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
