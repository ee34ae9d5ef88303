import { parseArgs } from 'node:util';
import { EmailReports, latestPeriod, REPORT_KINDS, type ReportKind, reportFigures } from '@siteline/core';
import { readEnvironment } from '../config.js';
import { periodText } from '../email-reports/render.js';
import { mailReport } from '../email-reports/scheduler.js';
import { smtpSender } from '../people/mail.js';
import { publicOrigin } from '../people/links.js';
import { silentLogger } from '../log.js';
import { HELP } from './help.js';
import { type CliIo, flags, HELP_FLAG, UsageError, withBackend, writeTable } from './io.js';

const kindOf = (period: string | undefined): ReportKind => {
  if (period === undefined || !REPORT_KINDS.includes(period as ReportKind)) throw new UsageError(`--period is week or month${period === undefined ? '' : `, got "${period}"`}.`);
  return period as ReportKind;
};
const kindName = (kind: ReportKind) => (kind === 'week' ? 'weekly' : 'monthly');

/** `reports send|subscribe|unsubscribe|list --site <id>`: a site's email reports. */
export async function reportsCommand(args: string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined) throw new UsageError('reports needs a subcommand: send, subscribe, unsubscribe or list.');
  if (sub === '--help' || sub === '-h') return io.stdout.write(`${HELP.reports}\n`), 0;
  const options = { ...HELP_FLAG, site: { type: 'string' }, period: { type: 'string' }, to: { type: 'string' }, email: { type: 'string' } } as const;
  const { values } = flags(() => parseArgs({ args: rest, strict: true, options }));
  if (values.help) return io.stdout.write(`${HELP.reports}\n`), 0;
  if (!['send', 'subscribe', 'unsubscribe', 'list'].includes(sub)) throw new UsageError(`Unknown subcommand "reports ${sub}"; use send, subscribe, unsubscribe or list.`);
  if (values.site === undefined) throw new UsageError(`reports ${sub} needs --site <id>.`);
  if ((sub === 'subscribe' || sub === 'unsubscribe') && values.email === undefined) throw new UsageError(`reports ${sub} needs --email <address>.`);
  const kinds = sub === 'list' || (sub === 'subscribe' && values.period === undefined) ? [...REPORT_KINDS] : [kindOf(values.period)];
  const vars = readEnvironment(io.cwd, io.env);
  return withBackend(io, async (backend) => {
    const site = await backend.storage.getSite(values.site!);
    if (!site) throw new Error(`No site ${values.site}; list them with: siteline sites list`);
    const reports = new EmailReports(backend.emailReports);
    if (sub === 'subscribe') {
      await reports.subscribe(site.id, values.email!, kinds);
      io.stdout.write(`${values.email!.trim().toLowerCase()} receives the ${kinds.map(kindName).join(' and ')} report of ${site.id}.\n`);
      return 0;
    }
    if (sub === 'unsubscribe') {
      if (!(await reports.unsubscribe(site.id, kinds[0]!, values.email!.trim().toLowerCase()))) throw new Error(`${values.email} does not receive the ${kindName(kinds[0]!)} report of ${site.id}.`);
      io.stdout.write(`${values.email} no longer receives the ${kindName(kinds[0]!)} report of ${site.id}.\n`);
      return 0;
    }
    if (sub === 'list') {
      const list = await reports.list(site.id);
      if (list.length === 0) return io.stdout.write(`No one receives reports of ${site.id}. Add an address with: siteline reports subscribe --site ${site.id} --email <address>\n`), 0;
      writeTable(io, ['EMAIL', 'REPORT', 'SINCE'], list.map((s) => [s.email, kindName(s.kind), new Date(s.created_ms).toISOString().slice(0, 10)]));
      return 0;
    }
    // send: the latest complete period, now, to --to or to every address subscribed to that kind.
    const send = smtpSender(vars.SMTP_URL ? { url: vars.SMTP_URL, from: vars.MAIL_FROM ?? 'Siteline <siteline@localhost>' } : undefined, silentLogger);
    if (!send) throw new Error('reports send needs SMTP_URL (smtp://user:password@host:port) in .env or the environment.');
    const kind = kinds[0]!;
    const to = values.to !== undefined ? [values.to] : (await reports.list(site.id)).filter((s) => s.kind === kind).map((s) => s.email);
    if (to.length === 0) throw new Error(`No one receives the ${kindName(kind)} report of ${site.id}; give --to <address>, or subscribe one with: siteline reports subscribe --site ${site.id} --email <address>`);
    const period = latestPeriod(kind, Date.now(), site.timezone);
    const figures = await reportFigures(backend.storage, site, period);
    const origin = publicOrigin(vars);
    let failed = 0;
    for (const email of to) {
      const token = await reports.recordByHand({ site_id: site.id, kind, period: period.from, email });
      const ok = await mailReport(figures, email, token, { origin, send });
      if (!ok) failed++;
      (ok ? io.stdout : io.stderr).write(`${ok ? 'Sent' : 'Could not send'} the ${kindName(kind)} report of ${site.id} (${periodText(kind, period.from, period.to)}) to ${email}.\n`);
    }
    return failed === 0 ? 0 : 1;
  });
}
