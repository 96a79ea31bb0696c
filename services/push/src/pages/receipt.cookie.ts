import type { Request, Response } from 'express';
import { parseCookie } from 'cookie';
import type { CreatedPush, PushService } from '../domain/push-service';

/** The receipt of the push just created, for the created page only (as its `sp_created` key). */
const RECEIPT_COOKIE = 'sp_receipt';

/**
 * After an anonymous create on the web form: the push's receipt (its private status link), handed
 * to the created page in a cookie of that page's path and lifetime. A signed-in creator has /pushes
 * instead; a replayed create keeps the receipt the first one gave (in the first one's cookie).
 */
export async function giveReceipt(
  res: Response,
  deps: { pushes: Pick<PushService, 'issueReceipt'>; publicUrl: string },
  created: CreatedPush,
  cookie: { owner: string | null; path: string; seconds: number },
): Promise<void> {
  if (cookie.owner !== null || created.replayed) return;
  const receipt = await deps.pushes.issueReceipt(created.snapshot.push.id);
  if (!receipt) return;
  res.cookie(RECEIPT_COOKIE, receipt, {
    httpOnly: true,
    sameSite: 'strict',
    secure: deps.publicUrl.startsWith('https:'),
    path: cookie.path,
    maxAge: cookie.seconds * 1000,
  });
}

/** The receipt the created page was handed, if any (checked against the push by the page). */
export const receiptCookieOf = (req: Request): string | undefined =>
  parseCookie(req.headers.cookie ?? '')[RECEIPT_COOKIE];
