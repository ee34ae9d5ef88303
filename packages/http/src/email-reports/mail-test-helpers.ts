/**
 * Test scaffolding (not exported): a real SMTP server on loopback (smtp-server) that keeps
 * what it receives, and the parts of a received MIME message, decoded.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  to: string[];
  /** The whole message as sent. */
  raw: string;
}

/** Starts the SMTP server; `received` fills as mail arrives. */
export async function startSmtp(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.setEncoding('utf8').on('data', (c: string) => (raw += c)).on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

const decode = (body: string, encoding: string): string => {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i]!, 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
};

/** A header value with its RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) decoded; the space between two words dropped. */
const words = (value: string) =>
  value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decode(text.replace(/_/g, ' '), 'quoted-printable'));

/** A message's headers (first part of the raw text, unfolded, encoded words decoded) and its text and HTML parts, decoded. */
export function parseMail(raw: string): { headers: Record<string, string>; text: string; html: string } {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = words(line.slice(colon + 1).trim());
  }
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  const body = rest.join('\n\n');
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [body];
  const found = { text: '', html: '' };
  for (const part of parts) {
    const split = part.search(/\r?\n\r?\n/);
    const partHead = part.slice(0, split);
    const content = part.slice(split).replace(/^\r?\n\r?\n/, '').replace(/\r?\n$/, '');
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(partHead)?.[1]?.toLowerCase() ?? '7bit';
    if (/content-type:\s*text\/plain/i.test(partHead)) found.text = decode(content, encoding).replace(/\r\n/g, '\n');
    if (/content-type:\s*text\/html/i.test(partHead)) found.html = decode(content, encoding).replace(/\r\n/g, '\n');
  }
  return { headers, ...found };
}
