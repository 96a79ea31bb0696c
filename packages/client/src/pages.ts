import type { PageOptions, PushList } from './client-types.ts';
import { type Api, apiUrlOf } from './request.ts';
import type { OwnedPush } from './types.ts';

/** Pages of `path`, following `?page=N` while the server's Link header says there is a next page. */
export function paged<T>(
  api: Api,
  path: string,
  call: PageOptions,
  pick: (body: unknown) => T[],
): AsyncIterable<T[]> {
  return {
    async *[Symbol.asyncIterator]() {
      let page = call.startPage ?? 1;
      for (;;) {
        const res = await api.transport.send({
          ...call,
          method: 'GET',
          url: apiUrlOf(api, path, { page }),
          retry: 'safe',
          authenticate: true,
        });
        const items = pick(await res.json());
        if (items.length > 0) yield items;
        const next = nextPage(res.headers.get('link'));
        if (next === undefined || next <= page) return;
        page = next;
      }
    },
  };
}

/** The caller's pushes at `path` (`/pushes/active` or `/pushes/expired`), page by page. */
export function pushList(api: Api, path: string, call: PageOptions = {}): PushList {
  const pages = () => paged<OwnedPush>(api, path, call, (body) => body as OwnedPush[]);
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page;
    },
  };
}

/** The page number of the `rel="next"` link of an RFC 8288 Link header, if any. */
export function nextPage(link: string | null): number | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (!match || !/(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(match[2] ?? '')) continue;
    try {
      const page = Number(new URL(match[1] ?? '', 'http://x').searchParams.get('page'));
      if (Number.isInteger(page) && page > 0) return page;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
