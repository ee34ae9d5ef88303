import { parseArgs } from 'node:util';
import { COMMUNITY_ACCOUNT, People, type Role, ROLES } from '@siteline/core';
import { readEnvironment } from '../config.js';
import { publicOrigin, setPasswordUrl } from '../people/links.js';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend, writeTable } from './io.js';

/** Prints where the new user sets their password (and, with `SMTP_URL`, mails it: see people/mail.ts). */
export function writeLink(io: CliIo, email: string, token: string): void {
  const url = setPasswordUrl(publicOrigin(readEnvironment(io.cwd, io.env)), token);
  io.stderr.write(`Send this one-time link to ${email}; it sets the password, works once and expires in 24 hours:\n`);
  io.stdout.write(`${url}\n`);
}

/** `users add|list|link`: dashboard users of the installation (Community) or of an account (`--account`, Cloud). */
export async function usersCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const options = { ...HELP_FLAG, email: { type: 'string' }, role: { type: 'string' }, account: { type: 'string' } } as const;
  const { values } = flags(() => parseArgs({ args: rest, strict: true, options }));
  if (sub === undefined) throw new UsageError('users needs a subcommand: add, list or link.');
  if (sub === '--help' || sub === '-h' || values.help) return io.stdout.write(`${HELP.users}\n`), 0;
  // In the Cloud edition every user belongs to an account: without one a user would read nothing (and once read every account's sites).
  if (values.account === undefined && readEnvironment(io.cwd, io.env).EDITION === 'cloud') {
    throw new UsageError(`users ${sub} needs --account <id> in the Cloud edition: every user belongs to an account (siteline accounts list).`);
  }
  const accountId = values.account ?? COMMUNITY_ACCOUNT;
  return withBackend(io, async (backend) => {
    if (accountId !== COMMUNITY_ACCOUNT && !(await backend.accounts.getAccount(accountId))) throw new Error(`No account ${accountId}; list them with: siteline accounts list`);
    const people = new People(backend.people);
    if (sub === 'add') {
      if (values.email === undefined) throw new UsageError('users add needs --email <address>.');
      const role = (values.role ?? 'viewer') as Role;
      if (!ROLES.includes(role)) throw new UsageError(`--role is owner or viewer, got "${values.role}".`);
      const { user, link } = await people.addUser(accountId, values.email, role);
      writeLink(io, user.email, link);
      return 0;
    }
    if (sub === 'list') {
      const users = await people.usersOf(accountId);
      if (users.length === 0) return io.stdout.write('No users yet. Add one with: siteline users add --email <address> --role owner\n'), 0;
      writeTable(io, ['EMAIL', 'ROLE', 'PASSWORD', 'CREATED'], users.map((u) => [u.email, u.role, u.password_hash ? 'set' : 'not yet', u.created_at.slice(0, 19).replace('T', ' ')]));
      return 0;
    }
    if (sub === 'link') {
      if (values.email === undefined) throw new UsageError('users link needs --email <address>.');
      const users = await people.usersOf(accountId);
      const user = users.find((u) => u.email === values.email!.trim().toLowerCase());
      if (!user) throw new Error(`No user ${values.email}${accountId ? ` in ${accountId}` : ''}.`);
      writeLink(io, user.email, await people.newLink(user.id));
      return 0;
    }
    throw new UsageError(`Unknown subcommand "users ${sub}"; use add, list or link.`);
  });
}
