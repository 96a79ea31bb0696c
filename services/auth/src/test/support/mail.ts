import { type Kysely, sql } from 'kysely';
import type { CaughtMail, MailCatcher } from '@secret-push/testing';
import type { AuthDatabase } from '../../storage/database';
import type { TestAuth } from '../../testing';
import { type Browser, type Page, formAction, hiddenInput } from './browser';

/** The From address the tests' auth services send as. */
export const MAIL_FROM = 'secret-push <no-reply@example.org>';

/** The environment of an auth service that sends through `catcher`, looking for due email every 100 ms. */
export const mailEnv = (catcher: Pick<MailCatcher, 'url'>): Record<string, string> => ({
  AUTH_SMTP_URL: catcher.url,
  AUTH_MAIL_FROM: MAIL_FROM,
  AUTH_MAIL_POLL_MS: '100',
});

/** The reset link of a caught reset email: the same in both parts. */
export function resetLinkIn(mail: CaughtMail, issuer: string): string {
  const pattern = new RegExp(`${issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/reset/[A-Za-z0-9_-]{43}`, 'g');
  const inText: string[] = mail.text.match(pattern) ?? [];
  const inHtml: string[] = mail.html.match(pattern) ?? [];
  if (inText.length !== 1 || !inHtml.includes(inText[0]!)) {
    throw new Error(`no single reset link in both parts of "${mail.subject}"`);
  }
  return inText[0]!;
}

/** The auth_email rows (the queue), oldest first; of one recipient when given. */
export async function queuedEmails(db: Kysely<AuthDatabase>, recipient?: string) {
  const rows = await db
    .selectFrom('auth_email')
    .selectAll()
    .$if(recipient !== undefined, (q) => q.where('recipient', '=', recipient!))
    .orderBy('created_at')
    .execute();
  return rows;
}

/** Makes every deferred email due now (instead of waiting for the retry schedule's delay). */
export async function retryNow(db: Kysely<AuthDatabase>): Promise<void> {
  await sql`update auth_email set next_attempt_at = now() where status = 'deferred'`.execute(db);
}

/** Waits until `check` holds (polling every 50 ms), failing after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The "Forgot password?" link of a login page, or undefined. */
export const forgotLinkIn = (body: string): string | undefined =>
  /<a href="(\/interaction\/[^"]+\/forgot)">Forgot password\?<\/a>/.exec(body)?.[1];

/** Posts `page`'s form (with its CSRF token) without following redirects. */
export function postForm(
  auth: TestAuth,
  b: Browser,
  page: Page,
  fields: Record<string, string>,
  headers?: Record<string, string>,
) {
  const action = new URL(formAction(page.body)!, auth.issuer);
  return b.post(action, { csrf: hiddenInput(page.body, 'csrf')!, ...fields }, headers);
}
