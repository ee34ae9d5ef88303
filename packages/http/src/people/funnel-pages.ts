/**
 * The account's Funnels page (funnels.md sections 4 and 5): pick a site, save a funnel (a name
 * and 2 to 8 steps, each a page path pattern or a custom event name), see how many visitors
 * reached each step over the last 30 days before saving it, delete one. The form works without
 * script (its "Preview" button posts, and the page answers with the counts); a small script
 * of our own (`FUNNEL_PREVIEW_SCRIPT`) updates the same preview as the steps are typed, from
 * the dashboard's data route (`../data/funnels`, the API through the session).
 */
import { type Funnel, type FunnelsResponse, MAX_FUNNEL_NAME_LENGTH, MAX_FUNNEL_STEPS, MAX_GOAL_PATTERN_LENGTH, type Site, stepName } from '@siteline/core';
import { escapeHtml as e } from '../dashboard/pages.js';
import { type AccountFrame, cut, deleteButton, formFor } from './pages.js';

/** What an owner entered in the form, shown again (with a preview, or after a refusal). */
export interface FunnelForm {
  name: string;
  /** Each row of the form, in order: its kind and its text (empty rows included). */
  rows: { kind: 'page' | 'event'; value: string }[];
}

/** The rows of a posted form (`kind` and `value`, repeated), at most 8, in order. */
export function postedFunnel(form: URLSearchParams): FunnelForm {
  const kinds = form.getAll('kind');
  const rows = form.getAll('value').slice(0, MAX_FUNNEL_STEPS).map((value, i) => ({ kind: kinds[i] === 'event' ? 'event' as const : 'page' as const, value }));
  return { name: form.get('name') ?? '', rows };
}

/** The steps of a form: its rows with text, in order (blank rows left out). */
export const stepsOf = (form: FunnelForm) => form.rows.filter((r) => r.value !== '').map((r) => (r.kind === 'event' ? { event: r.value } : { page: r.value }));

