import { DependencyDown } from '../domain/errors';
import type { FileService } from '../domain/file-service';

/**
 * Deletes what a create stored before it failed, and says when to answer. A refused create (a
 * limit, a bad field, a client that went away) waits for the cleanup, so that when it is answered
 * it has left nothing; each store call is bounded by the store's own deadlines. A create that
 * failed because a dependency is down or frozen (the object store, the database) does not wait for
 * a second deadline: the deletion goes on after the answer, and whatever it cannot delete keeps
 * its upload intent, which the worker's stale-upload sweep deletes later.
 */
export async function discardStored(
  files: Pick<FileService, 'discard'>,
  keys: string[],
  cause: unknown,
): Promise<void> {
  if (keys.length === 0) return;
  const cleanup = files.discard(keys); // never rejects
  if (!(cause instanceof DependencyDown)) await cleanup;
}
