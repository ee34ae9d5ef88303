/**
 * One-time links by mail, when `SMTP_URL` is set: nodemailer (MIT-0, the Node mail library
 * most projects use) over SMTP or SMTPS. A failed delivery is logged (never the link or the
 * password of the URL) and the owner still sees the link on the page.
 */
import type { Logger } from '../log.js';

/**
 * A sender of one-time links, or undefined when mail is not set up.
 * @example const mailLink = mailerFor({ url: 'smtp://127.0.0.1:2525', from: 'Siteline <no-reply@example.com>' }, logger);
 */
export function mailerFor(smtp: { url: string; from: string } | undefined, logger: Logger): ((to: string, url: string) => Promise<boolean>) | undefined {
  if (!smtp) return undefined;
  // Certificates are checked (nodemailer's default); a self-signed relay needs its CA in NODE_EXTRA_CA_CERTS.
  // Loaded once mail is set up and a link is sent: most processes never send one.
  let transport: Promise<{ sendMail(message: object): Promise<unknown> }> | undefined;
  return async (to, url) => {
    try {
      transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtp.url));
      await (await transport).sendMail({
        from: smtp.from,
        to,
        subject: 'Set your Siteline password',
        text: `You have been given access to Siteline.\n\nSet your password here (the link works once, for 24 hours):\n${url}\n\nIf you did not expect this, ignore this mail.\n`,
      });
      logger({ level: 'info', msg: 'one-time link mailed' });
      return true;
    } catch (error) {
      logger({ level: 'warn', msg: 'one-time link not mailed', error: (error as Error).message.replace(/\/\/[^@/\s]*@/g, '//…@') });
      return false;
    }
  };
}
