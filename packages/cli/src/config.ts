import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** What `secret-push login` saves. Secrets are stored as given: the file is readable by its owner only. */
export interface SavedConfig {
  url?: string;
  authUrl?: string;
  clientId?: string;
  clientSecret?: string;
  token?: string;
}

/** `$XDG_CONFIG_HOME/secret-push/config.json`, or `~/.config/secret-push/config.json`. */
export function configPath(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'secret-push', 'config.json');
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export async function loadConfig(path: string): Promise<SavedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`Cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    const out: SavedConfig = {};
    for (const key of ['url', 'authUrl', 'clientId', 'clientSecret', 'token'] as const) {
      const value = (parsed as Record<string, unknown>)[key];
      if (typeof value === 'string' && value !== '') out[key] = value;
    }
    return out;
  } catch (err) {
    throw new ConfigError(`${path} is not a valid configuration (${(err as Error).message})`);
  }
}

/** Writes the file with mode 0600 (directory 0700), through a temporary file and a rename. */
export async function saveConfig(path: string, config: SavedConfig): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600); // in case the file existed with a wider mode
  await rename(tmp, path);
}
