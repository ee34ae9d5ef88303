import { parseArgs } from 'node:util';
import { HELP } from './help.js';
import { accountName, newAccountId, normalEmail, People } from '@siteline/core';
import { type CliIo, flags, HELP_FLAG, requireCloud, UsageError, withBackend, writeTable } from './io.js';
import { writeLink } from './users.js';

/** `accounts add|list` (Cloud edition). */
export async function accountsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const { values } = flags(() => parseArgs({ args: rest, strict: true, options: { ...HELP_FLAG, name: { type: 'string' }, 'owner-email': { type: 'string' } } }));
  if (sub === undefined || sub === '--help' || sub === '-h' || values.help) {
    if (sub === undefined) throw new UsageError('accounts needs a subcommand: add or list.');
    return io.stdout.write(`${HELP.accounts}\n`), 0;
  }
  if (sub === 'add') {
    if (values.name === undefined) throw new UsageError('accounts add needs --name <name>.');
    requireCloud(io, 'accounts add');
    // Everything checked before anything is written: a refused name or owner email leaves no account behind.
    const name = accountName(values.name, 'An account');
    const owner = values['owner-email'] === undefined ? undefined : normalEmail(values['owner-email']);
    return withBackend(io, async ({ accounts, people }) => {
      if (owner === undefined) {
        const account = await accounts.createAccount(name);
        return io.stdout.write(`Created account ${account.id} "${account.name}".\n`), 0;
      }
      // The owner first, under the id the account will have: if the account then cannot be written, that user belongs to no
      // account, has no password and its link was never shown, so nothing can use it; an account never exists without its owner.
      const id = newAccountId();
      const { user, link } = await new People(people).addUser(id, owner, 'owner');
      const account = await accounts.createAccount(name, id);
      io.stderr.write(`Created account ${account.id} "${account.name}" with its owner ${user.email}.\n`);
      writeLink(io, user.email, link);
      return 0;
    });
  }
  if (sub === 'list') {
    const list = await withBackend(io, ({ accounts }) => accounts.listAccounts());
    if (list.length === 0) return io.stdout.write('No accounts yet. Add one with: siteline accounts add --name <name>\n'), 0;
    writeTable(io, ['ID', 'NAME', 'CREATED'], list.map((a) => [a.id, a.name, a.createdAt.slice(0, 19).replace('T', ' ')]));
    return 0;
  }
  throw new UsageError(`Unknown subcommand "accounts ${sub}"; use add or list.`);
}

/** `keys create|list|revoke --account <id>` (Cloud edition). */
export async function keysCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  const options = { ...HELP_FLAG, account: { type: 'string' }, name: { type: 'string' }, key: { type: 'string' } } as const;
  const { values } = flags(() => parseArgs({ args: rest, strict: true, options }));
  if (sub === undefined) throw new UsageError('keys needs a subcommand: create, list or revoke.');
  if (sub === '--help' || sub === '-h' || values.help) return io.stdout.write(`${HELP.keys}\n`), 0;
  if (!['create', 'list', 'revoke'].includes(sub)) throw new UsageError(`Unknown subcommand "keys ${sub}"; use create, list or revoke.`);
  if (values.account === undefined) throw new UsageError(`keys ${sub} needs --account <id>.`);
  const accountId = values.account;
  return withBackend(io, async ({ accounts }) => {
    if (!(await accounts.getAccount(accountId))) throw new Error(`No account ${accountId}; list them with: siteline accounts list`);
    if (sub === 'create') {
      if (values.name === undefined) throw new UsageError('keys create needs --name <a descriptive name>.');
      requireCloud(io, 'keys create');
      const { key, info } = await accounts.createKey(accountId, values.name);
      io.stderr.write(`Created key ${info.id} "${info.name}". Copy it now: it is shown this once and cannot be recovered.\n`);
      io.stdout.write(`${key}\n`);
      return 0;
    }
    if (sub === 'list') {
      const keys = await accounts.listKeys(accountId);
      if (keys.length === 0) return io.stdout.write(`No keys for ${accountId}. Create one with: siteline keys create --account ${accountId} --name <name>\n`), 0;
      const when = (iso: string | null) => (iso ? iso.slice(0, 19).replace('T', ' ') : '-');
      writeTable(io, ['ID', 'NAME', 'KEY', 'CREATED', 'LAST USED', 'REVOKED'],
        keys.map((k) => [k.id, k.name, k.masked, when(k.createdAt), when(k.lastUsedAt), when(k.revokedAt)]));
      return 0;
    }
    if (values.key === undefined) throw new UsageError('keys revoke needs --key <key id> (see keys list).');
    if (!(await accounts.revokeKey(accountId, values.key))) throw new Error(`No active key ${values.key} in account ${accountId}.`);
    io.stdout.write(`Revoked key ${values.key}; requests with it get 401 from now on.\n`);
    return 0;
  });
}
