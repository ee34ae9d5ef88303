/**
 * Mail, when `SMTP_URL` is set: nodemailer (MIT-0, the Node mail library most projects use)
 * over SMTP or SMTPS, one transport per process, for one-time links and email reports. A
 * failed delivery is logged (never a link or the password of the URL); callers learn it
 * from the answer (the owner still sees a one-time link on the page; a report is retried).
 */
import type { Logger } from '../log.js';

/** One message: a plain-text body, optionally an HTML alternative and extra headers. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  headers?: Record<string, string>;
}

/** Sends a message; resolves false (logged) when the SMTP server could not be reached or refused it. `what` names it in the log. */
export type MailSender = (message: MailMessage, what: string) => Promise<boolean>;

/**
 * Connection bounds, so a stalled relay ends a send within a couple of minutes (nodemailer's
 * defaults wait up to 10 minutes on a silent socket), well inside the report claim timeout.
 */
const TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 } as const;

/**
 * The process's sender through `smtp`, or undefined when mail is not set up.
 * @example const send = smtpSender({ url: 'smtp://127.0.0.1:2525', from: 'Siteline <no-reply@example.com>' }, logger);
 */
export function smtpSender(smtp: { url: string; from: string } | undefined, logger: Logger): MailSender | undefined {
  if (!smtp) return undefined;
  // Certificates are checked (nodemailer's default); a self-signed relay needs its CA in NODE_EXTRA_CA_CERTS.
  // Loaded when the first mail is sent: most processes never send one.
  let transport: Promise<{ sendMail(message: object): Promise<unknown> }> | undefined;
  return async (message, what) => {
    try {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({ ...TIMEOUTS, url: smtp.url }));
      await (await transport).sendMail({ from: smtp.from, ...message });
      logger({ level: 'info', msg: `${what} mailed` });
      return true;
    } catch (error) {
      logger({ level: 'warn', msg: `${what} not mailed`, error: (error as Error).message.replace(/\/\/[^@/\s]*@/g, '//…@') });
      return false;
    }
  };
}

/**
 * A sender of one-time links over `send`.
 * @example const mailLink = linkMailer(smtpSender(config.smtp, logger)!);
 */
export function linkMailer(send: MailSender): (to: string, url: string) => Promise<boolean> {
  return (to, url) => send({
    to,
    subject: 'Set your Siteline password',
    text: `You have been given access to Siteline.\n\nSet your password here (the link works once, for 24 hours):\n${url}\n\nIf you did not expect this, ignore this mail.\n`,
  }, 'one-time link');
}

/**
 * A sender of one-time links through `smtp`, or undefined when mail is not set up.
 * @example const mailLink = mailerFor({ url: 'smtp://127.0.0.1:2525', from: 'Siteline <no-reply@example.com>' }, logger);
 */
export function mailerFor(smtp: { url: string; from: string } | undefined, logger: Logger): ((to: string, url: string) => Promise<boolean>) | undefined {
  const send = smtpSender(smtp, logger);
  return send && linkMailer(send);
}
