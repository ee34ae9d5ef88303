/**
 * An email report as a message: a plain-text part and an HTML part (tables and inline styles,
 * what mail clients render alike; no image, script or remote resource), the dashboard link,
 * and the recipient's unsubscribe link, also as `List-Unsubscribe` with one-click (RFC 8058).
 * Every name from the data (pages, sources, goals, the site) is escaped: beacons write them.
 */
import { measureChange, type ReportFigures, type Summary, SUMMARY_CHANGE } from '@siteline/core';
import { escapeHtml as e } from '../dashboard/pages.js';
import type { MailMessage } from '../people/mail.js';

/** Where the mail's links lead. */
export interface ReportLinks {
  /** The dashboard, opened on the site and the period. */
  dashboard: string;
  /** This recipient's unsubscribe page. */
  unsubscribe: string;
}

const count = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const relative = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 0, signDisplay: 'exceptZero' });
const points = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const dayYear = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
const monthYear = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const at = (d: string) => Date.parse(`${d}T00:00:00Z`);

/** `2m 5s`, `45s`: as the dashboard writes a visit duration. */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${s % 60}s`;
}

/** `Nov 16 – Nov 22, 2026`, or `November 2026` for a calendar month. */
export function periodText(kind: 'week' | 'month', from: string, to: string): string {
  return kind === 'month' ? monthYear.format(at(from)) : `${day.format(at(from))} – ${dayYear.format(at(to))}`;
}

/** The four figures of a report, in order, with how each is written. */
export const REPORT_FIGURES: { field: keyof Summary; label: string; format: (n: number) => string; higherIsBetter: boolean }[] = [
  { field: 'visitors', label: 'Visitors', format: (n) => count.format(n), higherIsBetter: true },
  { field: 'pageviews', label: 'Pageviews', format: (n) => count.format(n), higherIsBetter: true },
  { field: 'bounce_rate', label: 'Bounce rate', format: (n) => `${percent.format(n)}%`, higherIsBetter: false },
  { field: 'avg_duration', label: 'Visit duration', format: duration, higherIsBetter: true },
];

/** The change of a figure as the dashboard writes it (`+12%`, `-3.5 pp`, `new`, nothing when both ranges had none) and whether it is good news (undefined: no change). */
export function changeText(field: keyof Summary, now: number, before: number, higherIsBetter: boolean): { text: string; good: boolean | undefined } {
  const change = measureChange(now, before, SUMMARY_CHANGE[field]);
  if (!change) return { text: '', good: undefined };
  if (change.kind === 'new') return { text: 'new', good: undefined };
  const text = change.kind === 'points' ? `${points.format(change.points)} pp` : relative.format(change.ratio);
  const shown = change.kind === 'points' ? Math.round(change.points * 10) : Math.round(change.ratio * 100);
  return { text, good: shown === 0 ? undefined : (shown > 0) === higherIsBetter };
}

/** A period's text for HTML with a month and its day kept on one line (`Nov&nbsp;9`). */
const together = (text: string) => e(text).replace(/ (\d)/g, '&nbsp;$1');

interface Table {
  title: string;
  headings: string[];
  rows: string[][];
  empty: string;
}

function tables(f: ReportFigures): Table[] {
  const list: Table[] = [
    { title: 'Top pages', headings: ['Page', 'Visitors', 'Pageviews'], rows: f.pages.map((p) => [p.url, count.format(p.visitors), count.format(p.pageviews)]), empty: 'No pageviews.' },
    { title: 'Top sources', headings: ['Source', 'Visitors'], rows: f.sources.map((s) => [s.source, count.format(s.visitors)]), empty: 'No visits.' },
  ];
  if (f.goals) {
    list.push({
      title: 'Goals', headings: ['Goal', 'Visitors', 'Conversion rate'],
      rows: f.goals.map((g) => [g.goal, count.format(g.visitors), `${percent.format(g.conversion_rate)}%`]), empty: 'No goals set for this site.',
    });
  }
  return list;
}

/**
 * The mail of a report to one recipient.
 * @example const mail = renderReport(await reportFigures(storage, site, period), { dashboard, unsubscribe }, 'ann@example.com');
 */
export function renderReport(f: ReportFigures, links: ReportLinks, to: string): MailMessage {
  const kind = f.period.kind === 'week' ? 'weekly' : 'monthly';
  const when = periodText(f.period.kind, f.period.from, f.period.to);
  const before = periodText(f.period.kind, f.period.previous.from, f.period.previous.to);
  const subject = `Siteline ${kind} report: ${f.site.name}, ${when}`;
  const figures = REPORT_FIGURES.map((fig) => ({ ...fig, value: fig.format(f.stats[fig.field]), change: changeText(fig.field, f.stats[fig.field], f.previous[fig.field], fig.higherIsBetter) }));

  const text = [
    `Siteline ${kind} report: ${f.site.name}`, `${when} (changes against ${before})`, '',
    ...figures.map((fig) => `${fig.label.padEnd(16)}${fig.value.padStart(10)}  ${fig.change.text}`.trimEnd()), '',
    ...tables(f).flatMap((t) => [`${t.title} (${t.headings.slice(1).join(', ').toLowerCase()})`, ...(t.rows.length === 0 ? [`  ${t.empty}`] : t.rows.map((r) => `  ${r[0]}  ${r.slice(1).join('  ')}`)), '']),
    `Open the dashboard: ${links.dashboard}`, '',
    `You receive this ${kind} report of ${f.site.name} at ${to}. Stop it: ${links.unsubscribe}`, '',
  ].join('\n');

  const cell = 'padding:6px 8px;border-bottom:1px solid #dde1e7;font-size:14px';
  const figureCells = figures.map((fig) => {
    const color = fig.change.good === undefined ? '#4d5665' : fig.change.good ? '#0f7a3d' : '#b42318';
    return `<td width="50%" style="padding:10px 8px;vertical-align:top"><div style="font-size:13px;color:#4d5665">${fig.label}</div>
