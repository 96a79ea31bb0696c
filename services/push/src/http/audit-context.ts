import type { Request } from 'express';
import type { AuditContext } from '../domain/push';

const clip = (v: string | undefined) => (v ?? '').slice(0, 255);

/** The client as the audit log records it: `req.ip` honours only the configured trusted proxies. */
export function auditContext(req: Request): AuditContext {
  return { ip: req.ip ?? null, userAgent: clip(req.get('user-agent')), referrer: clip(req.get('referer')) };
}
