/**
 * QR codes as inline SVG, for the two-factor set-up (an authenticator app scans the otpauth
 * address). Encoded by `uqr` (MIT; Project Nayuki's generator); drawn here as one path, so
 * the page needs no image URL: the dashboard's CSP allows images from this server only (no
 * `data:` or `blob:`) and no inline style, and an inline `<svg>` with presentation
 * attributes is neither.
 */
import { encode } from 'uqr';
import { escapeHtml } from '../dashboard/pages.js';

/** Modules of white around the code (the quiet zone the QR specification asks for). */
const QUIET_ZONE = 4;
/** Pixels per module as drawn (the SVG scales; this is its natural size). */
const MODULE_PX = 4;

/**
 * `text` as an inline SVG QR code (error correction M: a photographed screen reads fine),
 * black modules as one path on a white square, labelled for screen readers.
 * @example qrSvg('otpauth://totp/Siteline:ann%40example.com?secret=...', 'QR code of the set-up address')
 */
export function qrSvg(text: string, label: string): string {
  const { data, size } = encode(text, { ecc: 'M', border: QUIET_ZONE });
  let d = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) if (data[y]![x]) d += `M${x} ${y}h1v1h-1z`;
  }
  const px = size * MODULE_PX;
  return `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="${px}" height="${px}" shape-rendering="crispEdges" role="img" aria-label="${escapeHtml(label)}"><rect width="${size}" height="${size}" fill="#fff"/><path d="${d}" fill="#000"/></svg>`;
}
