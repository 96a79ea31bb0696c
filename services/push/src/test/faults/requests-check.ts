import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { download, respondWithFile, retrieve, retrievedOf, viaProxy, viewRequest } from './api';
import { json } from './http-client';
import type { RequestRecord } from './requests-load';
import type { Stack } from './stack';

/*
 * After the faults, every request the load made (issue 28) is held to its answers:
 * - answered with 201: exactly one 201 was given, the request is answered, its answer push exists
 *   and serves the payload of that 201 (read through the owner's view, then the push's link);
 * - never answered with 201 (503s, no answer, 409s): open without an answer push, or answered
 *   with exactly one (a 503 whose change had committed);
 * - and no answer push without its request: the requester client owns nothing but answer pushes,
 *   so its pushes are exactly its answered requests' answer pushes (none lost, none doubled);
 * - an answer with a file (`respond_files`): its answer push serves that one file, byte for byte;
 *   nothing half-stored by a refused one (a 503 under the S3 faults): no answer push file of the
 *   requester without its push, and a request whose file answers all failed (still open) can be
 *   answered with a file now that everything is back (201).
 */

const hashHex = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

interface Row {
  h: string;
  state: string;
  answer_push_id: string | null;
  push_exists: boolean;
}

export async function checkRequests(
  s: Stack,
  records: RequestRecord[],
  ownerToken: string,
): Promise<{ problems: string[]; notes: string[] }> {
  const problems: string[] = [];
  const rows = new Map<string, Row>();
  for (let i = 0; i < records.length; i += 500) {
    const hexes = records.slice(i, i + 500).map((r) => hashHex(r.token));
    const found = await sql<Row>`
      select encode(r.token_hash, 'hex') as h, r.state, r.answer_push_id, (p.id is not null) as push_exists
        from request r left join push p on p.id = r.answer_push_id
       where r.token_hash = any(array(select decode(h, 'hex') from unnest(${hexes}::text[]) as h))`.execute(
      s.db,
    );
    for (const row of found.rows) rows.set(row.h, row);
  }
  const toRead: { rec: RequestRecord; payload: string; file?: { data: Buffer } }[] = [];
  const toAnswer: RequestRecord[] = [];
  let answered = 0;
  let with503 = 0;
  for (const rec of records) {
    const row = rows.get(hashHex(rec.token));
    if (!row) {
      problems.push(`request created in "${rec.phase}" (201) is missing`);
      continue;
    }
    const wins = rec.answers.filter((a) => a.status === 201);
    if (rec.answers.some((a) => a.status === 503)) with503++;
    if (wins.length > 1) problems.push(`request of "${rec.phase}" answered 201 ${wins.length} times`);
    if (wins.length >= 1) {
      if (row.state !== 'answered' || !row.push_exists) {
        problems.push(
          `request answered 201 in "${wins[0]!.phase}" is ${row.state}, answer push ${row.push_exists ? 'present' : 'missing'}`,
        );
      } else {
        toRead.push({ rec, payload: wins[0]!.payload, ...(wins[0]!.file ? { file: wins[0]!.file } : {}) });
      }
    } else if (row.state === 'answered' ? !row.push_exists : row.answer_push_id !== null) {
      problems.push(
        `request of "${rec.phase}" is ${row.state} with answer push ${row.answer_push_id ?? 'none'}`,
      );
    } else if (row.state === 'open' && rec.files && rec.answers.some((a) => a.status === 503)) {
      toAnswer.push(rec);
    }
    if (row.state === 'answered') answered++;
  }

  // Each 201's payload is the one its answer push serves (the owner's view gives the link).
  const proxy = viaProxy(s.proxies.push);
  const wrong: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < toRead.length; i = next++) {
        const { rec, payload, file } = toRead[i]!;
        const view = await viewRequest(proxy, rec.token, ownerToken, 10_000);
        const answer = json(view)?.answer as { url_token?: string } | null | undefined;
        if (view.status !== 200 || typeof answer?.url_token !== 'string') {
          wrong.push(`owner's view: ${view.error ?? view.status}`);
          continue;
        }
        const got = await retrieve(proxy, answer.url_token, undefined, 10_000);
        const served = retrievedOf(got);
        if (got.status !== 200 || served?.payload !== payload) {
          wrong.push(`answer push of "${rec.phase}": ${got.error ?? got.status}, not the payload of its 201`);
          continue;
        }
        if (!file) continue;
        if (served.files.length !== 1) {
          wrong.push(`file answer of "${rec.phase}" served with ${served.files.length} files`);
          continue;
        }
        const d = await download(proxy, served.files[0]!.url, 10_000);
        if (d.status !== 200 || !d.body.equals(file.data)) {
          wrong.push(
            `file answer of "${rec.phase}": download ${d.error ?? d.status}, not the file of its 201`,
          );
        }
      }
    }),
  );
  if (wrong.length > 0) {
    problems.push(`${wrong.length} answers not served as answered: ${wrong.slice(0, 5).join('; ')}`);
  }

  // A request whose file answers were all refused (503) is still answerable, with a file, now.
  let answeredNow = 0;
  for (const rec of toAnswer) {
    const data = randomBytes(300);
    const res = await respondWithFile(
      proxy,
      rec.token,
      'after the fault',
      { name: 'late.bin', data },
      undefined,
      10_000,
    );
    if (res.status === 201) answeredNow++;
    else {
      problems.push(
        `request of "${rec.phase}" whose file answers got 503 (${rec.answers.map((a) => a.status ?? a.error).join(', ')}) ` +
          `could not be answered after the faults: ${res.error ?? res.status} ${res.body.toString('utf8').slice(0, 200)}`,
      );
    }
  }

  const owner = `client:${s.requester.client_id}`;
  const { rows: counts } = await sql<{ pushes: number; answers: number }>`
    select (select count(*) from push where owner = ${owner})::int as pushes,
           (select count(*) from request where owner = ${owner} and answer_push_id is not null)::int as answers`.execute(
    s.db,
  );
  const c = counts[0]!;
  if (c.pushes !== c.answers) {
    problems.push(`the requester owns ${c.pushes} pushes but ${c.answers} requests have an answer push`);
  }
  // Files of answers: each belongs to an answer push (none left by a refused answer).
  const { rows: orphans } = await sql<{ n: number }>`
    select count(*)::int as n from push_file f
     where not exists (select 1 from push p where p.id = f.push_id)`.execute(s.db);
  if (orphans[0]!.n > 0) problems.push(`${orphans[0]!.n} push_file rows without their push`);
  const fileAnswers = records.filter((r) => r.files).length;
  const fileWith503 = records.filter((r) => r.files && r.answers.some((a) => a.status === 503)).length;
  const sent = records.reduce((n, r) => n + r.answers.length, 0);
  return {
    problems,
    notes: [
      `${records.length} requests, ${sent} answers sent, ${answered} answered (${toRead.length} read back), ` +
        `${with503} saw a 503; requester's pushes ${c.pushes} = answer pushes ${c.answers}`,
      `${fileAnswers} requests take files, ${fileWith503} of them saw a 503 on a file answer; ` +
        `${toAnswer.length} left open by their 503s, ${answeredNow} answered with a file after the faults`,
    ],
  };
}
