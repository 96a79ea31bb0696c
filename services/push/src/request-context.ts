import type { NewPush } from './domain/push';
import type { CreatedPush, RetrieveResult } from './domain/push-service';
import type { WebCaller } from './session/web-session';
import type { UploadState } from './uploads/upload-state';
import type { Principal } from './http/principal';
import type { RespondTarget } from './http/request-upload-forms';

/*
 * What the steps of a request put on `res.locals`, declared once for the whole service (the API's
 * and the pages' chains). Each key is set by exactly one step; a later step that needs it reads it
 * with `need` (http/context-guard.ts), which fails loudly when the chain lost (or reordered) that step:
 * TypeScript cannot see the order of a chain. This module only declares: nothing imports it (it is
 * part of the program), so that the modules it names can use the guard without an import cycle.
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Express's own augmentation point
  namespace Express {
    interface Locals {
      /** `authenticate` (http/bearer-auth.ts): the caller of an API request; null when anonymous. */
      principal?: Principal | null;
      /** `WebSessions.load` (session/web-session.ts): the person behind a page request. */
      webCaller?: WebCaller;
      /** Set for every page where requests are on (app.ts): the header offers "Request a secret". */
      requestPages?: boolean;
      /** The upload step (uploads/pipeline.ts) of a multipart create: the files it stored. */
      uploads?: UploadState;
      /** `idempotencyKeyOf` (http/push.routes.ts): the create's Idempotency-Key; null when none was sent. */
      idempotencyKey?: string | null;
      /** `parseInput`: the create body as the schema reads it. */
      input?: NewPush;
      /** `createPush`: what the push service created (or replayed). */
      created?: CreatedPush;
      /** `passphraseFromRequest` / `passphraseFromBody`: the passphrase given; null when none was. */
      passphrase?: string | null;
      /** `revealIdOf` (http/push.routes.ts): a reveal's Idempotency-Key (its reveal id); null when none. */
      revealId?: string | null;
      /** `retrievePush`: the view's outcome. */
      result?: RetrieveResult;
      /** `loadRespondTarget` (http/request-files.routes.ts): the request an answer is for, before its files. */
      respondTarget?: RespondTarget;
    }
  }
}

export {};
