/**
 * The account pages' routes under `{base}/dashboard/account/`: keys (Cloud), sites, goals,
 * funnels, users, password. Only a password session reaches them; every section but the password is
 * an owner's (a viewer gets 403), and every post passes `refusedPost` first.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accountName, addGoal, type AccountStore, GoalError, COMMUNITY_ACCOUNT, createSite, deleteGoal, editSite, listGoals, People, PeopleError, type Role, type Site, type Storage, type UserRow, type WebSessionRow } from '@siteline/core';
import { FunnelError, type FunnelsResponse, listFunnels } from '@siteline/core';
import { funnelAction } from './funnel-actions.js';
import { type FunnelForm, FUNNEL_PREVIEW_SCRIPT, funnelsBody } from './funnel-pages.js';
import { trackerSnippet } from '../collect/snippet.js';
import type { DashboardAssets } from '../dashboard/assets.js';
import { redirect, send, sendHtml } from '../dashboard/http-io.js';
import { readForm, refusedPost } from './form.js';
import type { CheckPassword } from './password-check.js';
import { publicOrigin, setPasswordUrl } from './links.js';
import { type AccountFrame, type AccountSection, accountPage, COPY_SCRIPT, type Flash, goalsBody, keysBody, passwordBody, type SiteEditForm, sitesBody, twoFactorBody, usersBody } from './pages.js';
import { siteSharingBody } from './sharing-pages.js';
import { type SharingDeps, type SharingOutcome, sharingAction, sitesSharing } from './sharing-routes.js';
import { newRecoveryCodes, newTotpSecret, totpSetUp, useTotpCode } from './totp.js';

export interface AccountRoutesOptions {
  people: People;
  storage: Storage;
  /** Cloud: the account store whose keys owners manage; absent in the Community edition (no key pages). */
  accounts?: AccountStore;
  trustProxy: boolean;
  publicOrigin?: string;
  trackerPath: string;
  /** Sends a one-time link by mail (when `SMTP_URL` is set); resolves false when not configured. */
  mailLink?: (to: string, url: string) => Promise<boolean>;
  /** Clock of the two-factor codes. */
  now: () => number;
  /** The API's clock: its "today" decides the days of a funnel's preview, as of every report. */
  reportNow: () => number;
  /** Checks the current password that confirms a change (through the sign-in throttle). */
  checkPassword: CheckPassword;
  /** Shared links and email reports of the Sites page; absent: the page does not offer them. */
  sharing?: SharingDeps;
}

export interface AccountRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path below `account/`. */
  rest: string;
  url: URL;
  assets: DashboardAssets;
  session: WebSessionRow;
  user: UserRow;
}

const OWNER_SECTIONS: AccountSection[] = ['keys', 'sites', 'goals', 'funnels', 'users'];

/** The origin links and snippets name: the configured one (`PUBLIC_URL`), else this request's host (`localhost` when it is not a host). */
function originOf(req: IncomingMessage, configured?: string): string {
  if (configured) return configured;
  try {
    return publicOrigin({ PUBLIC_URL: `https://${req.headers.host ?? 'localhost'}` });
  } catch {
    return 'https://localhost';
  }
}

