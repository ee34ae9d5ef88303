/**
 * The server's email report scheduler: every few minutes (and once shortly after start, which
 * catches up after a restart) it asks which reports are due (`EmailReports.due`), claims each,
 * and mails the ones it won. Every server process on a backend runs one; the claims in the
 * backend make each report go out once. Time comes from an injectable clock, so tests move
 * it instead of waiting.
 */
import { type DueSend, EmailReports, type ReportFigures, reportFigures, type Storage } from '@siteline/core';
import type { Logger } from '../log.js';
import type { MailSender } from '../people/mail.js';
import { dashboardUrl, unsubscribeUrl } from './links.js';
import { renderReport } from './render.js';

/** How often a server looks for due reports; the first look is `FIRST_TICK_MS` after start. */
export const TICK_MS = 5 * 60_000;
export const FIRST_TICK_MS = 10_000;
/** Sends claimed at once (on ClickHouse each claim waits its settling time, so they overlap). */
const PARALLEL = 8;

export interface ReportSchedulerOptions {
  storage: Storage;
  reports: EmailReports;
  send: MailSender;
  /** The origin links point at (`PUBLIC_URL`). */
  origin: string;
  logger: Logger;
}

/** What one look did. */
export interface TickResult {
  due: number;
  sent: number;
  failed: number;
}

/**
 * Mails a report to one address: the links built from the origin and the unsubscribe token.
 * @example await mailReport(figures, 'ann@example.com', token, { origin, send });
 */
export function mailReport(figures: ReportFigures, to: string, token: string, via: { origin: string; send: MailSender }): Promise<boolean> {
  const links = { dashboard: dashboardUrl(via.origin, figures), unsubscribe: unsubscribeUrl(via.origin, token) };
  return via.send(renderReport(figures, links, to), `${figures.period.kind === 'week' ? 'weekly' : 'monthly'} report`);
}

export interface ReportScheduler {
  /** Looks for due reports once and sends them; a look already running is joined, not doubled. */
  tick(): Promise<TickResult>;
  /** Starts the timers (they do not keep the process alive); returns the function that stops them and waits for a running look. */
  start(intervalMs?: number, firstMs?: number): () => Promise<void>;
}

/** @example const scheduler = createReportScheduler({ storage, reports: new EmailReports(backend.emailReports), send, origin, logger }); const stop = scheduler.start(); */
export function createReportScheduler(options: ReportSchedulerOptions): ReportScheduler {
  const { storage, reports, logger } = options;
  let running: Promise<TickResult> | undefined;

  const look = async (): Promise<TickResult> => {
    const due = await reports.due(await storage.listSites());
    const result: TickResult = { due: due.length, sent: 0, failed: 0 };
    // One read of the figures per site, kind and period, however many addresses get them.
    const figures = new Map<string, Promise<ReportFigures>>();
    const one = async (send: DueSend) => {
      const token = await reports.claim(send);
      if (token === undefined) return;
      let ok = false;
      try {
        const key = `${send.site.id}\n${send.period.kind}\n${send.period.from}`;
        if (!figures.has(key)) figures.set(key, reportFigures(storage, send.site, send.period));
        ok = await mailReport(await figures.get(key)!, send.key.email, token, options);
      } catch (error) {
        logger({ level: 'error', msg: 'email report failed', site_id: send.site.id, error: error instanceof Error ? error.message : String(error) });
      }
      await reports.finish(send, ok);
      result[ok ? 'sent' : 'failed']++;
    };
    for (let i = 0; i < due.length; i += PARALLEL) await Promise.all(due.slice(i, i + PARALLEL).map(one));
    if (result.due > 0) logger({ level: 'info', msg: 'email reports', ...result });
    return result;
  };

  const tick = () => (running ??= look().finally(() => (running = undefined)));

  return {
    tick,
    start(intervalMs = TICK_MS, firstMs = FIRST_TICK_MS) {
      const run = () => void tick().catch((error: unknown) => logger({ level: 'error', msg: 'email reports failed', error: error instanceof Error ? error.message : String(error) }));
      let every: NodeJS.Timeout | undefined;
      const first = setTimeout(() => {
        run();
        every = setInterval(run, intervalMs).unref();
      }, firstMs).unref();
      return async () => {
        clearTimeout(first);
        clearInterval(every);
        await running?.catch(() => undefined);
      };
    },
  };
}