<div style="font-size:24px;font-weight:700;margin-top:2px">${e(fig.value)}</div><div style="font-size:13px;color:${color}">${e(fig.change.text)}</div></td>`;
  });
  const tableHtml = tables(f).map((t) => `<tr><td style="padding:16px 24px 0"><h2 style="margin:0 0 6px;font-size:16px">${t.title}</h2>
${t.rows.length === 0 ? `<p style="margin:0;color:#4d5665;font-size:14px">${t.empty}</p>` : `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse">
<tr>${t.headings.map((h, i) => `<th align="${i === 0 ? 'left' : 'right'}" style="${cell};color:#4d5665;font-weight:600;font-size:12px">${h}</th>`).join('')}</tr>
${t.rows.map((r) => `<tr>${r.map((v, i) => `<td align="${i === 0 ? 'left' : 'right'}" style="${cell}${i === 0 ? ';word-break:break-all' : ';white-space:nowrap'}">${e(v)}</td>`).join('')}</tr>`).join('\n')}
</table>`}</td></tr>`).join('\n');

  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f6f7f9;color:#1c2330;font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f6f7f9"><tr><td align="center" style="padding:24px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border:1px solid #dde1e7;border-radius:10px">
<tr><td style="padding:24px 24px 4px"><div style="font-size:13px;color:#4d5665">Siteline · ${kind} report</div>
<h1 style="margin:4px 0 2px;font-size:22px">${e(f.site.name)}</h1><div style="font-size:14px;color:#4d5665">${together(when)}, changes against ${together(before)}</div></td></tr>
<tr><td style="padding:8px 16px"><table role="presentation" width="100%" cellpadding="0" cellspacing="0">
<tr>${figureCells[0]}${figureCells[1]}</tr><tr>${figureCells[2]}${figureCells[3]}</tr></table></td></tr>
${tableHtml}
<tr><td align="center" style="padding:24px"><a href="${e(links.dashboard)}" style="display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600;padding:10px 18px;border-radius:6px">Open the dashboard</a></td></tr>
</table>
<p style="max-width:600px;margin:16px auto 0;font-size:12px;color:#4d5665;line-height:1.5">You receive this ${kind} report of ${e(f.site.name)} at ${e(to)}. <a href="${e(links.unsubscribe)}" style="color:#4d5665">Unsubscribe</a></p>
</td></tr></table>
</body></html>
`;
  return {
    to, subject, text, html,
    headers: { 'List-Unsubscribe': `<${links.unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
