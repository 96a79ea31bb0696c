import type { FileLink } from './file-link';
import type { Visit } from './ports/push-store';
import type { PushSnapshot } from './push';

/** What a retrieve answers: the payload and file links of a view, or the push as expired. */
export type RetrieveResult =
  | { outcome: 'viewed'; snapshot: PushSnapshot; payload: string | null; files: FileLink[] }
  | { outcome: 'expired'; snapshot: PushSnapshot };

/** A visit that counted a view. */
export type ViewedVisit = Extract<Visit, { outcome: 'viewed' }>;

/** A retrieve's answer, and the visit that counted its view (a reveal id remembers it). */
export interface Retrieved {
  result: RetrieveResult;
  viewed?: ViewedVisit;
}
