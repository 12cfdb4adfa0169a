import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Returns the secret stored in `DATA_DIR/<name>`, generating it on first use (mode 0600). Used when
 * JWT_SECRET or WALLET_ENCRYPTION_KEY is not configured, so a laptop install is secure by default and
 * tokens survive restarts.
 */
export async function readOrCreateSecret(dataDir: string, name: string, byteLength: number): Promise<Buffer> {
  const file = path.join(dataDir, name);
  try {
    const existing = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'hex');
    if (existing.length === byteLength) return existing;
    throw new Error(`${file} does not hold ${byteLength} hex-encoded bytes; remove it to regenerate`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await fs.mkdir(dataDir, { recursive: true });
  const secret = randomBytes(byteLength);
  // 'wx' fails if another process created it meanwhile; then read theirs.
  try {
    await fs.writeFile(file, secret.toString('hex'), { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'hex');
  }
}
