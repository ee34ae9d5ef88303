/**
 * Form posts of the dashboard and account pages: one reader (content type, size bound) and
 * one guard (this server's Origin and, with a session, its CSRF token).
 */
import type { IncomingMessage } from 'node:http';
import { csrfMatches, type WebSessionRow } from '@siteline/core';
import { readBody } from '../collect/http-io.js';
import { sameOrigin } from '../dashboard/http-io.js';

/** Longest form body read. */
export const MAX_FORM_BYTES = 8192;

/** The posted form, or why it cannot be read: 415 (not a form), 413 (too large), 0 (the client went away). */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | 415 | 413 | 0> {
  const type = String(req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return 415;
  const body = await readBody(req, MAX_FORM_BYTES);
  if (!body.ok) return body.reason === 'aborted' ? 0 : 413;
  return new URLSearchParams(body.text);
}

/**
 * Why a state-changing post is refused, or undefined when it may go ahead: it must come from
 * a page of this server (`Origin`) and, when a session is given, carry that session's CSRF
 * token (synchronizer token: stored with the session, compared in constant time).
 */
export function refusedPost(req: IncomingMessage, form: URLSearchParams, session: WebSessionRow | undefined, origin: { trustProxy: boolean; publicOrigin?: string }): string | undefined {
  if (!sameOrigin(req, origin.trustProxy, origin.publicOrigin)) return 'This form must be sent from this server\'s own pages.';
  if (session && !csrfMatches(session, form.get('csrf'))) return 'This form is out of date (its security token does not match your session). Reload the page and try again.';
  return undefined;
}
