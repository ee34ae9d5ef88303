import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { SITE_ID_PATTERN } from '../query/schema.js';
import { MAX_SITE_ID_LENGTH } from '../query/messages.js';
import type { SiteChanges, Storage } from '../storage/types.js';
import { isValidTimeZone } from '../time/zone.js';
import type { Site } from '../types.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A new site id: `ST-` and 12 letters or digits from the CSPRNG (71 bits).
 * @example generateSiteId() // 'ST-q3ZkP0aLm9Tx'
 */
export function generateSiteId(): string {
  let id = 'ST-';
  for (let i = 0; i < 12; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

const hostname = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

export const newSiteSchema = z.object({
  id: z
    .string()
    .max(MAX_SITE_ID_LENGTH, { error: `A site id has at most ${MAX_SITE_ID_LENGTH} characters.` })
    .regex(SITE_ID_PATTERN, { error: 'A site id is ST- followed by letters and digits, e.g. ST-blog1.' })
    .optional(),
  name: z.string().trim().min(1, { error: 'A site needs a name.' }).max(200, { error: 'A site name has at most 200 characters.' }),
  timezone: z
    .string()
    .refine(isValidTimeZone, { error: (issue) => `Unknown time zone ${JSON.stringify(issue.input)}; use an IANA name such as Europe/Berlin.` })
    .default('UTC'),
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .transform((d) => d.replace(/^www\./, ''))
    .refine((d) => hostname.test(d), { error: 'A domain is a host name such as example.com (no scheme or path).' })
    .nullish(),
  accountId: z.string().min(1).nullish(),
});

export type NewSite = z.input<typeof newSiteSchema>;

/**
 * Validates and stores a site. Throws a `ValidationError`-like `Error` with a
 * readable message on bad input, or when the id is taken.
 * @example
 * const site = await createSite(storage, { name: 'Blog', timezone: 'Europe/Berlin', domain: 'blog.example.com' });
 */
export async function createSite(storage: Storage, input: NewSite): Promise<Site> {
  const parsed = newSiteSchema.safeParse(input);
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  const { id, name, timezone, domain, accountId } = parsed.data;
  if (id !== undefined && (await storage.getSite(id))) throw new Error(`A site with id ${id} already exists.`);
  const site: Site = {
    id: id ?? generateSiteId(),
    name,
    timezone,
    domain: domain ?? null,
    accountId: accountId ?? null,
    createdAt: new Date().toISOString(),
  };
  await storage.insertSite(site);
  return site;
}

/** The editable part of a site, with the creation's rules and messages. */
const siteChangesSchema = newSiteSchema.pick({ name: true, domain: true });
export type SiteEdit = z.input<typeof siteChangesSchema>;

/**
 * Changes a site's name and domain, validated as at creation (same messages). The time
 * zone is not editable: the stored days of a site are its local days (docs/behaviour.md).
 * Throws an `Error` with a readable message on bad input; resolves `undefined` when there
 * is no such site.
 * @example
 * const site = await editSite(storage, 'ST-blog1', { name: 'Blog', domain: 'blog.example.org' });
 */
export async function editSite(storage: Storage, id: string, input: SiteEdit): Promise<Site | undefined> {
  const parsed = siteChangesSchema.safeParse(input);
  if (!parsed.success) throw new Error(parsed.error.issues[0]!.message);
  const changes: SiteChanges = { name: parsed.data.name, domain: parsed.data.domain ?? null };
  return storage.updateSite(id, changes);
}
