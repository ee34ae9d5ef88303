import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { People, SharedLinks } from '@siteline/core';
import { readEnvironment } from '../config.js';
import { publicOrigin } from '../people/links.js';
import { shareUrl } from '../share/links.js';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend, writeTable } from './io.js';

/** The first line of standard input (a password is never an argument: arguments show in `ps` and shell history). */
async function firstLine(io: CliIo): Promise<string> {
  if (io.stdin === process.stdin && process.stdin.isTTY) io.stderr.write('Password of the link (the line is shown as you type; pipe it in to avoid that): ');
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return '';
}

/** `share add|list|revoke --site <id>`: shared links of a site (a read-only dashboard for anyone with the address). */
export async function shareCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('share needs a subcommand: add, list or revoke.');
  if (sub === '--help' || sub === '-h') return io.stdout.write(`${HELP.share}\n`), 0;
  const options = {
    ...HELP_FLAG, site: { type: 'string' }, name: { type: 'string' }, password: { type: 'boolean' }, embed: { type: 'string', multiple: true },
    segment: { type: 'string' }, link: { type: 'string' },
  } as const;
  const { values } = flags(() => parseArgs({ args: rest, strict: true, options }));
  if (values.help) return io.stdout.write(`${HELP.share}\n`), 0;
  if (!['add', 'list', 'revoke'].includes(sub)) throw new UsageError(`Unknown subcommand "share ${sub}"; use add, list or revoke.`);
  if (values.site === undefined) throw new UsageError(`share ${sub} needs --site <id>.`);
  if (sub === 'add' && values.name === undefined) throw new UsageError('share add needs --name <name>.');
  if (sub === 'revoke' && values.link === undefined) throw new UsageError('share revoke needs --link <id> (as share list shows it).');
  const password = sub === 'add' && values.password ? await firstLine(io) : '';
  return withBackend(io, async (backend) => {
    const site = await backend.storage.getSite(values.site!);
    if (!site) throw new Error(`No site ${values.site}; list them with: siteline sites list`);
    const links = new SharedLinks(backend.shares, new People(backend.people));
    if (sub === 'add') {
      const { link, token } = await links.create(site, { name: values.name!, password, frameAncestors: values.embed ?? [], segment: values.segment ?? '' });
      io.stderr.write(`Shared link ${link.id} "${link.name}" of ${site.id}${link.password_hash ? ' (with a password)' : ''}${link.frame_ancestors.length ? `, embeddable by ${link.frame_ancestors.join(' ')}` : ''}. Its address is shown this once:\n`);
      io.stdout.write(`${shareUrl(publicOrigin(readEnvironment(io.cwd, io.env)), token)}\n`);
      return 0;
    }
    if (sub === 'revoke') {
      if (!(await links.revoke(site.id, values.link!))) throw new Error(`${site.id} has no working link ${values.link}; list them with: siteline share list --site ${site.id}`);
      io.stdout.write(`Revoked ${values.link}: its pages stop working at their next request.\n`);
      return 0;
    }
    const list = await links.list(site.id);
    if (list.length === 0) return io.stdout.write(`${site.id} has no shared links. Add one with: siteline share add --site ${site.id} --name <name>\n`), 0;
    writeTable(io, ['ID', 'NAME', 'PASSWORD', 'EMBEDDABLE BY', 'SEGMENT', 'CREATED'], list.map((l) => [
      l.id, l.name, l.password_hash ? 'yes' : 'no', l.frame_ancestors.join(' ') || '-', l.segment.length ? JSON.stringify(l.segment) : '-', l.created_at.slice(0, 16).replace('T', ' '),
    ]));
    return 0;
  });
}
