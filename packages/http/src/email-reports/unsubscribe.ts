/**
 * The unsubscribe page of an email report, `{base}/dashboard/unsubscribe?token=…`, which works
 * without signing in: the token (its SHA-256 stored with the send) names the address, the
 * site and the kind. `GET` asks to confirm (a mail scanner that follows links unsubscribes
 * no one); `POST` unsubscribes, from the page's button or from a mail client's one-click
 * (RFC 8058: `List-Unsubscribe-Post`, a post from the mail provider, with no `Origin`). The
 * token is the only credential, so no `Origin` or CSRF check applies.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmailReports, SendKey, Storage } from '@siteline/core';
import { readBody } from '../collect/http-io.js';
import type { DashboardAssets } from '../dashboard/assets.js';
import { sendHtml } from '../dashboard/http-io.js';
import { escapeHtml as e, head } from '../dashboard/pages.js';

const kindName = (send: SendKey) => (send.kind === 'week' ? 'weekly' : 'monthly');

function page(assets: DashboardAssets, title: string, body: string): string {
  return `${head(assets, `${title} · Siteline`, false, '../')}
<body class="signin">
<main>
<h1>${e(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/** `dashboard/unsubscribe`: the confirmation page and the unsubscribing post. */
export function unsubscribeRoute(reports: EmailReports, storage: Storage, assets: Promise<DashboardAssets>) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<number> => {
    const files = await assets;
    const token = (url.searchParams.get('token') ?? '').slice(0, 64);
    const gone = () => sendHtml(req, res, 404, page(files, 'Link not valid', '<p>This unsubscribe link is not complete or not valid. Copy the whole link from the mail.</p>'));
    if (req.method === 'POST') {
      // The body (a form's or RFC 8058's `List-Unsubscribe=One-Click`) says nothing the token does not; read and drop it.
      const body = await readBody(req, 4096);
      if (!body.ok && body.reason === 'aborted') return 0;
      const send = await reports.unsubscribeWith(token);
      if (!send) return gone();
      const site = await storage.getSite(send.site_id);
      return sendHtml(req, res, 200, page(files, 'Unsubscribed', `<p role="status">${e(send.email)} will not receive the ${kindName(send)} report of ${e(site?.name ?? send.site_id)} any more.</p>
<p class="hint">An owner of the site can subscribe the address again.</p>`));
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendHtml(req, res, 405, page(files, 'Not allowed', '<p>Use the button on this page.</p>'), { Allow: 'GET, HEAD, POST' });
    const send = await reports.sendOf(token);
    if (!send) return gone();
    const site = await storage.getSite(send.site_id);
    return sendHtml(req, res, 200, page(files, 'Unsubscribe', `<p>Stop sending the ${kindName(send)} report of <strong>${e(site?.name ?? send.site_id)}</strong> to ${e(send.email)}?</p>
<form method="post" action="unsubscribe?token=${e(token)}"><button type="submit">Unsubscribe</button></form>`));
  };
}
