import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from './client.js';
import { clickhouseAvailable, startClickHouse, warnIfUnavailable, type TestServer } from '../testing/test-server.js';

warnIfUnavailable('reads a shard failed with code 101');

/** 18.16's answer when a shard failed a Distributed read with code 101, as it reached a server process in CI. */
const FAULT_BODY =
  'Code: 101, e.displayText() = DB::Exception: Received from 127.0.0.1:23953. DB::NetException. DB::NetException: Unexpected packet Data received from client, e.what() = DB::Exception\n';

// A loopback HTTP server in front of a real clickhouse-server: it answers the next `faults` requests
// with 18.16's code 101 answer (nothing forwarded) and forwards every other request.
describe.skipIf(!clickhouseAvailable)('a read a shard failed with code 101 (ClickHouse before 20.12)', () => {
  let server: TestServer;
  let front: Server;
  let url: string;
  let faults = 0;
  let requests = 0;
  beforeAll(async () => {
    server = await startClickHouse();
    front = createServer((req, res) => {
      requests++;
      if (faults > 0) {
        faults--;
        req.resume().on('end', () => res.writeHead(500, { 'X-ClickHouse-Exception-Code': '101', 'Content-Type': 'text/plain' }).end(FAULT_BODY));
        return;
      }
      const upstream = request({ host: '127.0.0.1', port: server.httpPort, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => front?.close(resolve));
    await server?.stop();
  });

  it('sends a read again once and answers it; a second fault is reported; a write is never sent twice', async () => {
    const client = connect({ url });
    try {
      const read = async () => (await client.query({ query: 'SELECT 41 + 1 AS n', format: 'JSONEachRow' })).json<{ n: number }>();
      faults = 1;
      requests = 0;
      expect(await read()).toEqual([{ n: 42 }]);
      expect(requests).toBe(2);

      faults = 2;
      requests = 0;
      await expect(read()).rejects.toThrow(/^Code: 101, .*Unexpected packet Data received from client/);
      expect(requests).toBe(2);

      await client.command({ query: 'CREATE TABLE default.fault_probe (n UInt32) ENGINE = MergeTree ORDER BY n' });
      faults = 1;
      requests = 0;
      await expect(client.insert({ table: 'default.fault_probe', values: [{ n: 1 }], format: 'JSONEachRow' })).rejects.toThrow(/^Code: 101,/);
      expect(requests).toBe(1);
      expect(await (await client.query({ query: 'SELECT count() AS n FROM default.fault_probe', format: 'JSONEachRow' })).json()).toEqual([{ n: '0' }]);
    } finally {
      faults = 0;
      await client.close();
    }
  });
});
