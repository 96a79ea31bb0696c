/* eslint-disable @typescript-eslint/require-await -- an in-memory port answers at once; `async` keeps a throw a rejection, as with the real store. */
import { Readable } from 'node:stream';
import type { ObjectStore } from '../../domain/ports/object-store';

/** The ObjectStore port in memory: objects as buffers by key; `down` makes every call fail. */
export interface InMemoryObjectStore extends ObjectStore {
  objects: Map<string, Buffer>;
  /** While true, every call fails as an unreachable store would. */
  down: boolean;
}

export function createInMemoryObjectStore(): InMemoryObjectStore {
  const objects = new Map<string, Buffer>();
  const self: InMemoryObjectStore = {
    objects,
    down: false,
    upload(key, body) {
      const chunks: Buffer[] = [];
      let aborted = false;
      const done = (async () => {
        if (self.down) throw new Error('object store down');
        for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
        if (!aborted) objects.set(key, Buffer.concat(chunks));
      })();
      return {
        done,
        async abort() {
          aborted = true;
          body.destroy();
        },
      };
    },
    async download(key) {
      if (self.down) throw new Error('object store down');
      const object = objects.get(key);
      return object && Readable.from([object]);
    },
    async delete(keys) {
      if (self.down) throw new Error('object store down');
      for (const k of keys) objects.delete(k);
    },
    async check() {
      if (self.down) throw new Error('object store down');
    },
    close() {},
  };
  return self;
}