/** Answers one account request; returns its status. */
export function accountRoutes(options: AccountRoutesOptions): (request: AccountRequest) => Promise<number> {
  const { people, storage, accounts } = options;
  return async ({ req, res, rest, url, assets, session, user }) => {
    if (rest === 'copy.js') return send(req, res, 200, COPY_SCRIPT, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' });
    if (rest === 'funnel-preview.js') return send(req, res, 200, FUNNEL_PREVIEW_SCRIPT, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' });
    const frame: AccountFrame = { assets, csrf: session.csrf, role: user.role, cloud: accounts !== undefined, email: user.email };
    const accountId = user.account_id;
    const [section, action] = rest.split('/', 2) as [string, string | undefined];
    if (section === '') return redirect(req, res, user.role === 'owner' ? 'sites' : 'password');
    const known = [...OWNER_SECTIONS, 'password'].includes(section) && (section !== 'keys' || accounts !== undefined);
    if (!known) return sendHtml(req, res, 404, accountPage(frame, undefined, 'Not found', '<p>There is no such page.</p>'));
    if (OWNER_SECTIONS.includes(section as AccountSection) && user.role !== 'owner') {
      const whose = frame.cloud ? 'this account' : 'this installation';
      return sendHtml(req, res, 403, accountPage(frame, undefined, 'Owners only', `<p>Only an owner of ${whose} can open this page. Ask an owner to change your role.</p>`));
    }
    const page = (status: number, title: string, body: string, flash?: Flash) => sendHtml(req, res, status, accountPage(frame, section as AccountSection, title, body, flash));
    const sitesOf = () => storage.listSites({ accountId: accountId === COMMUNITY_ACCOUNT ? null : accountId });

    const render = async (flash?: Flash, status = flash && 'error' in flash ? 422 : 200, extra: Record<string, unknown> = {}): Promise<number> => {
      switch (section) {
        case 'keys':
          return page(status, 'API keys', keysBody(frame, await accounts!.listKeys(accountId), extra.created as { key: string; name: string } | undefined), flash);
        case 'sites': {
          const origin = originOf(req, options.publicOrigin);
          const sites = await sitesOf();
          const imports = new Map(await Promise.all(sites.map(async (s) => [s.id, storage.listImports ? await storage.listImports(s.id) : []] as const)));
          const sharing = options.sharing && (await sitesSharing(options.sharing, sites, extra.sharing as SharingOutcome['shown'] | undefined));
          const more = sharing ? (s: Site) => siteSharingBody(frame, s, sharing) : undefined;
          return page(status, 'Sites', sitesBody(frame, sites, (s) => trackerSnippet(`${origin}${options.trackerPath}`, s.id), extra.form as Record<string, string> | undefined, extra.editing as SiteEditForm | undefined, imports, more), flash);
        }
        case 'goals': {
          const sites = await sitesOf();
          const wanted = (extra.siteId as string | undefined) ?? url.searchParams.get('site_id') ?? sites[0]?.id;
          const site = sites.find((s) => s.id === wanted);
          const goals = site && storage.capabilities?.goals ? await listGoals(storage, site.id) : [];
          return page(status, 'Goals', goalsBody(frame, sites, site, goals), flash);
        }
        case 'funnels': {
          if (storage.capabilities?.funnels !== true) return page(status, 'Funnels', '<p class="note">This server\'s storage does not keep funnels.</p>', flash);
          const sites = await sitesOf();
          const wanted = (extra.siteId as string | undefined) ?? url.searchParams.get('site_id') ?? sites[0]?.id;
          const site = sites.find((s) => s.id === wanted);
          const funnels = site && storage.capabilities?.funnels ? await listFunnels(storage, site.id) : [];
          return page(status, 'Funnels', funnelsBody(frame, sites, site, funnels, extra.form as FunnelForm | undefined, extra.preview as FunnelsResponse | undefined), flash);
        }
        case 'users':
          return page(status, 'Users', usersBody(frame, await people.usersOf(accountId), user.id, extra.invited as { email: string; url: string; mailed: boolean } | undefined), flash);
        default:
          return page(status, 'Password', passwordBody(frame) + twoFactorBody(frame, user.totp_secret !== '', extra.totp as Parameters<typeof twoFactorBody>[2]), flash);
      }
    };

    const method = req.method ?? 'GET';
    if (method === 'GET' || method === 'HEAD') return action === undefined ? render() : page(405, 'Not allowed', '<p>Use the forms on this page.</p>');
    if (method !== 'POST') return page(405, 'Not allowed', '<p>Use the forms on this page.</p>');
    const form = await readForm(req);
    if (typeof form === 'number') return form === 0 ? 0 : page(form, 'Refused', `<p>${form === 413 ? 'This form is too large.' : 'This is not a form post.'}</p>`);
    const refused = refusedPost(req, form, session, options);
    if (refused) return page(403, 'Refused', '', { error: refused });
    const field = (name: string) => form.get(name) ?? '';
    /** Why the posted current password does not confirm the change (wrong, or the throttle holds this email), or undefined when it does. */
    const unconfirmed = async (): Promise<{ flash: Flash; status: number } | undefined> => {
      const check = await options.checkPassword(req, user, field('current'));
      if (check.right) return undefined;
      if (check.waitSeconds === undefined) return { flash: { error: 'The current password is not right.' }, status: 422 };
      const seconds = `${check.waitSeconds} second${check.waitSeconds === 1 ? '' : 's'}`;
      return { flash: { error: `Too many wrong passwords for this email. Try again in ${seconds}.` }, status: 429 };
    };
    // The action: in the path (`keys/revoke`) or, as the pages post it, in a `do` field of a post to the section.
    const act = action ?? (field('do') || undefined);
    const siteOfAccount = async (siteId: string) => (await sitesOf()).find((s) => s.id === siteId);

    try {
      switch (`${section}/${act ?? ''}`) {
        case 'keys/': {
          let name: string;
          try {
            name = accountName(field('name'), 'A key');
          } catch (error) {
            return render({ error: (error as Error).message });
          }
          const { key, info } = await accounts!.createKey(accountId, name);
          return render({ info: `Key “${info.name}” created.` }, 201, { created: { key, name: info.name } });
        }
        case 'keys/revoke':
          if (field('confirm') !== 'yes') return render({ error: 'Revoking a key needs its confirmation: open “Revoke…” beside the key and press its button.' });
          if (!(await accounts!.revokeKey(accountId, field('key_id')))) return render({ error: 'There is no such active key in this account.' }, 404);
          return render({ info: 'Key revoked: requests with it get 401 from now on.' });
        case 'sites/': {
          const entered = { name: field('name'), domain: field('domain'), timezone: field('timezone') || 'UTC' };
          try {
            const site = await createSite(storage, { ...entered, domain: entered.domain || null, accountId: accountId === COMMUNITY_ACCOUNT ? null : accountId });
            return render({ info: `Site ${site.name} added as ${site.id}. Put its tracker snippet on every page.` }, 201);
          } catch (error) {
            return render({ error: (error as Error).message }, 422, { form: entered });
          }
        }
        case 'sites/edit': {
          const site = await siteOfAccount(field('site_id'));
          if (!site) return render({ error: 'There is no such site in this account.' }, 404);
          const editing: SiteEditForm = { siteId: site.id, name: field('name'), domain: field('domain') };
          try {
            const saved = (await editSite(storage, site.id, { name: editing.name, domain: editing.domain || null }))!;
            return render({ info: `Site ${saved.name} (${saved.id}) saved.` });
          } catch (error) {
            return render({ error: (error as Error).message }, 422, { editing });
          }
        }
        case 'sites/share':
        case 'sites/unshare':
        case 'sites/report':
        case 'sites/unreport': {
          const site = await siteOfAccount(field('site_id'));
          if (!site || !options.sharing) return render({ error: 'There is no such site in this account.' }, 404);
          const outcome = await sharingAction(options.sharing, act!, site, field, originOf(req, options.publicOrigin));
          return render(outcome.flash, outcome.status, { sharing: outcome.shown });
        }
        case 'sites/delete-import': {
          const site = await siteOfAccount(field('site_id'));
          if (!site || !storage.deleteImport) return render({ error: 'There is no such site in this account.' }, 404);
          if (field('confirm') !== 'yes') return render({ error: 'Deleting an import needs its confirmation: open “Delete…” beside the import and press its button.' });
          if (!(await storage.deleteImport(site.id, field('import_id')))) return render({ error: `${site.name} has no such import.` }, 404);
          return render({ info: `Import deleted from ${site.name}: its daily totals are gone from every report.` });
        }
        case 'goals/':
        case 'goals/delete': {
          const site = await siteOfAccount(field('site_id'));
          if (!site) return render({ error: 'There is no such site in this account.' }, 404);
          if (act === 'delete') await deleteGoal(storage, site.id, field('goal'));
          else await addGoal(storage, site.id, { type: field('type') === 'page' ? 'page' : 'event', value: field('value') });
          return render({ info: act === 'delete' ? `Goal ${field('goal')} deleted.` : 'Goal added.' }, act === 'delete' ? 200 : 201, { siteId: site.id });
        }
        case 'funnels/':
        case 'funnels/preview':
        case 'funnels/delete': {
          const site = await siteOfAccount(field('site_id'));
          if (!site) return render({ error: 'There is no such site in this account.' }, 404);
          const { flash, status, extra } = await funnelAction(storage, site.id, act, form, options.reportNow());
          return render(flash, status, extra);
        }
        case 'users/': {
          const { user: added, link } = await people.addUser(accountId, field('email'), field('role') as Role);
          const linkUrl = setPasswordUrl(originOf(req, options.publicOrigin), link);
          const mailed = options.mailLink ? await options.mailLink(added.email, linkUrl) : false;
          return render({ info: `${added.email} was invited as ${added.role}.` }, 201, { invited: { email: added.email, url: linkUrl, mailed } });
        }
        case 'users/role':
          await people.setRole(accountId, field('user_id'), field('role') as Role);
          return render({ info: 'Role changed.' });
        case 'users/remove':
          if (field('user_id') === user.id) return render({ error: 'You cannot remove yourself; ask another owner.' });
          await people.removeUser(accountId, field('user_id'));
          return render({ info: 'User removed; their sessions have ended.' });
        case 'password/totp-start':
          return render(undefined, 200, { totp: newTotpSecret(user.email) });
        case 'password/totp-confirm': {
          const secret = field('secret');
          if (!/^[A-Z2-7]{32}$/.test(secret)) return render({ error: 'Start the set-up again.' });
          // Turning two-factor on (or replacing it) takes the current password, as turning it off does: a session left open is not enough.
          const refusedSetUp = await unconfirmed();
          if (refusedSetUp) return render(refusedSetUp.flash, refusedSetUp.status, { totp: totpSetUp(secret, user.email) });
          // The confirming code is spent like a sign-in's: it cannot sign in a second time.
          const outcome = await useTotpCode(people, user, secret, field('code'), options.now());
          if (outcome !== 'ok') {
            const why = outcome === 'used' ? 'That code was used already; enter the next one your app shows.' : 'That code is not right; check the app and the clock.';
            return render({ error: why }, 422, { totp: totpSetUp(secret, user.email) });
          }
          const { codes, hashes } = newRecoveryCodes();
          await people.setTwoFactor(user, secret, hashes);
          user.totp_secret = secret; // this page shows it on
          return render({ info: 'Two-factor sign-in is on. The code you just entered is used up: to sign in, wait for the next one your app shows.' }, 200, { totp: { codes } });
        }
        case 'password/totp-off': {
          const refusedOff = await unconfirmed();
          if (refusedOff) return render(refusedOff.flash, refusedOff.status);
          await people.setTwoFactor(user, '', []);
          user.totp_secret = '';
          return render({ info: 'Two-factor sign-in is off.' });
        }
        case 'password/': {
          const refusedChange = await unconfirmed();
          if (refusedChange) return render(refusedChange.flash, refusedChange.status);
          await people.setPassword(user, field('next'));
          return redirect(req, res, '../../?notice=password-changed'); // every session ended, this one too: sign in again
        }
        default:
          return page(404, 'Not found', '<p>There is no such action.</p>');
      }
    } catch (error) {
      if (error instanceof PeopleError || error instanceof GoalError || error instanceof FunnelError) return render({ error: error.message });
      throw error;
    }
  };
}