/** The preview's table: each step's visitors, and its share of step 1 and of the step before. */
function previewTable(preview: FunnelsResponse): string {
  const rows = preview.steps.map((s, i) => `<tr><th scope="row">${i + 1}. ${e(s.step)}</th><td class="num">${s.visitors.toLocaleString('en-US')}</td><td class="num">${s.conversion_rate}%</td><td class="num">${i === 0 ? '—' : `${s.conversion_rate_step}%`}</td></tr>`).join('');
  return `<table><caption>Visitors of the last 30 days (of ${preview.visitors.toLocaleString('en-US')} in all) who reached each step</caption>
<thead><tr><th scope="col">Step</th><th scope="col" class="num">Visitors</th><th scope="col" class="num">Of step 1</th><th scope="col" class="num">Of the step before</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The Funnels section: the site picker, the form with its preview, the site's funnels. */
export function funnelsBody(frame: AccountFrame, sites: Site[], site: Site | undefined, funnels: Funnel[], form?: FunnelForm, preview?: FunnelsResponse): string {
  const picker = `<form method="get" action="funnels" class="inline"><label for="funnel-site">Site</label> <select id="funnel-site" name="site_id">${sites.map((s) => `<option value="${e(s.id)}"${s.id === site?.id ? ' selected' : ''}>${e(s.name)} (${e(s.id)})</option>`).join('')}</select> <button type="submit">Show funnels</button></form>`;
  if (!site) return sites.length === 0 ? '<p class="empty">Add a site first.</p>' : picker;
  const rows = Array.from({ length: MAX_FUNNEL_STEPS }, (_, i) => form?.rows[i] ?? { kind: 'page', value: '' });
  const stepRows = rows.map((r, i) => `<div class="step-row"><label for="step-value-${i}">Step ${i + 1}</label>
<select id="step-kind-${i}" name="kind" aria-label="Step ${i + 1}: kind"><option value="page"${r.kind === 'page' ? ' selected' : ''}>Page path pattern</option><option value="event"${r.kind === 'event' ? ' selected' : ''}>Custom event name</option></select>
<input id="step-value-${i}" name="value" maxlength="${MAX_GOAL_PATTERN_LENGTH}" value="${e(r.value)}"${i < 2 ? ' required' : ''} placeholder="${i === 0 ? '/pricing' : i === 1 ? '/signup' : ''}"></div>`).join('\n');
  const list = funnels.map((f) => `<tr><td>${cut(f.name)}</td><td><ol class="saved-steps">${f.steps.map((s) => `<li>${e(stepName(s))}</li>`).join('')}</ol></td><td>${deleteButton(frame, 'funnels/delete', f.name, { site_id: site.id, name: f.name })}</td></tr>`).join('\n');
  return `${picker}
<section class="panel"><h2>Add a funnel to ${e(site.name)}</h2>
<p class="hint">A funnel follows visitors through steps in the order their visits went: of those who saw the pricing page, how many then opened the signup page, and how many signed up. Other pages may come between two steps. A page step is a path pattern (* matches anything, the whole path must match: /docs* is /docs and every page under it); an event step is the name your pages send with siteline('event', 'signup').</p>
${formFor(frame, 'funnels', ' class="stack" data-funnel-form')}<input type="hidden" name="site_id" value="${e(site.id)}">
<label for="funnel-name">Name</label><input id="funnel-name" name="name" required maxlength="${MAX_FUNNEL_NAME_LENGTH}" value="${e(form?.name ?? '')}" placeholder="Pricing to signup">
<fieldset><legend>Steps, in order: 2 to ${MAX_FUNNEL_STEPS}, empty ones left out</legend><div class="funnel-step-rows">
${stepRows}
</div></fieldset>
<div class="funnel-preview" id="funnel-preview" aria-live="polite">${preview ? previewTable(preview) : '<p class="hint">Enter two steps or more to see how many visitors reached each in the last 30 days.</p>'}</div>
<p><button type="submit">Save funnel</button> <button type="submit" name="do" value="preview" class="secondary">Preview the last 30 days</button></p></form></section>
<section class="panel"><h2>Funnels of ${e(site.name)}</h2>${funnels.length === 0 ? '<p class="empty">No funnels yet.</p>' : `<table><caption class="visually-hidden">Funnels</caption><thead><tr><th scope="col">Funnel</th><th scope="col">Steps</th><th scope="col">Delete</th></tr></thead><tbody>
${list}</tbody></table>`}</section>
<script type="module" src="funnel-preview.js"></script>`;
}

/**
 * The live preview: on every change of the form (after a short pause), the steps with text are
 * sent to `../data/funnels` for the last 30 days and the answer is written into the preview as
 * text (never as markup). Served as `account/funnel-preview.js`.
 */
export const FUNNEL_PREVIEW_SCRIPT = `const form = document.querySelector('form[data-funnel-form]');
const out = document.getElementById('funnel-preview');
let timer;
let pending;
const say = (text) => { const p = document.createElement('p'); p.className = 'hint'; p.textContent = text; out.replaceChildren(p); };
const cell = (tag, text, cls) => { const c = document.createElement(tag); c.textContent = text; if (cls) c.className = cls; return c; };
async function update() {
  const steps = [...form.querySelectorAll('.step-row')]
    .map((row) => [row.querySelector('select').value, row.querySelector('input').value])
    .filter(([, value]) => value !== '')
    .map(([kind, value]) => ({ [kind]: value }));
  if (steps.length < 2) return say('Enter two steps or more to see how many visitors reached each in the last 30 days.');
  pending?.abort();
  pending = new AbortController();
  const params = new URLSearchParams({ site_id: form.elements.site_id.value, period: '30d', steps: JSON.stringify(steps) });
  try {
    const res = await fetch('../data/funnels?' + params, { credentials: 'same-origin', headers: { Accept: 'application/json' }, signal: pending.signal });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return say(body.error || 'The preview failed (' + res.status + ').');
    const table = document.createElement('table');
    table.append(cell('caption', 'Visitors of the last 30 days (of ' + body.visitors.toLocaleString('en-US') + ' in all) who reached each step'));
    const head = document.createElement('tr');
    for (const [text, cls] of [['Step'], ['Visitors', 'num'], ['Of step 1', 'num'], ['Of the step before', 'num']]) head.append(cell('th', text, cls));
    table.createTHead().append(head);
    const rows = table.createTBody();
    body.steps.forEach((s, i) => {
      const tr = document.createElement('tr');
      tr.append(cell('th', (i + 1) + '. ' + s.step), cell('td', s.visitors.toLocaleString('en-US'), 'num'), cell('td', s.conversion_rate + '%', 'num'), cell('td', i === 0 ? '—' : s.conversion_rate_step + '%', 'num'));
      rows.append(tr);
    });
    out.replaceChildren(table);
  } catch (error) {
    if (error.name !== 'AbortError') say('The preview could not be loaded.');
  }
}
if (form && out) {
  const later = () => { clearTimeout(timer); timer = setTimeout(update, 300); };
  form.addEventListener('input', later);
  form.addEventListener('change', later);
}
`;
