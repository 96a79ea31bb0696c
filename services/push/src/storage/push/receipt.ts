import { type Kysely, sql } from 'kysely';
import type { StoredPush } from '../../domain/ports/push-store';
import type { PushDatabase } from '../database';
import { NOW } from '../view-rule.sql';
import { stored } from './rows';

type Db = Kysely<PushDatabase>;

/** An anonymous push's receipt, set once (by its hash); false when it had one or has an owner. */
export async function setReceipt(db: Db, pushId: string, receiptHash: Buffer): Promise<boolean> {
  const row = await db
    .updateTable('push')
    .set({ receipt_hash: receiptHash })
    .where('id', '=', pushId)
    .where('owner', 'is', null)
    .where(sql<boolean>`receipt_hash is null`)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The push of a receipt (by its hash), with the database's clock. */
export async function findByReceiptHash(db: Db, receiptHash: Buffer): Promise<StoredPush | undefined> {
  const row = await db
    .selectFrom('push')
    .selectAll()
    .select(NOW.as('db_now'))
    .where('receipt_hash', '=', receiptHash)
    .executeTakeFirst();
  return row && stored(row, row.db_now);
}
