import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** What a download link grants: one file of one push, under one counted view, until `expires` (epoch seconds). */
export interface DownloadGrantClaim {
  pushId: string;
  fileId: string;
  viewId: string;
  expires: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * HMAC-SHA256 signed download links, one per file and counted view, valid for the grace period. The signing keys are derived (HKDF) from the key
 * ring's keys, so there is no extra secret to manage: the first key signs, every key verifies, and
 * rotating the ring rotates the links (which live minutes).
 */
export class DownloadLinkSigner {
  private readonly keys: Buffer[];

  constructor(ringKeys: readonly { key: Buffer }[]) {
    this.keys = ringKeys.map((k) =>
      Buffer.from(hkdfSync('sha256', k.key, Buffer.alloc(0), 'secret-push download links', 32)),
    );
  }

  private mac(key: Buffer, c: DownloadGrantClaim): Buffer {
    return createHmac('sha256', key).update(`${c.pushId}|${c.fileId}|${c.viewId}|${c.expires}`).digest();
  }

  /** The query string of a link for `claim`. */
  sign(claim: DownloadGrantClaim): string {
    const sig = this.mac(this.keys[0]!, claim).toString('base64url');
    return new URLSearchParams({
      push: claim.pushId,
      view: claim.viewId,
      expires: String(claim.expires),
      sig,
    }).toString();
  }

  /** The claim of a well-formed, authentic, unexpired link; undefined otherwise (never says why). */
  verify(
    fileId: string,
    query: Record<string, unknown>,
    nowSeconds = Date.now() / 1000,
  ): DownloadGrantClaim | undefined {
    const { push, view, expires, sig } = query;
    if (typeof push !== 'string' || typeof view !== 'string' || typeof expires !== 'string') return undefined;
    if (typeof sig !== 'string' || !UUID.test(push) || !UUID.test(fileId)) return undefined;
    if (!/^\d{1,18}$/.test(view) || !/^\d{1,12}$/.test(expires)) return undefined;
    const claim = { pushId: push, fileId, viewId: view, expires: Number(expires) };
    if (claim.expires <= nowSeconds) return undefined;
    const given = Buffer.from(sig, 'base64url');
    const ok = this.keys.some((k) => {
      const expected = this.mac(k, claim);
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    return ok ? claim : undefined;
  }
}
