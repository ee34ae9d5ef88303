import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where the development certificate lives, relative to the working directory (git-ignored). */
export const DEV_CERT_DIR = '.siteline';

export interface DevCertificate {
  certFile: string;
  keyFile: string;
  /** False when a still-valid certificate from an earlier run was reused. */
  created: boolean;
}

const DAY = 86_400_000;

/**
 * A self-signed certificate for `localhost`, `127.0.0.1` and `::1`, made
 * with the `openssl` command (so the package needs no crypto dependency) and
 * reused while it has more than a day to run. Clients trust it by passing the
 * certificate itself as the CA (`curl --cacert .siteline/dev-cert.pem`).
 *
 * @example
 * const { certFile, keyFile } = ensureDevCertificate(join(process.cwd(), '.siteline'));
 */
export function ensureDevCertificate(dir: string, now = Date.now()): DevCertificate {
  const certFile = join(dir, 'dev-cert.pem');
  const keyFile = join(dir, 'dev-key.pem');
  if (existsSync(keyFile) && stillValid(certFile, now)) return { certFile, keyFile, created: false };

  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Keeps the key out of version control even where the project's .gitignore does not list the folder.
  if (!existsSync(join(dir, '.gitignore'))) writeFileSync(join(dir, '.gitignore'), '*\n');
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '365',
      '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
      '-keyout', keyFile, '-out', certFile,
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? 'No TLS certificate is configured and the `openssl` command was not found to create a development one. ' +
          'Install OpenSSL, or set TLS_CERT_FILE and TLS_KEY_FILE in .env to a certificate and its key (PEM).'
        : `openssl could not create a development certificate: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`,
    );
  }
  chmodSync(keyFile, 0o600);
  return { certFile, keyFile, created: true };
}

function stillValid(certFile: string, now: number): boolean {
  try {
    return Date.parse(new X509Certificate(readFileSync(certFile)).validTo) - now > DAY;
  } catch {
    return false;
  }
}
